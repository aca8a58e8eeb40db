// The store tables: stores (one row per store; settings JSON with the password sealed), the
// uploaded files, and their text chunks with the engine's full-text index: an FTS5 table
// (external content, kept in step by triggers) on SQLite, a generated tsvector column with a GIN
// index on PostgreSQL, a FULLTEXT index on MySQL/MariaDB.
import { sql, type Kysely } from 'kysely';
import type { Database, MigrationFactory } from '../../../src/core/index.ts';

export interface StoresTable {
  id: number;
  name: string;
  engine: string;
  owner_id: number;
  /** JSON object; a mysql password is sealed with the server secret. */
  settings: string;
  created_at: number;
  updated_at: number;
}
export interface StoreFilesTable {
  id: number;
  store_id: number;
  name: string;
  bytes: number;
  chunks: number;
  created_at: number;
}
export interface StoreChunksTable {
  id: number;
  store_id: number;
  file_id: number;
  seq: number;
  /** `s<store id>`: lets the SQLite FTS query filter by store inside the MATCH. */
  tag: string;
  body: string;
}
/** A store's settings as stored (JSON), every value a string; {} when unreadable. */
export function parseSettings(json: string): Record<string, string> {
  try {
    const value = JSON.parse(json) as Record<string, unknown>;
    return Object.fromEntries(Object.entries(value ?? {}).map(([k, v]) => [k, String(v)]));
  } catch {
    return {};
  }
}

export type StoreDb = Kysely<Database & { stores: StoresTable; store_files: StoreFilesTable; store_chunks: StoreChunksTable }>;

export const storeMigration: MigrationFactory = (engine, c) => ({
  async up(db) {
    const auto = (col: import('kysely').ColumnDefinitionBuilder) => (engine === 'postgres' ? col.primaryKey() : col.primaryKey().autoIncrement());
    await db.schema
      .createTable('stores')
      .addColumn('id', c.id, auto)
      .addColumn('name', c.name, (col) => col.notNull())
      .addColumn('engine', c.name, (col) => col.notNull())
      .addColumn('owner_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .addColumn('settings', c.text, (col) => col.notNull())
      .addColumn('created_at', c.bigint, (col) => col.notNull())
      .addColumn('updated_at', c.bigint, (col) => col.notNull())
      .execute();
    await db.schema.createIndex('stores_owner_name').on('stores').columns(['owner_id', 'name']).unique().execute();
    await db.schema
      .createTable('store_files')
      .addColumn('id', c.id, auto)
      .addColumn('store_id', 'integer', (col) => col.notNull().references('stores.id').onDelete('cascade'))
      .addColumn('name', c.name, (col) => col.notNull())
      .addColumn('bytes', c.bigint, (col) => col.notNull())
      .addColumn('chunks', 'integer', (col) => col.notNull())
      .addColumn('created_at', c.bigint, (col) => col.notNull())
      .execute();
    await db.schema.createIndex('store_files_store').on('store_files').column('store_id').execute();
    await db.schema
      .createTable('store_chunks')
      .addColumn('id', c.id, auto)
      .addColumn('store_id', 'integer', (col) => col.notNull().references('stores.id').onDelete('cascade'))
      .addColumn('file_id', 'integer', (col) => col.notNull().references('store_files.id').onDelete('cascade'))
      .addColumn('seq', 'integer', (col) => col.notNull())
      .addColumn('tag', c.name, (col) => col.notNull())
      .addColumn('body', c.text, (col) => col.notNull())
      .execute();
    await db.schema.createIndex('store_chunks_store').on('store_chunks').column('store_id').execute();
    await db.schema.createIndex('store_chunks_file').on('store_chunks').column('file_id').execute();
    if (engine === 'sqlite') await createSqliteFts(db);
    else if (engine === 'postgres') {
      await sql`ALTER TABLE store_chunks ADD COLUMN tsv tsvector GENERATED ALWAYS AS (to_tsvector('simple', body)) STORED`.execute(db);
      await sql`CREATE INDEX store_chunks_tsv ON store_chunks USING GIN (tsv)`.execute(db);
    } else {
      await sql`ALTER TABLE store_chunks ADD FULLTEXT INDEX store_chunks_body (body)`.execute(db);
    }
  },
  async down(db) {
    if (engine === 'sqlite') {
      await sql`DROP TABLE IF EXISTS store_chunks_vocab`.execute(db);
      await sql`DROP TABLE IF EXISTS store_chunks_fts`.execute(db);
    }
    for (const table of ['store_chunks', 'store_files', 'stores']) await db.schema.dropTable(table).ifExists().execute();
  },
});

/** The SQLite full-text index over store_chunks (also used by the benchmark on its own database). */
export async function createSqliteFts(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE VIRTUAL TABLE store_chunks_fts USING fts5(body, tag, content='store_chunks', content_rowid='id', tokenize='unicode61 remove_diacritics 2')`.execute(db);
  // Document frequencies per term, for the query planner (search.ts).
  await sql`CREATE VIRTUAL TABLE store_chunks_vocab USING fts5vocab(store_chunks_fts, 'row')`.execute(db);
  await sql`CREATE TRIGGER store_chunks_ai AFTER INSERT ON store_chunks BEGIN
    INSERT INTO store_chunks_fts(rowid, body, tag) VALUES (new.id, new.body, new.tag); END`.execute(db);
  await sql`CREATE TRIGGER store_chunks_ad AFTER DELETE ON store_chunks BEGIN
    INSERT INTO store_chunks_fts(store_chunks_fts, rowid, body, tag) VALUES ('delete', old.id, old.body, old.tag); END`.execute(db);
}
