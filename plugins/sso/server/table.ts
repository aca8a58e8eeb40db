// The sso plugin's tables: sign-ons under way (short-lived, single use, shared by every
// instance), the identities linked to accounts, and the claims of the last sign-ons (for
// root's `:sso test`). Tokens are never stored.
import type { Generated, Kysely } from 'kysely';
import type { Database, MigrationFactory } from '../../../src/core/index.ts';

export interface SsoFlowsTable {
  /** SHA-256 of the `state` sent to the provider: a leaked database row cannot finish a flow. */
  state_hash: string;
  provider: string;
  /** SHA-256 of the browser's flow cookie: the flow finishes only in the browser that began it. */
  binding_hash: string;
  /** The PKCE verifier, sealed with the server's secret. */
  verifier: string;
  nonce: string;
  redirect_uri: string;
  /** The address that began it: sign-ons under way are counted per address. */
  address: string;
  /** Set by `:user sso link`: the account the identity is linked to. */
  link_user_id: number | null;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface SsoIdentitiesTable {
  provider: string;
  subject: string;
  user_id: number;
  email: string;
  /** The role the rules gave at the last sign-on (taken back when no rule gives it any more). */
  mapped_role: string | null;
  /** JSON list of the shellchat groups the rules gave at the last sign-on. */
  mapped_groups: string;
  created_at: number;
  last_login_at: number;
}

export interface SsoClaimsTable {
  id: Generated<number>;
  provider: string;
  subject: string;
  username: string | null;
  /** What came of it: the message name ('loggedIn', 'signUpClosed'...). */
  outcome: string;
  /** JSON of the ID token's claims (never a token). */
  claims: string;
  created_at: number;
}

/** A terminal's sign-on under way (the device authorization grant), polled from any instance. */
export interface SsoDevicesTable {
  /** SHA-256 of the handle the terminal polls with. */
  handle_hash: string;
  provider: string;
  /** The provider's device code, sealed with the server's secret. */
  device_code: string;
  /** Seconds between two questions to the provider (raised when it says slow_down). */
  interval_s: number;
  /** The provider is asked again no sooner than this, whatever the terminals do. */
  next_poll_at: number;
  address: string;
  created_at: number;
  expires_at: number;
}

export type SsoDb = Kysely<Database & { sso_flows: SsoFlowsTable; sso_identities: SsoIdentitiesTable; sso_claims: SsoClaimsTable; sso_devices: SsoDevicesTable }>;

export const ssoTablesMigration: MigrationFactory = (engine, c) => ({
  async up(db) {
    await db.schema
      .createTable('sso_flows')
      .addColumn('state_hash', c.name, (col) => col.primaryKey())
      .addColumn('provider', c.name, (col) => col.notNull())
      .addColumn('binding_hash', c.name, (col) => col.notNull())
      .addColumn('verifier', c.text, (col) => col.notNull())
      .addColumn('nonce', c.name, (col) => col.notNull())
      .addColumn('redirect_uri', c.text, (col) => col.notNull())
      .addColumn('address', c.name, (col) => col.notNull())
      .addColumn('link_user_id', 'integer', (col) => col.references('users.id').onDelete('cascade'))
      .addColumn('created_at', c.bigint, (col) => col.notNull())
      .addColumn('expires_at', c.bigint, (col) => col.notNull())
      .addColumn('used_at', c.bigint)
      .execute();
    await db.schema.createIndex('sso_flows_address').on('sso_flows').column('address').execute();
    await db.schema
      .createTable('sso_identities')
      .addColumn('provider', c.name, (col) => col.notNull())
      .addColumn('subject', c.name, (col) => col.notNull())
      .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .addColumn('email', c.name, (col) => col.notNull())
      .addColumn('mapped_role', c.name)
      .addColumn('mapped_groups', c.text, (col) => col.notNull())
      .addColumn('created_at', c.bigint, (col) => col.notNull())
      .addColumn('last_login_at', c.bigint, (col) => col.notNull())
      .addPrimaryKeyConstraint('sso_identities_pk', ['provider', 'subject'])
      .execute();
    await db.schema.createIndex('sso_identities_user').on('sso_identities').column('user_id').execute();
    await db.schema
      .createTable('sso_claims')
      .addColumn('id', c.id, (col) => (engine === 'postgres' ? col.primaryKey() : col.primaryKey().autoIncrement()))
      .addColumn('provider', c.name, (col) => col.notNull())
      .addColumn('subject', c.name, (col) => col.notNull())
      .addColumn('username', c.name)
      .addColumn('outcome', c.name, (col) => col.notNull())
      .addColumn('claims', c.text, (col) => col.notNull())
      .addColumn('created_at', c.bigint, (col) => col.notNull())
      .execute();
  },
  async down(db) {
    for (const table of ['sso_claims', 'sso_identities', 'sso_flows']) await db.schema.dropTable(table).ifExists().execute();
  },
});

export const ssoDevicesMigration: MigrationFactory = (_engine, c) => ({
  async up(db) {
    await db.schema
      .createTable('sso_devices')
      .addColumn('handle_hash', c.name, (col) => col.primaryKey())
      .addColumn('provider', c.name, (col) => col.notNull())
      .addColumn('device_code', c.text, (col) => col.notNull())
      .addColumn('interval_s', 'integer', (col) => col.notNull())
      .addColumn('next_poll_at', c.bigint, (col) => col.notNull())
      .addColumn('address', c.name, (col) => col.notNull())
      .addColumn('created_at', c.bigint, (col) => col.notNull())
      .addColumn('expires_at', c.bigint, (col) => col.notNull())
      .execute();
    await db.schema.createIndex('sso_devices_address').on('sso_devices').column('address').execute();
  },
  async down(db) {
    await db.schema.dropTable('sso_devices').ifExists().execute();
  },
});
