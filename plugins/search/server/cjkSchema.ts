// SQLite's index of the logs that hold Chinese, Japanese or Korean text: FTS5's trigram
// tokenizer finds any substring of 3 characters or more (unicode61 indexes a CJK run as one
// token, so a word inside it was never found). Only logs with a CJK character are indexed, so
// other logs cost a check more when written. The owner tag `u<id>u` is 3 characters or more,
// and no other user's tag holds it. PostgreSQL and MySQL/MariaDB find CJK terms by a bounded
// substring scan (search.ts) and need nothing here.
import { sql, type Kysely } from 'kysely';
import type { MigrationFactory } from '../../../src/core/index.ts';
import { CJK_RANGES } from './terms.ts';

/** A GLOB that a text holding a CJK character matches (SQLite's GLOB compares code points). */
export const CJK_GLOB = `*[${CJK_RANGES.map(([a, b]) => `${String.fromCodePoint(a)}-${String.fromCodePoint(b)}`).join('')}]*`;

const ownerOf = (row: 'new' | 'logs') => sql.raw(`coalesce('u' || ${row}.user_id || 'u', '')`);
/** Whether a column holds CJK text; octet_length() first, so that ASCII text skips the GLOB (a third of an insert's time). */
const columnHolds = (column: string) => `(octet_length(${column}) > length(${column}) AND ${column} GLOB '${CJK_GLOB}')`;
const holdsCjk = (row: 'new' | 'logs') => sql.raw(`(${columnHolds(`${row}.input`)} OR ${columnHolds(`${row}.output`)})`);

export async function createSqliteCjkIndex(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE VIRTUAL TABLE logs_cjk USING fts5(owner, input, output, content='', contentless_delete=1, tokenize='trigram')`.execute(db);
  await sql`INSERT INTO logs_cjk(rowid, owner, input, output) SELECT id, ${ownerOf('logs')}, input, output FROM logs WHERE ${holdsCjk('logs')}`.execute(db);
  await sql`CREATE TRIGGER logs_cjk_ai AFTER INSERT ON logs WHEN ${holdsCjk('new')} BEGIN
    INSERT INTO logs_cjk(rowid, owner, input, output) VALUES (new.id, ${ownerOf('new')}, new.input, new.output); END`.execute(db);
  await sql`CREATE TRIGGER logs_cjk_ad AFTER DELETE ON logs BEGIN DELETE FROM logs_cjk WHERE rowid = old.id; END`.execute(db);
  await sql`CREATE TRIGGER logs_cjk_au AFTER UPDATE OF user_id, input, output ON logs BEGIN
    DELETE FROM logs_cjk WHERE rowid = old.id;
    INSERT INTO logs_cjk(rowid, owner, input, output) SELECT new.id, ${ownerOf('new')}, new.input, new.output WHERE ${holdsCjk('new')}; END`.execute(db);
}

export const cjkMigration: MigrationFactory = (engine) => ({
  async up(db) {
    if (engine === 'sqlite') await createSqliteCjkIndex(db);
  },
  async down(db) {
    if (engine !== 'sqlite') return;
    for (const trigger of ['logs_cjk_ai', 'logs_cjk_ad', 'logs_cjk_au']) await sql`DROP TRIGGER IF EXISTS ${sql.raw(trigger)}`.execute(db);
    await sql`DROP TABLE IF EXISTS logs_cjk`.execute(db);
  },
});
