// B13 indexing: what the search plugin's CJK trigram index (plugins/search/server/cjkSchema.ts)
// adds to writing a log, ASCII text and Chinese text, beside the same inserts with the word
// index alone, alternated in one process: 3 runs of 30,000 logs each way.
// Run alone: `node bench/cjkIndexing.ts`.
import { Kysely, SqliteDialect } from 'kysely';
import { createSqliteCjkIndex } from '../plugins/search/server/cjkSchema.ts';
import { createSqliteIndex } from '../plugins/search/server/schema.ts';
import { medianOf, spread } from './logSearch.ts';

const LOGS = 30_000;

function rng(seed: number) {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

async function insertRate(withCjk: boolean, kind: 'ascii' | 'cjk'): Promise<number> {
  const { default: SQLite } = await import('better-sqlite3');
  const raw = new SQLite(':memory:');
  const db = new Kysely<never>({ dialect: new SqliteDialect({ database: raw }) });
  try {
    raw.exec(`CREATE TABLE logs (id INTEGER PRIMARY KEY AUTOINCREMENT, session INTEGER NOT NULL, time INTEGER NOT NULL, user_id INTEGER, device_id TEXT, model TEXT NOT NULL,
      input TEXT NOT NULL, output TEXT NOT NULL, images TEXT NOT NULL, tools TEXT NOT NULL, input_tokens INTEGER NOT NULL, output_tokens INTEGER NOT NULL, created_at INTEGER NOT NULL);
      CREATE INDEX logs_user ON logs(user_id, time);`);
    await createSqliteIndex(db as never);
    if (withCjk) await createSqliteCjkIndex(db as never);
    const random = rng(5);
    // 15 and 60 words; a Chinese word is 2 characters.
    const text = (n: number) =>
      Array.from({ length: n }, () => (kind === 'ascii' ? `w${Math.floor(random() * 5000).toString(36)}x` : String.fromCodePoint(0x4e00 + Math.floor(random() * 3000), 0x4e00 + Math.floor(random() * 3000)))).join(kind === 'ascii' ? ' ' : '');
    const rows = Array.from({ length: LOGS }, (_, i) => [i, i % 100, text(15), text(60)] as const);
    const insert = raw.prepare(`INSERT INTO logs (session, time, user_id, model, input, output, images, tools, input_tokens, output_tokens, created_at) VALUES (1, ?, ?, 'm', ?, ?, '[]', '[]', 0, 0, 0)`);
    const t = performance.now();
    raw.transaction(() => rows.forEach((r) => insert.run(...r)))();
    return LOGS / ((performance.now() - t) / 1000);
  } finally {
    await db.destroy();
  }
}

export interface CjkIndexingReport {
  /** Logs a second with the word index alone, with both, and the ratio, per run. */
  ascii: { alone: number[]; both: number[]; ratio: number[] };
  cjk: { alone: number[]; both: number[]; ratio: number[] };
}

export async function runCjkIndexing(): Promise<CjkIndexingReport> {
  const out: CjkIndexingReport = { ascii: { alone: [], both: [], ratio: [] }, cjk: { alone: [], both: [], ratio: [] } };
  for (const kind of ['ascii', 'cjk'] as const) {
    for (let run = 0; run < 3; run++) {
      const alone = await insertRate(false, kind);
      const both = await insertRate(true, kind);
      out[kind].alone.push(alone);
      out[kind].both.push(both);
      out[kind].ratio.push(alone / both);
    }
  }
  return out;
}

export function printCjkIndexing(r: CjkIndexingReport): void {
  for (const kind of ['ascii', 'cjk'] as const) {
    const x = r[kind];
    console.log(`  ${kind === 'ascii' ? 'ASCII logs  ' : 'Chinese logs'}: ${Math.round(medianOf(x.both)).toLocaleString('en')} logs/s with the CJK index, ${Math.round(medianOf(x.alone)).toLocaleString('en')} without: ${spread(x.ratio)}x the time`);
  }
}

if (import.meta.main) printCjkIndexing(await runCjkIndexing());
