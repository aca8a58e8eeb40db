// SQLite's ranking of one user's logs. FTS5's bm25() first counts, over the whole index, the logs
// holding each phrase, the owner's tag included: walking doclists of hundreds of thousands of
// entries for a common word or a user with many logs (B13 in bench/README.md). So FTS5 only
// finds the RANKED_MAX newest matches, and they are scored here, BM25-style, on their first
// SCORED_CHARS characters: a word's weight from how common it is in the latest logs, the
// question counting twice the answer.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../../src/core/index.ts';
import { fold, isCjk } from './terms.ts';

/** Matches ranked at most, the most recently written: the bound on a search's cost, on every engine. */
export const RANKED_MAX = 500;
/** A word in more than this share of the latest logs is not required when rarer ones are given. */
export const COMMON_SHARE = 0.05;
/** The matches a word's commonness is judged on. */
const COMMON_PROBE = 200;
/** Characters of a question and of an answer a candidate is scored on. */
const SCORED_CHARS = 2_000;

const quote = (term: string) => `"${term}"`;

/** The MATCH expression: the owner's tag, and every term in the question or the answer. */
export const sqliteMatch = (userId: number, terms: readonly string[]) => `owner : "u${userId}" AND {input output} : (${terms.map(quote).join(' AND ')})`;

const WORD_CHAR = /[\p{L}\p{N}]/u;
const isWordChar = (ch: string | undefined) => ch !== undefined && WORD_CHAR.test(ch);

/** How many times each term is a whole word of the text (folded as the index folds it), a CJK term anywhere in it. */
function counts(text: string, terms: readonly string[]): number[] {
  // eslint-disable-next-line no-control-regex
  const hay = /[^\x00-\x7f]/.test(text) ? fold(text) : text.toLowerCase();
  return terms.map((term) => {
    const cjk = isCjk(term);
    const where = cjk ? text : hay;
    let n = 0;
    for (let i = where.indexOf(term); i !== -1; i = where.indexOf(term, i + term.length)) {
      if (cjk || (!isWordChar(where[i - 1]) && !isWordChar(where[i + term.length]))) n++;
    }
    return n;
  });
}

/**
 * Found logs (ids) scored BM25-style on their first SCORED_CHARS characters, a term's weight from
 * its share of the latest logs; the best `limit`, newer first among equals. Any engine.
 */
export async function scoreLogs(db: Kysely<Database>, ids: number[], terms: string[], share: (term: string) => number, limit: number): Promise<number[]> {
  if (!ids.length) return [];
  const rows = await db
    .selectFrom('logs')
    .select((eb) => ['id', eb.fn<string>('substr', ['input', sql.lit(1), sql.lit(SCORED_CHARS)]).as('input'), eb.fn<string>('substr', ['output', sql.lit(1), sql.lit(SCORED_CHARS)]).as('output')])
    .where('id', 'in', ids)
    .execute();
  const weight = terms.map((t) => Math.log(1 + 1 / share(t)));
  const scored = rows.map((r) => {
    const [inInput, inOutput] = [counts(r.input, terms), counts(r.output, terms)];
    return { id: Number(r.id), tf: inInput.map((n, i) => 2 * n + inOutput[i]!), length: (r.input.length + r.output.length) / 6 + 1 };
  });
  const average = scored.reduce((sum, s) => sum + s.length, 0) / scored.length;
  // BM25 (k1 1.2, b 0.75); newer first among equals.
  const score = (s: (typeof scored)[number]) => s.tf.reduce((sum, f, i) => sum + (weight[i]! * f * 2.2) / (f + 1.2 * (0.25 + (0.75 * s.length) / average)), 0);
  return scored
    .map((s) => ({ id: s.id, score: score(s) }))
    .sort((a, b) => b.score - a.score || b.id - a.id)
    .slice(0, limit)
    .map((s) => s.id);
}

export function sqliteRanking(db: Kysely<Database>) {
  /** Each term's share of the latest logs, from where its COMMON_PROBE-th newest log is (a short walk). */
  async function shares(terms: string[]): Promise<Map<string, number>> {
    const last = Number((await db.selectFrom('logs').select((eb) => eb.fn.max('id').as('n')).executeTakeFirst())?.n ?? 0);
    const out = new Map<string, number>();
    for (const term of terms) {
      const probe = await sql<{ id: number }>`SELECT rowid AS id FROM logs_fts WHERE logs_fts MATCH ${quote(term)} ORDER BY rowid DESC LIMIT 1 OFFSET ${COMMON_PROBE - 1}`.execute(db);
      const at = probe.rows[0]?.id;
      // Fewer than COMMON_PROBE logs hold it: rare, as rare as that.
      out.set(term, at === undefined ? 1 / Math.max(COMMON_PROBE, last) : COMMON_PROBE / Math.max(COMMON_PROBE, last - Number(at) + 1));
    }
    return out;
  }

  /** The ids of the user's best-matching logs, best first. */
  return async function ranked(userId: number, terms: string[], limit: number): Promise<number[]> {
    const share = terms.length > 1 ? await shares(terms) : new Map(terms.map((t) => [t, COMMON_SHARE]));
    let required = terms.filter((t) => share.get(t)! <= COMMON_SHARE);
    // All common: the rarest of them alone.
    if (!required.length) required = [terms.reduce((a, b) => (share.get(a)! <= share.get(b)! ? a : b))];
    const found = await sql<{ id: number }>`SELECT rowid AS id FROM logs_fts WHERE logs_fts MATCH ${sqliteMatch(userId, required)} ORDER BY rowid DESC LIMIT ${RANKED_MAX}`.execute(db);
    return scoreLogs(db, found.rows.map((r) => Number(r.id)), terms, (t) => share.get(t)!, limit);
  };
}
