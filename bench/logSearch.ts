// B13: `:search` over N logs (default 1,000,000) on SQLite FTS5 through the plugin's real
// query path (plugins/search/server/search.ts: the MATCH under the owner's tag, the BM25
// scoring, the rows, titles and snippets), beside the substring LIKE scan the session plugin
// did before, in the same run; plus how fast the triggers index logs as they are written.
// 1,000 users; one of them holds 10% of all logs (the worst case for the owner filter), and
// half of the searches are that user's. Another user, writing in Chinese and Japanese (no spaces
// between words), holds another 10%, and 5% of the others' logs are CJK too: CJK searches of 1,
// 2, 3-4 characters and mixed with a Latin word, half of them that user's, are timed apart,
// beside a LIKE scan of the user's logs for the same terms.
// Run alone: `node bench/logSearch.ts [logs]`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Kysely, SqliteDialect } from 'kysely';
import { createSqliteCjkIndex } from '../plugins/search/server/cjkSchema.ts';
import { createSqliteIndex } from '../plugins/search/server/schema.ts';
import { logSearch } from '../plugins/search/server/search.ts';
import { searchTerms } from '../plugins/search/server/terms.ts';
import type { Database } from '../src/core/index.ts';

const COMMON = 'the of and to a in is how what for on with that this by from at are as be it can do does i an which'.split(' ');

