// The core's migrations (its tables: accounts, sessions and logs, usage, uploads, the balance
// ledger); each plugin brings its own, and migrator.ts applies them all on start.
import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import type { MigrationFactory } from '../../core/index.ts';
import type { OwnedMigrations } from './migrator.ts';

/** Accounts: users, groups and memberships, login tokens, e-mail tokens. */
export const accountsMigration: MigrationFactory = (engine, c) => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('users')
      .addColumn('id', c.id, (col) => (engine === 'postgres' ? col.primaryKey() : col.primaryKey().autoIncrement()))
      .addColumn('username', c.name, (col) => col.notNull().unique())
      .addColumn('email', c.name, (col) => col.notNull())
      .addColumn('password_hash', c.name, (col) => col.notNull())
      .addColumn('role', c.name, (col) => col.notNull())
      .addColumn('role_expires_at', c.bigint)
      .addColumn('balance', c.double, (col) => col.notNull().defaultTo(0))
      .addColumn('settings', c.text, (col) => col.notNull())
      .addColumn('email_verified', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('email_subscription', 'integer', (col) => col.notNull().defaultTo(1))
      .addColumn('created_at', c.bigint, (col) => col.notNull())
      .addColumn('updated_at', c.bigint, (col) => col.notNull())
      .execute();
    await db.schema.createIndex('users_email').on('users').column('email').execute();
    await db.schema
      .createTable('groups')
      .addColumn('id', c.id, (col) => (engine === 'postgres' ? col.primaryKey() : col.primaryKey().autoIncrement()))
      .addColumn('name', c.name, (col) => col.notNull().unique())
      .addColumn('owner_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .addColumn('created_at', c.bigint, (col) => col.notNull())
      .execute();
    await db.schema
      .createTable('group_members')
      .addColumn('group_id', 'integer', (col) => col.notNull().references('groups.id').onDelete('cascade'))
      .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .addColumn('created_at', c.bigint, (col) => col.notNull())
      .addPrimaryKeyConstraint('group_members_pk', ['group_id', 'user_id'])
      .execute();
    await db.schema
      .createTable('login_tokens')
      .addColumn('token_hash', c.name, (col) => col.primaryKey())
      .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .addColumn('created_at', c.bigint, (col) => col.notNull())
      .addColumn('expires_at', c.bigint, (col) => col.notNull())
      .execute();
    await db.schema.createIndex('login_tokens_user').on('login_tokens').column('user_id').execute();
    await db.schema
      .createTable('email_tokens')
      .addColumn('token_hash', c.name, (col) => col.primaryKey())
      .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .addColumn('kind', c.name, (col) => col.notNull())
      .addColumn('new_email', c.name)
      .addColumn('expires_at', c.bigint, (col) => col.notNull())
      .addColumn('used_at', c.bigint)
      .execute();
  },
  async down(db: Kysely<unknown>) {
    for (const table of ['email_tokens', 'login_tokens', 'group_members', 'groups', 'users']) {
      await db.schema.dropTable(table).ifExists().execute();
    }
  },
});

