// B6 (performance.md §5): natural-language store search over N chunks (default 1,000,000) on
// SQLite FTS5, through the plugin's real query path (plugins/store/server/search.ts), beside a
// naive OR-of-all-words query with a JOIN store filter measured in the same run; plus indexing
// throughput (chunk text through the insert triggers into FTS5) in MB/s.
// Run alone: `node bench/storeSearch.ts [chunks]`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { createSqliteFts } from '../plugins/store/server/schema.ts';
import { planSqlite, searchChunks } from '../plugins/store/server/search.ts';
import type { StoreDb } from '../plugins/store/server/schema.ts';

const COMMON = 'the of and to a in is how what for on with that this by from at are as be it can do does i an which'.split(' ');

function rng(seed: number) {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

/** Zipf(1.07) over a 60k vocabulary; the 25 most frequent are common English words. */
function vocabulary(size = 60_000) {
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

export interface StoreSearchReport {
  chunks: number;
  indexMBps: number;
  indexChunksPerS: number;
  dbBytes: number;
  rawBytes: number;
  ours: { p50: number; p95: number; p99: number };
  naive: { p50: number; p95: number; p99: number };
  ratio: number;
  queries: number;
  naiveQueries: number;
}

export async function runStoreSearch(chunks = 1_000_000, stores = 50): Promise<StoreSearchReport> {
  const dir = mkdtempSync(path.join(tmpdir(), 'shellchat-b6-'));
  const { default: SQLite } = await import('better-sqlite3');
  const raw = new SQLite(path.join(dir, 'b6.sqlite'));
  raw.pragma('journal_mode = WAL');
  raw.pragma('synchronous = NORMAL');
  const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: raw }) });
  try {
    raw.exec(`CREATE TABLE store_files (id INTEGER PRIMARY KEY, store_id INTEGER, name TEXT, bytes INTEGER, chunks INTEGER, created_at INTEGER);
      CREATE TABLE store_chunks (id INTEGER PRIMARY KEY, store_id INTEGER NOT NULL, file_id INTEGER NOT NULL, seq INTEGER NOT NULL, tag TEXT NOT NULL, body TEXT NOT NULL);
      CREATE INDEX store_chunks_store ON store_chunks(store_id);`);
    await createSqliteFts(db);
    for (let s = 1; s <= stores; s++) raw.prepare('INSERT INTO store_files VALUES (?, ?, ?, 0, 0, 0)').run(s, s, `file${s}.txt`);
    const { words, sample } = vocabulary();
    const random = rng(42);
    const insert = raw.prepare('INSERT INTO store_chunks (store_id, file_id, seq, tag, body) VALUES (?, ?, ?, ?, ?)');
    let rawBytes = 0;
    let indexMs = 0;
    const batch = 5000;
    for (let start = 0; start < chunks; start += batch) {
      const bodies: string[] = [];
      for (let i = start; i < Math.min(chunks, start + batch); i++) {
        const parts: string[] = new Array(120);
        for (let k = 0; k < 120; k++) parts[k] = words[sample(random())]!;
        bodies.push(parts.join(' '));
      }
      const t0 = performance.now();
      raw.transaction(() => {
        bodies.forEach((body, k) => {
          const store = ((start + k) % stores) + 1;
          rawBytes += Buffer.byteLength(body);
          insert.run(store, store, start + k, `s${store}`, body);
        });
      })();
      indexMs += performance.now() - t0;
    }
    const t0 = performance.now();
    raw.exec("INSERT INTO store_chunks_fts(store_chunks_fts) VALUES('optimize')");
    indexMs += performance.now() - t0;
    raw.pragma('wal_checkpoint(TRUNCATE)');
    const dbBytes = (raw.prepare('PRAGMA page_count').pluck().get() as number) * (raw.prepare('PRAGMA page_size').pluck().get() as number);

    // Natural-language questions with common words, over mid and rare vocabulary.
    const q = rng(7);
    const pick = (lo: number, hi: number) => words[lo + Math.floor(q() * (hi - lo))]!;
    const templates = [
      () => `how do I ${pick(200, 3000)} the ${pick(3000, 30000)} of ${pick(200, 3000)}`,
      () => `what is the ${pick(3000, 30000)} for ${pick(500, 5000)} and ${pick(100, 1000)}`,
      () => `how does a ${pick(50, 500)} ${pick(1000, 20000)} work with the ${pick(100, 2000)}`,
      () => `which ${pick(2000, 40000)} is in the ${pick(30, 300)} of ${pick(300, 3000)} ${pick(5000, 50000)}`,
    ];
    const questions = Array.from({ length: 200 }, (_, i) => templates[i % templates.length]!());
    const storeOf = (i: number) => (i % stores) + 1;
    const sdb = db as unknown as StoreDb;
    for (const question of questions.slice(0, 10)) await searchChunks(sdb, 'sqlite', question, [storeOf(0)], 10); // warm-up
    const ours: number[] = [];
    for (const [i, question] of questions.entries()) {
      const t = performance.now();
      await searchChunks(sdb, 'sqlite', question, [storeOf(i)], 10);
      ours.push(performance.now() - t);
    }
    // The naive query: OR of every word, the store filter by JOIN, in the same run.
    const naiveStmt = raw.prepare(
      'SELECT c.id FROM store_chunks_fts f JOIN store_chunks c ON c.id = f.rowid WHERE store_chunks_fts MATCH ? AND c.store_id = ? ORDER BY f.rank LIMIT 10',
    );
    const naive: number[] = [];
    const naiveCount = chunks >= 500_000 ? 20 : 60;
    for (const [i, question] of questions.slice(0, naiveCount).entries()) {
      const match = [...new Set(question.toLowerCase().match(/[a-z0-9]+/g) ?? [])].map((w) => `"${w}"`).join(' OR ');
      const t = performance.now();
      naiveStmt.all(match, storeOf(i));
      naive.push(performance.now() - t);
    }
    void planSqlite;
    const stats = (xs: number[]) => ({ p50: pct(xs, 50), p95: pct(xs, 95), p99: pct(xs, 99) });
    const oursStats = stats(ours);
    const naiveStats = stats(naive);
    return {
      chunks,
      indexMBps: rawBytes / 1e6 / (indexMs / 1000),
      indexChunksPerS: chunks / (indexMs / 1000),
      dbBytes,
      rawBytes,
      ours: oursStats,
      naive: naiveStats,
      ratio: naiveStats.p95 / oursStats.p95,
      queries: ours.length,
      naiveQueries: naive.length,
    };
  } finally {
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
  void sql;
}

if (import.meta.main) {
  const n = Number(process.argv[2] ?? 1_000_000);
  const r = await runStoreSearch(n);
  const f = (x: { p50: number; p95: number; p99: number }) => `p50 ${x.p50.toFixed(2)} / p95 ${x.p95.toFixed(2)} / p99 ${x.p99.toFixed(2)} ms`;
  console.log(`B6 store search over ${r.chunks.toLocaleString('en')} chunks (50 stores, SQLite FTS5)`);
  console.log(`  ours  (${r.queries} questions): ${f(r.ours)}`);
  console.log(`  naive (${r.naiveQueries} questions, OR of all words + JOIN filter): ${f(r.naive)}`);
  console.log(`  ratio naive/ours at p95: ${r.ratio.toFixed(1)}x`);
  console.log(`  indexing: ${r.indexMBps.toFixed(2)} MB/s (${Math.round(r.indexChunksPerS).toLocaleString('en')} chunks/s); index ${(r.dbBytes / r.rawBytes).toFixed(2)}x raw text`);
}