export function rng(seed: number) {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

/** Zipf(1.07) over a 60k vocabulary; the 25 most frequent are common English words. */
export function vocabulary(size = 60_000) {
  const words = Array.from({ length: size }, (_, i) => (i < COMMON.length ? COMMON[i]! : `w${i.toString(36)}x`));
  const weights = words.map((_, i) => 1 / (i + 1) ** 1.07);
  const total = weights.reduce((a, b) => a + b, 0);
  const table = new Uint32Array(1 << 20);
  let acc = 0;
  let j = 0;
  for (let i = 0; i < size; i++) {
    acc += weights[i]! / total;
    const end = Math.min(table.length, Math.round(acc * table.length));
    for (; j < end; j++) table[j] = i;
  }
  for (; j < table.length; j++) table[j] = size - 1;
  return { words, sample: (r: number) => table[Math.floor(r * table.length)]! };
}

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
export type Percentiles = { p50: number; p95: number; p99: number };
export const stats = (xs: number[]): Percentiles => ({ p50: pct(xs, 50), p95: pct(xs, 95), p99: pct(xs, 99) });

/** 200 searches as people type them: one to three words of mid and rare vocabulary, some with a common word. */
export function typedSearches(words: string[], q: () => number): string[] {
  const pick = (lo: number, hi: number) => words[lo + Math.floor(q() * (hi - lo))]!;
  const templates = [
    () => `${pick(300, 5000)}`,
    () => `${pick(100, 3000)} ${pick(3000, 30000)}`,
    () => `how to ${pick(500, 5000)} ${pick(200, 3000)}`,
    () => `${pick(2000, 40000)} ${pick(30, 300)} ${pick(300, 3000)}`,
    () => `${pick(25, 200)}`,
  ];
  return Array.from({ length: 200 }, (_, i) => templates[i % templates.length]!());
}

export interface LogSearchRun {
  ours: Percentiles;
  naive: Percentiles;
  ratio: number;
  /** CJK searches: all, then by kind. */
  cjk: Percentiles;
  cjkByKind: Record<string, Percentiles>;
  cjkNaive: Percentiles;
  cjkRatio: number;
}
export interface LogSearchReport {
  logs: number;
  indexLogsPerS: number;
  /** RUNS rounds of the same searches over the same database. */
  runs: LogSearchRun[];
  queries: number;
  naiveQueries: number;
}

/** Zipf(1.07) over 20,000 CJK words of 1-4 characters, from 3,000 Han characters and katakana. */
function cjkVocabulary(random: () => number, size = 20_000) {
  const han = (k: number) => String.fromCodePoint(0x4e00 + k);
  const words = Array.from({ length: size }, (_, i) => {
    const n = i < 500 ? 1 + (i % 2) : 2 + (i % 3);
    let w = '';
    for (let k = 0; k < n; k++) w += i % 7 === 3 ? String.fromCodePoint(0x30a2 + Math.floor(random() * 80)) : han(Math.floor(random() * 3000));
    return w;
  });
  const { sample } = vocabulary(size);
  return { words, sample };
}
/** Japanese particles between words in a third of the CJK logs. */
const PARTICLES = ['の', 'が', 'を', 'に', 'は', 'で', 'と'];

const RUNS = 3;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
/** A figure over the runs as `median (lowest-highest)`. */
export const spread = (xs: number[], digits = 2) => `${median(xs).toFixed(digits)} (${Math.min(...xs).toFixed(digits)}-${Math.max(...xs).toFixed(digits)})`;
export const medianOf = median;

const USERS = 1_000;
const HEAVY = 1;
/** The user writing in CJK only. */
const CJK_HEAVY = USERS + 1;

export async function runLogSearch(logs = 1_000_000): Promise<LogSearchReport> {
  const dir = mkdtempSync(path.join(tmpdir(), 'shellchat-logsearch-'));
  const { default: SQLite } = await import('better-sqlite3');
  const raw = new SQLite(path.join(dir, 'logs.sqlite'));
  raw.pragma('journal_mode = WAL');
  raw.pragma('synchronous = NORMAL');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: raw }) });
  try {
    // The core's logs table and indexes (src/server/db/migrations.ts), then the plugin's index.
    raw.exec(`CREATE TABLE logs (id INTEGER PRIMARY KEY AUTOINCREMENT, session INTEGER NOT NULL, time INTEGER NOT NULL, user_id INTEGER, device_id TEXT,
        model TEXT NOT NULL, input TEXT NOT NULL, output TEXT NOT NULL, images TEXT NOT NULL, tools TEXT NOT NULL, input_tokens INTEGER NOT NULL, output_tokens INTEGER NOT NULL, created_at INTEGER NOT NULL);
      CREATE UNIQUE INDEX logs_session_time ON logs(session, time);
      CREATE INDEX logs_user ON logs(user_id, time);`);
    await createSqliteIndex(db as never);
    const { words, sample } = vocabulary();
    const random = rng(42);
    const text = (n: number) => {
      const parts: string[] = new Array(n);
      for (let k = 0; k < n; k++) parts[k] = words[sample(random())]!;
      return parts.join(' ');
    };
    await createSqliteCjkIndex(db as never);
    const cjk = cjkVocabulary(rng(11));
    const cjkText = (n: number, japanese: boolean) => {
      let out = '';
      for (let k = 0; k < n; k++) {
        out += cjk.words[cjk.sample(random())]!;
        if (k % 10 === 9) out += ` ${words[sample(random())]!} `;
        else if (japanese) out += PARTICLES[k % PARTICLES.length]!;
        else if (k % 12 === 11) out += '，';
      }
      return out;
    };
    const insert = raw.prepare(`INSERT INTO logs (session, time, user_id, device_id, model, input, output, images, tools, input_tokens, output_tokens, created_at)
      VALUES (?, ?, ?, NULL, 'm', ?, ?, '[]', '[]', 0, 0, 0)`);
    let indexMs = 0;
    const batch = 5000;
    const base = 1_700_000_000_000;
    for (let start = 0; start < logs; start += batch) {
      const rows: [number, number, number, string, string][] = [];
      for (let i = start; i < Math.min(logs, start + batch); i++) {
        // Every tenth log is the heavy user's; ten logs a session.
        const user = i % 10 === 0 ? HEAVY : i % 10 === 5 ? CJK_HEAVY : 2 + (i % (USERS - 1));
        const r = user === CJK_HEAVY ? random() / 10 : random() * 2;
        // In Chinese or Japanese (a third of those).
        if (r < 0.1) rows.push([base + Math.floor(i / 10) * 1000, base + i, user, cjkText(15, r < 0.033), cjkText(60, r < 0.033)]);
        else rows.push([base + Math.floor(i / 10) * 1000, base + i, user, text(15), text(60)]);
      }
      const t0 = performance.now();
      raw.transaction(() => rows.forEach((r) => insert.run(...r)))();
      indexMs += performance.now() - t0;
    }
    raw.exec("INSERT INTO logs_fts(logs_fts) VALUES('optimize')");
    raw.exec("INSERT INTO logs_cjk(logs_cjk) VALUES('optimize')");
    raw.pragma('wal_checkpoint(TRUNCATE)');

    const q = rng(7);
    const pick = (lo: number, hi: number) => words[lo + Math.floor(q() * (hi - lo))]!;
    const searches = typedSearches(words, q);
    const cjkPick = (lo: number, hi: number, len?: number) => {
      for (;;) {
        const w = cjk.words[lo + Math.floor(q() * (hi - lo))]!;
        if (len === undefined || [...w].length === len) return w;
      }
    };
    // A CJK search of each kind in turn: a 1-character word, a 2-character one, 3-4 characters, a CJK word and a Latin one.
    const cjkKinds: [string, () => string][] = [
      ['1 char', () => cjkPick(0, 500, 1)],
      ['2 chars', () => cjkPick(100, 5000, 2)],
      ['3-4 chars', () => `${cjkPick(500, 20000, 3)}`],
      ['CJK + Latin', () => `${cjkPick(100, 3000, 2)} ${pick(25, 300)}`],
    ];
    const cjkSearches = Array.from({ length: 200 }, (_, i) => ({ kind: cjkKinds[i % cjkKinds.length]![0], text: cjkKinds[i % cjkKinds.length]![1]() }));
    const userOf = (i: number) => (i % 2 === 0 ? HEAVY : 2 + ((i * 7919) % (USERS - 1)));
    // Each kind of search in turn, for the CJK user and for another.
    const cjkUserOf = (i: number) => (Math.floor(i / cjkKinds.length) % 2 === 0 ? CJK_HEAVY : userOf(i));
    const finder = logSearch(db, 'sqlite');
    for (const s of searches.slice(0, 10)) await finder.search(userOf(0), searchTerms(s)); // warm-up
    // The substring search the session plugin did before (lower() LIKE on both columns, newest first).
    const naiveStmt = raw.prepare(
      "SELECT id, session, time, input, output FROM logs WHERE user_id = ? AND (lower(input) LIKE lower(?) ESCAPE '!' OR lower(output) LIKE lower(?) ESCAPE '!') ORDER BY time DESC LIMIT 20",
    );
    const naiveCount = logs >= 500_000 ? 20 : 60;
    const runs: LogSearchRun[] = [];
    for (let run = 0; run < RUNS; run++) {
      const ours: number[] = [];
      for (const [i, s] of searches.entries()) {
        const t = performance.now();
        await finder.search(userOf(i), searchTerms(s));
        ours.push(performance.now() - t);
      }
      const naive: number[] = [];
      for (const [i, s] of searches.slice(0, naiveCount).entries()) {
        const pattern = `%${s}%`;
        const t = performance.now();
        naiveStmt.all(userOf(i), pattern, pattern);
        naive.push(performance.now() - t);
      }
      const cjkTimes: number[] = [];
      const byKind = new Map<string, number[]>();
      for (const [i, { kind, text: s }] of cjkSearches.entries()) {
        const t = performance.now();
        await finder.search(cjkUserOf(i), searchTerms(s));
        const ms = performance.now() - t;
        cjkTimes.push(ms);
        byKind.set(kind, [...(byKind.get(kind) ?? []), ms]);
      }
      const cjkNaive: number[] = [];
      for (const [i, { text: s }] of cjkSearches.slice(0, naiveCount).entries()) {
        const pattern = `%${searchTerms(s)[0]}%`;
        const t = performance.now();
        naiveStmt.all(cjkUserOf(i), pattern, pattern);
        cjkNaive.push(performance.now() - t);
      }
      const [o, n, c, cn] = [stats(ours), stats(naive), stats(cjkTimes), stats(cjkNaive)];
      const cjkByKind = Object.fromEntries([...byKind].map(([k, xs]) => [k, stats(xs)]));
      runs.push({ ours: o, naive: n, ratio: n.p95 / o.p95, cjk: c, cjkByKind, cjkNaive: cn, cjkRatio: cn.p95 / c.p95 });
    }
    return { logs, indexLogsPerS: logs / (indexMs / 1000), runs, queries: searches.length, naiveQueries: naiveCount };
  } finally {
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const n = Number(process.argv[2] ?? 1_000_000);
  const r = await runLogSearch(n);
  console.log(`:search over ${r.logs.toLocaleString('en')} logs (1,000 users, one with 10%, a CJK one with 10%; SQLite FTS5), ${RUNS} runs: median (lowest-highest)`);
  console.log(`  ours  (${r.queries} searches): p50 ${spread(r.runs.map((x) => x.ours.p50))} / p95 ${spread(r.runs.map((x) => x.ours.p95))} / p99 ${spread(r.runs.map((x) => x.ours.p99))} ms`);
  console.log(`  naive (${r.naiveQueries} searches, LIKE scan of the user's logs): p50 ${spread(r.runs.map((x) => x.naive.p50))} / p95 ${spread(r.runs.map((x) => x.naive.p95))} ms`);
  console.log(`  ratio naive/ours at p95: ${spread(r.runs.map((x) => x.ratio), 1)}x`);
  console.log(`  CJK (${r.queries} searches, half the CJK user's): p50 ${spread(r.runs.map((x) => x.cjk.p50))} / p95 ${spread(r.runs.map((x) => x.cjk.p95))} / p99 ${spread(r.runs.map((x) => x.cjk.p99))} ms`);
  for (const kind of Object.keys(r.runs[0]!.cjkByKind)) {
    console.log(`    ${kind}: p50 ${spread(r.runs.map((x) => x.cjkByKind[kind]!.p50))} / p95 ${spread(r.runs.map((x) => x.cjkByKind[kind]!.p95))} ms`);
  }
  console.log(`  CJK naive (LIKE scan of the user's logs): p95 ${spread(r.runs.map((x) => x.cjkNaive.p95))} ms; ratio naive/ours at p95 ${spread(r.runs.map((x) => x.cjkRatio), 1)}x`);
  console.log(`  indexing through the triggers: ${Math.round(r.indexLogsPerS).toLocaleString('en')} logs/s`);
}
