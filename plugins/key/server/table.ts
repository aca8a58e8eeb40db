// The api_keys table: a key's owner, name, shown prefix, the SHA-256 of its secret (never the
// secret), its scope (role, stores, model), expiry, whether its calls are logged and in which
// session, and when it was made, last used and revoked. A deleted user's keys go with the user
// (ON DELETE CASCADE, and the accounts hook for engines where foreign keys are off).
import type { Generated, Kysely } from 'kysely';
import type { Database, MigrationFactory } from '../../../src/core/index.ts';

export interface KeysTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  prefix: string;
  /** Hex SHA-256 of the whole key. */
  hash: string;
  role: string;
  /** Comma-separated store names. */
  stores: string;
  model: string;
  expires_at: number | null;
  no_log: number;
  /** The session the key's calls are logged in (made at creation; unused with no_log). */
  session: number;
  created_at: number;
  last_used_at: number | null;
  revoked: number;
}

export type KeysDb = Kysely<Database & { api_keys: KeysTable }>;

export const keysMigration: MigrationFactory = (engine, c) => ({
  async up(db) {
    await db.schema
      .createTable('api_keys')
      .addColumn('id', c.id, (col) => (engine === 'postgres' ? col.primaryKey() : col.primaryKey().autoIncrement()))
      .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .addColumn('name', c.name, (col) => col.notNull())
      .addColumn('prefix', c.name, (col) => col.notNull())
      .addColumn('hash', c.name, (col) => col.notNull().unique())
      .addColumn('role', c.name, (col) => col.notNull().defaultTo(''))
      .addColumn('stores', c.text, (col) => col.notNull())
      .addColumn('model', c.name, (col) => col.notNull().defaultTo(''))
      .addColumn('expires_at', c.bigint)
      .addColumn('no_log', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('session', c.bigint, (col) => col.notNull())
      .addColumn('created_at', c.bigint, (col) => col.notNull())
      .addColumn('last_used_at', c.bigint)
      .addColumn('revoked', 'integer', (col) => col.notNull().defaultTo(0))
      .execute();
    await db.schema.createIndex('api_keys_prefix').on('api_keys').column('prefix').execute();
    await db.schema.createIndex('api_keys_user').on('api_keys').columns(['user_id', 'name']).execute();
  },
  async down(db) {
    await db.schema.dropTable('api_keys').ifExists().execute();
  },
});
