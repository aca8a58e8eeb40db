// B13 on PostgreSQL: `:search` over N logs (default 200,000) through the plugin's real query path
// on the server's own schema (search_words filled by the server: pgWords.ts), beside the index it
// replaced (a GIN over to_tsvector('simple', ...), ranked by ts_rank) over the same logs and the
// same searches, in the same run. Latin text only: a CJK search reads the text on PostgreSQL.
// Run alone: `node bench/logSearchPg.ts [logs]`.
import { sql } from 'kysely';
import { pgDocument } from '../plugins/search/server/schema.ts';
import { logSearch } from '../plugins/search/server/search.ts';
import { RANKED_MAX } from '../plugins/search/server/sqliteRank.ts';
import { searchTerms } from '../plugins/search/server/terms.ts';
import { logWords } from '../plugins/search/server/words.ts';
import { startTestServer } from '../tests/server/support.ts';
import { rng, spread, stats, typedSearches, vocabulary, type Percentiles } from './logSearch.ts';

const USERS = 1_000;
const HEAVY = 1;
const RUNS = 3;

export interface PgSearchReport {
  logs: number;
  /** Seconds to build the old to_tsvector index over the same logs. */
  oldIndexS: number;
  runs: { ours: Percentiles; old: Percentiles }[];
  queries: number;
}

export async function runLogSearchPg(logs = 200_000): Promise<PgSearchReport> {
  const server = await startTestServer('postgres');
  const db = server.server.db.db;
  try {
    // Users by number only: the search reads logs alone.
    await sql`ALTER TABLE logs DROP CONSTRAINT IF EXISTS logs_user_id_fkey`.execute(db);
    const { words, sample } = vocabulary();
    const random = rng(42);
    const text = (n: number) => Array.from({ length: n }, () => words[sample(random())]!).join(' ');
    const base = 1_700_000_000_000;
    for (let start = 0; start < logs; start += 1000) {
      const rows = [];
      for (let i = start; i < Math.min(logs, start + 1000); i++) {
        // Every tenth log is the heavy user's; ten logs a session (sessions are not read by the search's id list).
        const user = i % 10 === 0 ? HEAVY : 2 + (i % (USERS - 1));
        const [input, output] = [text(15), text(60)];
        rows.push({ session: base + Math.floor(i / 10) * 1000, time: base + i, user_id: user, device_id: null, model: 'm', input, output, images: '[]', tools: '[]', input_tokens: 0, output_tokens: 0, created_at: 0, search_words: logWords({ input, output }) });
      }
      await db.insertInto('logs').values(rows as never).execute();
    }
    await sql`VACUUM ANALYZE logs`.execute(db);
    const searches = typedSearches(words, rng(7));
    const userOf = (i: number) => (i % 2 === 0 ? HEAVY : 2 + ((i * 7919) % (USERS - 1)));
    const finder = logSearch(db, 'postgres');
    // The index replaced, and its query (the candidates' to_tsvector again for ts_rank).
    const t0 = performance.now();
    await sql`CREATE INDEX logs_search_before ON logs USING GIN (${pgDocument})`.execute(db);
    const oldIndexS = (performance.now() - t0) / 1000;
    await sql`ANALYZE logs`.execute(db);
    const old = async (userId: number, terms: string[]) => {
      const query = sql`plainto_tsquery('simple', ${terms.join(' ')})`;
      const ids = await sql<{ id: number }>`SELECT id FROM (SELECT id, input, output FROM logs WHERE user_id = ${userId} AND ${pgDocument} @@ ${query} ORDER BY id DESC LIMIT ${RANKED_MAX}) AS c
        ORDER BY ts_rank(${pgDocument}, ${query}) DESC, id DESC LIMIT 20`.execute(db);
      // The rows as the search reads them (the shared part, as `ours` does).
      if (ids.rows.length) await db.selectFrom('logs').select(['id', 'session', 'time', 'input', 'output']).where('id', 'in', ids.rows.map((r) => r.id)).execute();
    };
    for (const s of searches.slice(0, 10)) {
      await finder.search(userOf(0), searchTerms(s));
      await old(userOf(0), searchTerms(s));
    }
    const runs: PgSearchReport['runs'] = [];
    for (let run = 0; run < RUNS; run++) {
      const ours: number[] = [];
      const before: number[] = [];
      for (const [i, s] of searches.entries()) {
        let t = performance.now();
        await finder.search(userOf(i), searchTerms(s));
        ours.push(performance.now() - t);
        t = performance.now();
        await old(userOf(i), searchTerms(s));
        before.push(performance.now() - t);
      }
      runs.push({ ours: stats(ours), old: stats(before) });
    }
    return { logs, oldIndexS, runs, queries: searches.length };
  } finally {
    await server.close();
  }
}

if (import.meta.main) {
  const r = await runLogSearchPg(Number(process.argv[2] ?? 200_000));
  console.log(`:search over ${r.logs.toLocaleString('en')} logs on PostgreSQL (1,000 users, one with 10%), ${r.queries} searches, ${RUNS} runs: median (lowest-highest)`);
  console.log(`  ours (server-cut words, BM25): p50 ${spread(r.runs.map((x) => x.ours.p50))} / p95 ${spread(r.runs.map((x) => x.ours.p95))} / p99 ${spread(r.runs.map((x) => x.ours.p99))} ms`);
  console.log(`  before (to_tsvector GIN, ts_rank): p50 ${spread(r.runs.map((x) => x.old.p50))} / p95 ${spread(r.runs.map((x) => x.old.p95))} / p99 ${spread(r.runs.map((x) => x.old.p99))} ms`);
  console.log(`  the old index's build over the same logs: ${r.oldIndexS.toFixed(1)} s`);
}
