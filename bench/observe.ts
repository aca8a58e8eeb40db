// What observing the server costs (issue 41): the metrics plugin's work for one API request (the
// 'request' event, a counter and a histogram) beside parsing the request's URL once; an API
// request's CPU with METRICS_TOKEN set beside the same server without it, both in this process;
// and one scrape with every route's series filled. `node bench/observe.ts`.
import { createServerEvents } from '../src/server/events.ts';
import { createMetrics } from '../plugins/metrics/server/collect.ts';
import { startTestServer } from '../tests/server/support.ts';

const TOKEN = 'bench-metrics-token-0123456789';

const timed = (n: number, f: (i: number) => unknown): number => {
  for (let i = 0; i < n / 10; i++) f(i);
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) f(i);
  return Number(process.hrtime.bigint() - start) / n;
};

export interface ObserveResult {
  /** ns: a `new URL()` of a request's URL (the baseline), and the metrics' work for one request. */
  urlNs: number;
  hookNs: number;
  /** µs of this process's CPU per GET /api/ping, metrics on and off (medians of the rounds). */
  onUs: number;
  offUs: number;
  /** ms to render one scrape with 80 routes × 3 statuses of series. */
  scrapeMs: number;
}

async function cpuPerRequest(url: string, n: number): Promise<number> {
  const start = process.cpuUsage();
  for (let i = 0; i < n; i++) await (await fetch(`${url}/api/ping`)).arrayBuffer();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / n;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function runObserve(rounds = 7, n = 400): Promise<ObserveResult> {
  const events = createServerEvents({ error: () => {} });
  const registry = createMetrics({ events, runtimeState: () => ({ database: { engine: 'sqlite', connections: null }, redis: { configured: false, ready: false } }) });
  const routes = Array.from({ length: 80 }, (_, i) => `/api/plugin${i}/:name`);
  const statuses = [200, 404, 500];
  const urlNs = timed(500_000, () => new URL('http://127.0.0.1:3000/api/role/reviewer?x=1').pathname);
  const hookNs = timed(500_000, (i) => events.emit('request', { method: 'GET', route: routes[i % 80]!, status: statuses[i % 3]!, ms: i % 50 }));
  const startScrape = performance.now();
  for (let i = 0; i < 20; i++) await registry.metrics();
  const scrapeMs = (performance.now() - startScrape) / 20;

  const [on, off] = await Promise.all([startTestServer('sqlite', { METRICS_TOKEN: TOKEN }), startTestServer('sqlite')]);
  try {
    await cpuPerRequest(on.url, n);
    await cpuPerRequest(off.url, n);
    const onUs: number[] = [];
    const offUs: number[] = [];
    // Alternated, so that the machine's load falls on both alike.
    for (let r = 0; r < rounds; r++) {
      onUs.push(await cpuPerRequest(on.url, n));
      offUs.push(await cpuPerRequest(off.url, n));
    }
    return { urlNs, hookNs, onUs: median(onUs), offUs: median(offUs), scrapeMs };
  } finally {
    await Promise.all([on.close(), off.close()]);
  }
}

if (import.meta.main) {
  const r = await runObserve();
  console.log(`new URL() ${(r.urlNs / 1000).toFixed(2)} µs; the metrics' work for one request ${(r.hookNs / 1000).toFixed(2)} µs (${(r.hookNs / r.urlNs).toFixed(1)}x)`);
  console.log(`GET /api/ping: ${r.onUs.toFixed(0)} µs of CPU with METRICS_TOKEN, ${r.offUs.toFixed(0)} µs without (${(r.onUs / r.offUs).toFixed(2)}x); a scrape of 240 request series ${r.scrapeMs.toFixed(1)} ms`);
}
