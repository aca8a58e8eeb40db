// Ranked full-text search over one user's logs, per engine (schema.ts, pgWords.ts hold the
// indexes): BM25 on SQLite and PostgreSQL (sqliteRank.ts), MATCH relevance on MySQL/MariaDB, among the
// RANKED_MAX newest matches; newer first among equals. Every word must be found (AND; on
// SQLite a very common one only when no rarer one is given). A search with a CJK term: cjkSearch.ts.
import { sql, type Kysely } from 'kysely';
import { previewLine, type Database } from '../../../src/core/index.ts';
import { SEARCH_RESULTS_MAX, type LogMatch } from '../common/api.ts';
import { fillWords, pgHolds } from './pgWords.ts';
import { RANKED_MAX, scoreLogs, sqliteRanking } from './sqliteRank.ts';
import { fold, isCjk, snippet } from './terms.ts';
import { cjkSearch } from './cjkSearch.ts';

export { RANKED_MAX, sqliteMatch } from './sqliteRank.ts';

export type Engine = 'sqlite' | 'postgres' | 'mysql';

/** Characters of a session's first question that name it in a result. */
const TITLE_LENGTH = 40;
/**
 * On MySQL, words shorter than InnoDB's smallest indexed token (innodb_ft_min_token_size, 3 by
 * default) are matched with LIKE: among the full-text matches, or else among this many of the
 * user's newest logs (a bound on the scan).
 */
export const MYSQL_SHORT_SCAN = 20_000;
/** A term's share of the logs on PostgreSQL, the same for all: its index keeps no counts to judge it by. */
const EVEN_SHARE = 0.5;

/** How many different words a snippet marks. */
const distinct = ({ snippet: text, marks }: { snippet: string; marks: [number, number][] }) => new Set(marks.map(([a, b]) => fold(text.slice(a, b)))).size;

export function logSearch(db: Kysely<Database>, engine: Engine) {
  const sqliteRanked = sqliteRanking(db);
  const cjkRanked = cjkSearch(db, engine);
  let minToken: Promise<number> | undefined;
  /** InnoDB's smallest indexed word, read once. */
  const mysqlMinToken = () =>
    (minToken ??= sql<{ n: number }>`SELECT @@innodb_ft_min_token_size AS n`
      .execute(db)
      .then((r) => Number(r.rows[0]?.n ?? 3))
      .catch(() => 3));

  /** The ids of the user's best-matching logs, best first. */
  async function rankedIds(userId: number, terms: string[], limit: number): Promise<number[]> {
    if (terms.some(isCjk)) return cjkRanked(userId, terms, limit);
    if (engine === 'sqlite') return sqliteRanked(userId, terms, limit);
    if (engine === 'postgres') {
      await fillWords(db, userId);
      const found = await sql<{ id: number }>`SELECT id FROM logs l WHERE user_id = ${userId} AND ${pgHolds(terms)} ORDER BY id DESC LIMIT ${RANKED_MAX}`.execute(db);
      // Every term weighs the same (the index keeps no counts); BM25 ranks by how often, and where, they are found.
      return scoreLogs(db, found.rows.map((r) => Number(r.id)), terms, () => EVEN_SHARE, limit);
    }
    const min = await mysqlMinToken();
    const long = terms.filter((t) => t.length >= min);
    const short = terms.filter((t) => t.length < min);
    const contains = short.map((t) => sql`(lower(l.input) LIKE ${`%${t}%`} OR lower(l.output) LIKE ${`%${t}%`})`);
    if (long.length) {
      const against = long.map((t) => `+"${t}"`).join(' ');
      const rows = await sql<{ id: number }>`SELECT c.id FROM (SELECT l.id, MATCH(l.input, l.output) AGAINST (${long.join(' ')} IN NATURAL LANGUAGE MODE) AS score FROM logs l
          WHERE l.user_id = ${userId} AND MATCH(l.input, l.output) AGAINST (${against} IN BOOLEAN MODE) ${contains.length ? sql`AND ${sql.join(contains, sql` AND `)}` : sql``}
          ORDER BY l.id DESC LIMIT ${RANKED_MAX}) c
        ORDER BY c.score DESC, c.id DESC LIMIT ${limit}`.execute(db);
      return rows.rows.map((r) => Number(r.id));
    }
    const rows = await sql<{ id: number }>`SELECT l.id FROM (SELECT id, time, input, output FROM logs WHERE user_id = ${userId} ORDER BY time DESC LIMIT ${MYSQL_SHORT_SCAN}) l
      WHERE ${sql.join(contains, sql` AND `)} ORDER BY l.time DESC LIMIT ${limit}`.execute(db);
    return rows.rows.map((r) => Number(r.id));
  }

  /** The user's logs that hold every term, best first, as results with snippets. */
  async function search(userId: number, terms: string[], limit = SEARCH_RESULTS_MAX): Promise<LogMatch[]> {
    if (!terms.length) return [];
    const ids = await rankedIds(userId, terms, limit);
    if (!ids.length) return [];
    const rows = await db
      .selectFrom('logs')
      .select((eb) => [
        'logs.id',
        'logs.session',
        'logs.time',
        'logs.input',
        'logs.output',
        eb.selectFrom('logs as first').select('first.input').whereRef('first.session', '=', 'logs.session').orderBy('first.time', 'asc').limit(1).as('title'),
      ])
      .where('logs.id', 'in', ids)
      .where('logs.user_id', '=', userId)
      .execute();
    const byId = new Map(rows.map((r) => [Number(r.id), r]));
    return ids.flatMap((id) => {
      const row = byId.get(id);
      if (!row) return [];
      // The question's snippet, unless the answer's shows more of the words.
      const inInput = snippet(row.input, terms);
      const inOutput = snippet(row.output, terms);
      const field = distinct(inOutput) > distinct(inInput) ? 'output' : 'input';
      const found = field === 'input' ? inInput : inOutput;
      return [{ session: Number(row.session), time: Number(row.time), title: previewLine(String(row.title ?? ''), TITLE_LENGTH), field, ...found }];
    });
  }

  return { search };
}
