// The audit_log table: one row per change, appended by the listener (index.ts) and never
// updated or deleted by the app. The actor is kept by id and by name (an account deleted later
// leaves its rows readable); no foreign key, for the same reason.
import type { Generated, Kysely } from 'kysely';
import type { Database, MigrationFactory } from '../../../src/core/index.ts';

export interface AuditLogTable {
  id: Generated<number>;
  at: number;
  kind: string;
  target: string | null;
  actor_id: number | null;
  actor: string | null;
  address: string | null;
  /** JSON, secrets taken out (redact.ts). */
  before_value: string | null;
  after_value: string | null;
}

export type AuditDb = Kysely<Database & { audit_log: AuditLogTable }>;

export const auditLogMigration: MigrationFactory = (engine, c) => ({
  async up(db) {
    await db.schema
      .createTable('audit_log')
      .addColumn('id', c.id, (col) => (engine === 'postgres' ? col.primaryKey() : col.primaryKey().autoIncrement()))
      .addColumn('at', c.bigint, (col) => col.notNull())
      .addColumn('kind', c.name, (col) => col.notNull())
      .addColumn('target', c.name)
      .addColumn('actor_id', 'integer')
      .addColumn('actor', c.name)
      .addColumn('address', c.name)
      .addColumn('before_value', c.text)
      .addColumn('after_value', c.text)
      .execute();
    await db.schema.createIndex('audit_log_at').on('audit_log').column('at').execute();
    await db.schema.createIndex('audit_log_kind_at').on('audit_log').columns(['kind', 'at']).execute();
    await db.schema.createIndex('audit_log_actor_at').on('audit_log').columns(['actor', 'at']).execute();
    await db.schema.createIndex('audit_log_target_at').on('audit_log').columns(['target', 'at']).execute();
  },
  async down(db) {
    await db.schema.dropTable('audit_log').ifExists().execute();
  },
});
