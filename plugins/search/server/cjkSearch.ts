// A search with a Chinese, Japanese or Korean term, found as a substring (terms.ts): on SQLite
// through the trigram index of the logs holding CJK text (cjkSchema.ts) for terms of 3
// characters or more, the shorter ones checked with LIKE (among the user's CJK_SCAN newest
// logs holding CJK text when no term is that long); on PostgreSQL through the words' index of
// characters and their pairs (words.ts), then checked; on MySQL/MariaDB, among the user's
// CJK_SCAN_UNINDEXED newest logs. Other words of the search are then found
// as substrings too. The RANKED_MAX newest matches are scored as the word searches are.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../../../src/core/index.ts';
import { fillWords, pgHolds } from './pgWords.ts';
import { RANKED_MAX, scoreLogs } from './sqliteRank.ts';
import { isCjk } from './terms.ts';
import { cjkGrams } from './words.ts';
import type { Engine } from './search.ts';

/**
 * The newest logs of the user holding CJK text that SQLite reads at most for terms of 1-2
 * characters: its cost is in reading them (B13 in bench/README.md).
 */
export const CJK_SCAN = 5_000;
/** The newest logs of the user MySQL/MariaDB reads at most for a CJK search (as many as for short words). */
export const CJK_SCAN_UNINDEXED = 20_000;
/** The shortest term SQLite's trigram index finds. */
const TRIGRAM = 3;

/** Whether a log (as `l`) holds the term: CJK has no case; a Latin term is lower case already. */
function holds(engine: Engine, term: string): RawBuilder<unknown> {
  if (engine === 'postgres') return sql`(strpos(lower(l.input), ${term}) > 0 OR strpos(lower(l.output), ${term}) > 0)`;
  // Binary: a MySQL collation may take hiragana and katakana, or other letters, for each other.
  if (engine === 'mysql') return sql`(lower(l.input) LIKE ${`%${term}%`} COLLATE utf8mb4_bin OR lower(l.output) LIKE ${`%${term}%`} COLLATE utf8mb4_bin)`;
  // LIKE: ASCII letters in any case (the term is lower case), no copy of the text by lower().
  return sql`(l.input LIKE ${`%${term}%`} OR l.output LIKE ${`%${term}%`})`;
}

/** The trigram MATCH: the owner's tag, and every term a substring of the question or the answer. */
export const cjkMatch = (userId: number, terms: readonly string[]) => `owner : "u${userId}u" AND {input output} : (${terms.map((t) => `"${t}"`).join(' AND ')})`;

export function cjkSearch(db: Kysely<Database>, engine: Engine) {
  /** The ids of the newest RANKED_MAX of the user's logs holding every term. */
  async function found(userId: number, terms: string[]): Promise<number[]> {
    const indexed = engine === 'sqlite' ? terms.filter((t) => t.length >= TRIGRAM) : [];
    const checked = terms.filter((t) => !indexed.includes(t)).map((t) => holds(engine, t));
    const where = checked.length ? sql`WHERE ${sql.join(checked, sql` AND `)}` : sql``;
    if (engine === 'sqlite') {
      // Only a log holding CJK text can match: the user's such logs, or those holding the long terms.
      const match = indexed.length ? cjkMatch(userId, indexed) : `owner : "u${userId}u"`;
      const rows = await sql<{ id: number }>`SELECT l.id FROM (SELECT rowid AS id FROM logs_cjk WHERE logs_cjk MATCH ${match} ORDER BY rowid DESC LIMIT ${CJK_SCAN}) c
        JOIN logs l ON l.id = c.id ${where} ORDER BY l.id DESC LIMIT ${RANKED_MAX}`.execute(db);
      return rows.rows.map((r) => Number(r.id));
    }
    if (engine === 'postgres') {
      // The logs holding every CJK term's grams (pgWords.ts), however old, then the text checked.
      await fillWords(db, userId);
      const grams = [...new Set(terms.filter(isCjk).flatMap(cjkGrams))];
      const rows = await sql<{ id: number }>`SELECT l.id FROM logs l WHERE l.user_id = ${userId} AND ${pgHolds(grams)} AND ${sql.join(terms.map((t) => holds(engine, t)), sql` AND `)}
        ORDER BY l.id DESC LIMIT ${RANKED_MAX}`.execute(db);
      return rows.rows.map((r) => Number(r.id));
    }
    const rows = await sql<{ id: number }>`SELECT l.id FROM (SELECT id, time, input, output FROM logs WHERE user_id = ${userId} ORDER BY time DESC LIMIT ${CJK_SCAN_UNINDEXED}) l
      ${where} ORDER BY l.time DESC LIMIT ${RANKED_MAX}`.execute(db);
    return rows.rows.map((r) => Number(r.id));
  }

  /** The ids of the user's best-matching logs, best first: every term weighs the same. */
  return async function ranked(userId: number, terms: string[], limit: number): Promise<number[]> {
    return scoreLogs(db, await found(userId, terms), terms, () => 0.05, limit);
  };
}
