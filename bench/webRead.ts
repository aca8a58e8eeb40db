// Issue 37's measures of the web plugin, each beside its baseline in the same run:
// - reading a 2 MB article page (the egress-safe fetch, then charset, Readability on linkedom
//   and the text) against the same fetch alone, in time and in RSS;
// - a `:web` search through the real server (POST /api/web/search, SearXNG backend) against the
//   backend's own answer asked directly: the overhead's p95.
// Run alone: `node bench/webRead.ts`.
import { createEgressFetch } from '../src/server/net/egress.ts';
import { extractText } from '../src/server/uploads/extract.ts';
import { readPage } from '../plugins/web/server/read.ts';
import { pageReader, poolOptions, WORKER_MODULE } from '../plugins/web/server/extractPool.ts';
import type { ExtractJob, ExtractResult } from '../plugins/web/server/extractWorker.ts';
import { createWorkerPool } from '../src/server/workers/pool.ts';
import { startFakeWeb } from '../plugins/web/fixtures/site.ts';
import { startTestServer } from '../tests/server/support.ts';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

export interface WebReadReport {
  fetchMs: number;
  readMs: number;
  ratio: number;
  rssGrowthMb: number;
  chars: number;
  directP95: number;
  serverP95: number;
  overheadP95: number;
  overheadP50: number;
}

export async function runWebRead(rounds = 15, searches = 200): Promise<WebReadReport> {
  const site = await startFakeWeb();
  try {
    const egress = createEgressFetch({ allowHosts: [`localhost:${site.port}`] });
    const url = `${site.origin}/article/2mb`;
    const signal = new AbortController().signal;
    const fetchOnly = async () => new Uint8Array(await (await egress(url, { signal })).arrayBuffer());
    // The server's path: the text is taken in its worker pool (one worker for one page at a time).
    const pool = createWorkerPool<ExtractJob, ExtractResult>(WORKER_MODULE, poolOptions({ extractWorkers: 1, extractTimeoutMs: 60_000 }));
    const read = () => readPage(egress, { extractText, pageOf: pageReader(pool) }, url, { maxBytes: 3 * 1024 * 1024, timeoutMs: 60_000, wantChars: 20_000 }, signal);
    // Warm both paths (the JIT, the sockets), then alternate them so that load hits both alike.
    // A server reads many pages: its extraction worker's JIT is warm, as after these.
    for (let i = 0; i < 3; i++) {
      await fetchOnly();
      await read();
    }
    global.gc?.();
    const rssBefore = process.memoryUsage().rss;
    let rssPeak = rssBefore;
    const fetches: number[] = [];
    const reads: number[] = [];
    let chars = 0;
    for (let i = 0; i < rounds; i++) {
      let t = performance.now();
      await fetchOnly();
      fetches.push(performance.now() - t);
      t = performance.now();
      chars = (await read()).text.length;
      reads.push(performance.now() - t);
      rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
    }

    await pool.close();
    site.searchDelayMs = 5;
    // A visitor's limits in every window (counted per browser and per address), set high enough for the run.
    const server = await startTestServer('sqlite', { SEARXNG_URL: site.searxngUrl, WEB_USAGE_LIMITS: 'anonymous:100000,100000,100000', USAGE_LIMITS: '' });
    const direct: number[] = [];
    const through: number[] = [];
    try {
      const client = server.client();
      const ask = (q: string) => client.post('/api/web/search', { query: q });
      const askDirect = async (q: string) => (await fetch(`${site.searxngUrl}/search?q=${encodeURIComponent(q)}&format=json`)).json();
      await ask('warm');
      await askDirect('warm');
      for (let i = 0; i < searches; i++) {
        let t = performance.now();
        await askDirect(`rust ${i}`);
        direct.push(performance.now() - t);
        t = performance.now();
        await ask(`rust ${i}`);
        through.push(performance.now() - t);
      }
    } finally {
      await server.close();
    }
    const fetchMs = median(fetches);
    const readMs = median(reads);
    const overheads = through.map((ms, i) => ms - direct[i]!);
    return {
      fetchMs,
      readMs,
      ratio: readMs / fetchMs,
      rssGrowthMb: (rssPeak - rssBefore) / 1024 / 1024,
      chars,
      directP95: pct(direct, 95),
      serverP95: pct(through, 95),
      overheadP95: pct(overheads, 95),
      overheadP50: median(overheads),
    };
  } finally {
    await site.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await runWebRead());
