// PostgreSQL's index of the logs' words: a `search_words text[]` column of logs, with a GIN index,
// filled by the server (words.ts) wherever a log is written (ctx.sessions.addLogColumn). A log
// written without it (a direct insert, an instance of an older version) keeps it NULL, as does one
// whose text changes (a trigger resets it): a search first fills the searcher's NULL ones, so every
// write path is still found, and the words are cut by one rule, the searches'. Replaces 0001's GIN
// over to_tsvector, which tokenized in the database at about 7 MB/s.
import { sql, type Kysely } from 'kysely';
import type { Database, MigrationFactory } from '../../../src/core/index.ts';
import { pgDocument } from './schema.ts';
import { logWords } from './words.ts';

/** Logs filled a statement, and at most a search (the rest at the next ones). */
const FILL_BATCH = 500;
const FILL_PER_SEARCH = 5_000;

/** Sets the words of these logs, one statement. */
async function setWords(db: Kysely<Database>, rows: { id: number | string; input: string; output: string }[]): Promise<void> {
  const values = JSON.stringify(rows.map((r) => ({ id: Number(r.id), w: logWords(r) })));
  await sql`UPDATE logs AS l SET search_words = v.w FROM jsonb_to_recordset(${values}::jsonb) AS v(id bigint, w text[]) WHERE l.id = v.id`.execute(db);
}

/** Fills the words of the user's logs written without them, newest first (at most FILL_PER_SEARCH); how many. */
export async function fillWords(db: Kysely<Database>, userId: number): Promise<number> {
  let filled = 0;
  while (filled < FILL_PER_SEARCH) {
    const rows = await sql<{ id: number; input: string; output: string }>`SELECT id, input, output FROM logs WHERE user_id = ${userId} AND search_words IS NULL ORDER BY id DESC LIMIT ${FILL_BATCH}`.execute(db);
    if (!rows.rows.length) break;
    await setWords(db, rows.rows);
    filled += rows.rows.length;
  }
  return filled;
}

/** The words column `l.search_words` holds every term. */
export const pgHolds = (terms: string[]) => sql`l.search_words @> ${terms}::text[]`;

export const pgWordsMigration: MigrationFactory = (engine) => ({
  async up(db) {
    if (engine !== 'postgres') return;
    await sql`ALTER TABLE logs ADD COLUMN search_words text[]`.execute(db);
    // A text changed without its words: NULL again, filled by the next search.
    await sql`CREATE FUNCTION logs_search_words_reset() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.search_words IS NOT DISTINCT FROM OLD.search_words THEN NEW.search_words := NULL; END IF;
        RETURN NEW;
      END $$`.execute(db);
    await sql`CREATE TRIGGER logs_search_words_reset BEFORE UPDATE OF input, output ON logs FOR EACH ROW
      WHEN (NEW.input IS DISTINCT FROM OLD.input OR NEW.output IS DISTINCT FROM OLD.output) EXECUTE FUNCTION logs_search_words_reset()`.execute(db);
    // The logs already there, a batch at a time, in id order.
    for (let after = 0; ; ) {
      const rows = await sql<{ id: number; input: string; output: string }>`SELECT id, input, output FROM logs WHERE id > ${after} ORDER BY id LIMIT ${FILL_BATCH}`.execute(db);
      if (!rows.rows.length) break;
      await setWords(db as unknown as Kysely<Database>, rows.rows);
      after = Number(rows.rows[rows.rows.length - 1]!.id);
    }
    await sql`DROP INDEX IF EXISTS logs_search`.execute(db);
    await sql`CREATE INDEX logs_search_words ON logs USING GIN (search_words)`.execute(db);
    // Where a search finds the logs to fill: only those, so it stays small.
    await sql`CREATE INDEX logs_search_unfilled ON logs (user_id, id) WHERE search_words IS NULL`.execute(db);
  },
  async down(db) {
    if (engine !== 'postgres') return;
    await sql`DROP INDEX IF EXISTS logs_search_unfilled`.execute(db);
    await sql`DROP INDEX IF EXISTS logs_search_words`.execute(db);
    await sql`DROP TRIGGER IF EXISTS logs_search_words_reset ON logs`.execute(db);
    await sql`DROP FUNCTION IF EXISTS logs_search_words_reset()`.execute(db);
    await sql`ALTER TABLE logs DROP COLUMN IF EXISTS search_words`.execute(db);
    // 0001's index again, as it was before this migration.
    await sql`CREATE INDEX IF NOT EXISTS logs_search ON logs USING GIN (${pgDocument})`.execute(db);
  },
});