/** Chat: sessions (with their branches), logs and the usage ledger (users' models are plugins/model's). */
export const chatMigration: MigrationFactory = (engine, c) => ({
  async up(db: Kysely<unknown>) {
    const serial = (col: ColumnDefinitionBuilder) => (engine === 'postgres' ? col.primaryKey() : col.primaryKey().autoIncrement());
    await db.schema
      .createTable('sessions')
      .addColumn('id', c.bigint, (col) => col.primaryKey())
      .addColumn('parent_id', c.bigint)
      .addColumn('branch_time', c.bigint)
      .addColumn('user_id', 'integer', (col) => col.references('users.id').onDelete('cascade'))
      .addColumn('device_id', c.name)
      .addColumn('shared', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('created_at', c.bigint, (col) => col.notNull())
      .addColumn('updated_at', c.bigint, (col) => col.notNull())
      .execute();
    await db.schema.createIndex('sessions_user').on('sessions').columns(['user_id', 'id']).execute();
    await db.schema.createIndex('sessions_device').on('sessions').columns(['device_id', 'id']).execute();
    await db.schema
      .createTable('logs')
      .addColumn('id', c.id, serial)
      .addColumn('session', c.bigint, (col) => col.notNull())
      .addColumn('time', c.bigint, (col) => col.notNull())
      .addColumn('user_id', 'integer', (col) => col.references('users.id').onDelete('cascade'))
      .addColumn('device_id', c.name)
      .addColumn('model', c.name, (col) => col.notNull())
      .addColumn('input', c.text, (col) => col.notNull())
      .addColumn('output', c.text, (col) => col.notNull())
      .addColumn('images', c.text, (col) => col.notNull())
      .addColumn('tools', c.text, (col) => col.notNull())
      .addColumn('input_tokens', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('output_tokens', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('created_at', c.bigint, (col) => col.notNull())
      .execute();
    await db.schema.createIndex('logs_session_time').on('logs').columns(['session', 'time']).unique().execute();
    await db.schema.createIndex('logs_user').on('logs').columns(['user_id', 'time']).execute();
    await db.schema
      .createTable('usage')
      .addColumn('id', c.id, serial)
      .addColumn('user_id', 'integer', (col) => col.references('users.id').onDelete('cascade'))
      .addColumn('device_id', c.name)
      .addColumn('log_id', 'integer')
      .addColumn('kind', c.name, (col) => col.notNull())
      .addColumn('model', c.name, (col) => col.notNull())
      .addColumn('input_tokens', 'integer', (col) => col.notNull())
      .addColumn('output_tokens', 'integer', (col) => col.notNull())
      .addColumn('cost', c.double, (col) => col.notNull())
      .addColumn('created_at', c.bigint, (col) => col.notNull())
      .execute();
    await db.schema.createIndex('usage_user').on('usage').columns(['user_id', 'created_at']).execute();
  },
  async down(db: Kysely<unknown>) {
    for (const table of ['usage', 'logs', 'sessions']) await db.schema.dropTable(table).ifExists().execute();
  },
});

/** Files attached to questions (presigned uploads), kept in the database with their owner. */
export const uploadsMigration: MigrationFactory = (_engine, c) => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('uploads')
      .addColumn('id', c.name, (col) => col.primaryKey())
      // Deleted with the account (the privacy policy's promise).
      .addColumn('user_id', 'integer', (col) => col.references('users.id').onDelete('cascade'))
      .addColumn('device_id', c.name)
      .addColumn('name', c.name, (col) => col.notNull())
      .addColumn('content_type', c.name, (col) => col.notNull())
      .addColumn('put_type', c.name, (col) => col.notNull())
      .addColumn('size', c.bigint, (col) => col.notNull().defaultTo(0))
      .addColumn('ready', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('created_at', c.bigint, (col) => col.notNull())
      .addColumn('expires_at', c.bigint, (col) => col.notNull())
      .execute();
    await db.schema.createIndex('uploads_user').on('uploads').column('user_id').execute();
    await db.schema.createIndex('uploads_device').on('uploads').column('device_id').execute();
    // The bytes, in parts (dbSchema.ts says why), gone with their upload.
    await db.schema
      .createTable('upload_parts')
      .addColumn('upload_id', c.name, (col) => col.notNull().references('uploads.id').onDelete('cascade'))
      .addColumn('seq', 'integer', (col) => col.notNull())
      .addColumn('data', c.blob, (col) => col.notNull())
      .addPrimaryKeyConstraint('upload_parts_pk', ['upload_id', 'seq'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('upload_parts').ifExists().execute();
    await db.schema.dropTable('uploads').ifExists().execute();
  },
});

/**
 * The balance ledger (ledger.ts): balances in whole cents. What balances the double column held
 * becomes each user's opening row, rounded to the cent; the column stays, unread.
 */
export const ledgerMigration: MigrationFactory = (engine, c) => ({
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('users').addColumn('balance_cents', c.bigint, (col) => col.notNull().defaultTo(0)).execute();
    await db.schema
      .createTable('balance_ledger')
      .addColumn('id', c.id, (col) => (engine === 'postgres' ? col.primaryKey() : col.primaryKey().autoIncrement()))
      .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .addColumn('cents', c.bigint, (col) => col.notNull())
      .addColumn('kind', c.name, (col) => col.notNull())
      .addColumn('reference', c.name, (col) => col.unique())
      .addColumn('created_at', c.bigint, (col) => col.notNull())
      .execute();
    await db.schema.createIndex('balance_ledger_user').on('balance_ledger').columns(['user_id', 'created_at']).execute();
    const users = db as unknown as Kysely<{ users: { id: number; balance: number; balance_cents: number }; balance_ledger: { user_id: number; cents: number; kind: string; reference: string | null; created_at: number } }>;
    const held = await users.selectFrom('users').select(['id', 'balance']).where('balance', '!=', 0).execute();
    for (const row of held) {
      const cents = Math.round(Number(row.balance) * 100);
      await users.insertInto('balance_ledger').values({ user_id: row.id, cents, kind: 'opening', reference: null, created_at: Date.now() }).execute();
      await users.updateTable('users').set({ balance_cents: cents }).where('id', '=', row.id).execute();
    }
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('balance_ledger').ifExists().execute();
    await db.schema.alterTable('users').dropColumn('balance_cents').execute();
  },
});

/**
 * Visitors' limits keyed by address as well as by browser (issue 34): the address key of a
 * visitor's uses and uploads, and a use that waits for what completes it (a local model's log,
 * the browser's tool results).
 */
/** Where a ledger row's call came from, when not the page (ServerTurnInput.tag: 'key:12'), to count a key's tokens by. */
export const usageTagMigration: MigrationFactory = (_engine, c) => ({
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('usage').addColumn('tag', c.name).execute();
    await db.schema.createIndex('usage_tag').on('usage').columns(['tag', 'created_at']).execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('usage_tag').on('usage').execute();
    await db.schema.alterTable('usage').dropColumn('tag').execute();
  },
});

export const visitorAddressMigration: MigrationFactory = (_engine, c) => ({
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('usage').addColumn('address', c.name).execute();
    await db.schema.alterTable('usage').addColumn('awaiting', c.bigint).execute();
    await db.schema.alterTable('usage').addColumn('continued', 'integer', (col) => col.notNull().defaultTo(0)).execute();
    await db.schema.createIndex('usage_address').on('usage').columns(['address', 'created_at']).execute();
    await db.schema.alterTable('uploads').addColumn('address', c.name).execute();
    await db.schema.createIndex('uploads_address').on('uploads').column('address').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('uploads_address').on('uploads').execute();
    await db.schema.alterTable('uploads').dropColumn('address').execute();
    await db.schema.dropIndex('usage_address').on('usage').execute();
    await db.schema.alterTable('usage').dropColumn('continued').execute();
    await db.schema.alterTable('usage').dropColumn('awaiting').execute();
    await db.schema.alterTable('usage').dropColumn('address').execute();
  },
});

/**
 * The core's migrations, numbered in their own sequence like each plugin's (migrator.ts), with
 * the names they were applied under when numbers were global across plugins.
 */
export const CORE_MIGRATIONS: OwnedMigrations = {
  owner: '',
  migrations: {
    '0001_accounts': accountsMigration,
    '0002_sessions': chatMigration,
    '0003_uploads': uploadsMigration,
    '0004_ledger': ledgerMigration,
    '0005_visitor_addresses': visitorAddressMigration,
    '0006_usage_tags': usageTagMigration,
  },
  // 0002_chat made the users' models table too, which a plugin makes now.
  formerNames: { '0002_sessions': '0002_chat', '0003_uploads': '0400_uploads', '0004_ledger': '0600_ledger', '0005_visitor_addresses': '0820_visitor_addresses' },
};
