// The full-text index over the core's logs table, one per engine, kept by the database itself so
// that every write path (the turn, edits, deletes, imports, a visitor's logs adopted at login) is
// indexed with no hook, and backfilled from the logs already there when the migration runs:
// - SQLite: a contentless FTS5 table (owner tag, input, output) kept by triggers on logs;
// - PostgreSQL: a GIN index on a 'simple' (language-neutral) to_tsvector expression;
// - MySQL/MariaDB: a FULLTEXT index on (input, output), built with stopwords off.
// Left out of app.config.ts, the plugin creates none of it. On a database where it ran, `down`
// removes it all; what would stay otherwise is harmless (kept in step with the logs, never read).
import { sql, type Kysely } from 'kysely';
import type { MigrationFactory } from '../../../src/core/index.ts';

/**
 * What PostgreSQL indexes of a log: a tsvector holds at most 1 MB, so a very long log is indexed
 * by its first characters rather than failing the insert that saves it.
 */
export const PG_INDEXED_CHARS = 200_000;
export const pgDocument = sql`to_tsvector('simple', left(coalesce(input, '') || ' ' || coalesce(output, ''), ${sql.lit(PG_INDEXED_CHARS)}))`;

/** The owner tag of a log in the SQLite index: `u<user id>`, '' for a visitor's (nobody finds those until adopted). */
const ownerOf = (row: 'new' | 'logs') => sql.raw(`coalesce('u' || ${row}.user_id, '')`);

export async function createSqliteIndex(db: Kysely<unknown>): Promise<void> {
  // contentless_delete: triggers delete by rowid alone (the old text is not needed).
  await sql`CREATE VIRTUAL TABLE logs_fts USING fts5(owner, input, output, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2')`.execute(db);
  await sql`INSERT INTO logs_fts(rowid, owner, input, output) SELECT id, ${ownerOf('logs')}, input, output FROM logs`.execute(db);
  await sql`CREATE TRIGGER logs_fts_ai AFTER INSERT ON logs BEGIN
    INSERT INTO logs_fts(rowid, owner, input, output) VALUES (new.id, ${ownerOf('new')}, new.input, new.output); END`.execute(db);
  await sql`CREATE TRIGGER logs_fts_ad AFTER DELETE ON logs BEGIN DELETE FROM logs_fts WHERE rowid = old.id; END`.execute(db);
  // A visitor's log adopted at login changes owner; an edited log changes text.
  await sql`CREATE TRIGGER logs_fts_au AFTER UPDATE OF user_id, input, output ON logs BEGIN
    DELETE FROM logs_fts WHERE rowid = old.id;
    INSERT INTO logs_fts(rowid, owner, input, output) VALUES (new.id, ${ownerOf('new')}, new.input, new.output); END`.execute(db);
}

export const searchMigration: MigrationFactory = (engine) => ({
  async up(db) {
    if (engine === 'sqlite') return createSqliteIndex(db);
    if (engine === 'postgres') {
      await sql`CREATE INDEX logs_search ON logs USING GIN (${pgDocument})`.execute(db);
      return;
    }
    // Stopwords off while the index is built (the setting is read then): "the who" and "it"
    // are words a person searches logs for. Kysely runs MySQL migrations on one connection.
    await sql`SET SESSION innodb_ft_enable_stopword = OFF`.execute(db);
    try {
      // ALGORITHM=COPY: MariaDB's in-place build skipped the existing rows when the index had been dropped before.
      await sql`ALTER TABLE logs ADD FULLTEXT INDEX logs_search (input, output), ALGORITHM=COPY`.execute(db);
    } finally {
      await sql`SET SESSION innodb_ft_enable_stopword = ON`.execute(db);
    }
  },
  async down(db) {
    if (engine === 'sqlite') {
      for (const trigger of ['logs_fts_ai', 'logs_fts_ad', 'logs_fts_au']) await sql`DROP TRIGGER IF EXISTS ${sql.raw(trigger)}`.execute(db);
      await sql`DROP TABLE IF EXISTS logs_fts`.execute(db);
    } else if (engine === 'postgres') await sql`DROP INDEX IF EXISTS logs_search`.execute(db);
    else await sql`ALTER TABLE logs DROP INDEX logs_search`.execute(db);
  },
});
