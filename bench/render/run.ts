// B1, the streaming render benchmark (performance.md §7 B1): builds the page in this folder
// with Vite (React production build), serves it on a free port, and drives Debian's Chromium
// with playwright-core. The same generated 64 KB answer is streamed in 16-byte chunks through
// the markdown renderer (StreamingMarkdown) and through a naive baseline that re-renders the
// whole text with the same pipeline on every update; see main.tsx for how an update is timed.
//
// The naive baseline costs ~0.1 s per update near the end of a 64 KB answer, so it cannot run
// on all ~4,100 chunks on every `npm run bench`. Both renderers are therefore also run on the
// same sampled prefixes (every 32nd chunk by default, i.e. 512 bytes per update), and the
// naive/ours ratio compares those like for like. Our per-update figures (p95, deciles) come
// from the full stream, every 16-byte chunk. Rounds are interleaved (ours, naive, ours
// sampled, plain) and each figure is reported from its median round.
import { createReadStream, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { chromium } from 'playwright-core';
import { build } from 'vite';
import { CHROME_ARGS, CHROME_PATH } from '../../tests/e2e/support.ts';
import type { RunOptions } from './main.tsx';

const HERE = import.meta.dirname;

export const TARGETS = { ratio: 10, p95: 8, drift: 1.5 } as const;

export interface Stats {
  updates: number;
  total: number;
  p50: number;
  p95: number;
  max: number;
  over16: number;
  firstDecile: number;
  lastDecile: number;
  /** The forced-layout part of the first and last 10 % (mean ms). */
  layoutFirstDecile: number;
  layoutLastDecile: number;
}

export interface RenderBenchResult {
  docBytes: number;
  chunk: number;
  stride: number;
  rounds: number;
  /** Ours, every chunk. */
  ours: Stats;
  /** Ours, naive and plain on the sampled prefixes. */
  oursSampled: Stats;
  naiveSampled: Stats;
  plainSampled: Stats;
  /** naive / ours on the same sampled prefixes (the headline ratio). */
  ratio: number;
  /** naive sampled total x stride (its full-stream estimate) / ours full-stream total. */
  ratioEstimated: number;
  /** Ours: mean of the last 10 % of updates / mean of the first 10 %. */
  drift: number;
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const quantile = (xs: number[], q: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
};

export function stats(times: number[], layout: number[] = []): Stats {
  const tenth = Math.max(1, Math.floor(times.length / 10));
  return {
    updates: times.length,
    total: times.reduce((a, b) => a + b, 0),
    p50: quantile(times, 0.5),
    p95: quantile(times, 0.95),
    max: Math.max(...times),
    over16: times.filter((t) => t > 16.7).length,
    firstDecile: mean(times.slice(0, tenth)),
    lastDecile: mean(times.slice(-tenth)),
    layoutFirstDecile: mean(layout.slice(0, tenth)),
    layoutLastDecile: mean(layout.slice(-tenth)),
  };
}

/** Median by a key: the round whose key is the median (so each reported round is a real one). */
function medianBy<T>(items: T[], key: (t: T) => number): T {
  return [...items].sort((a, b) => key(a) - key(b))[Math.floor((items.length - 1) / 2)]!;
}

/** Runs `fn` with NODE_ENV=production, so Vite bundles React's production build. */
async function withProduction<T>(fn: () => Promise<T>): Promise<T> {
  const saved = { ...process.env };
  process.env.NODE_ENV = 'production';
  try {
    return await fn();
  } finally {
    process.env = saved;
  }
}

/** Builds a page folder (index.html + its entry) with Vite into `outDir`. */
export async function buildPage(root: string, outDir: string): Promise<void> {
  await withProduction(() =>
    build({
      configFile: false,
      root,
      base: './',
      logLevel: 'silent',
      mode: 'production',
      plugins: [react()],
      build: { outDir, emptyOutDir: true, target: 'es2023', chunkSizeWarningLimit: 4096 },
    }),
  );
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
};

/** A static file server for a built page on a free loopback port. `isolate` adds COOP/COEP
 *  (cross-origin isolation: microsecond performance.now()); there is never a CSP. */
export async function serve(dir: string, { isolate = true } = {}): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const file = path.join(dir, pathname === '/' ? 'index.html' : pathname);
    if (!file.startsWith(dir) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, {
      'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream',
      // Cross-origin isolation gives performance.now() microsecond resolution (100 us otherwise).
      ...(isolate ? { 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp' } : {}),
    });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface RenderBenchOptions {
  bytes?: number;
  seed?: number;
  chunk?: number;
  stride?: number;
  rounds?: number;
  log?: (line: string) => void;
}

export async function runRenderBench(options: RenderBenchOptions = {}): Promise<RenderBenchResult> {
  const { bytes = 64 * 1024, seed = 7, chunk = 16, stride = 32, rounds = 3, log = () => {} } = options;
  const outDir = mkdtempSync(path.join(tmpdir(), 'shellchat-render-bench-'));
  await buildPage(HERE, outDir);
  const server = await serve(outDir);
  const browser = await chromium.launch({ executablePath: CHROME_PATH, headless: true, args: CHROME_ARGS });
  try {
    const page = await browser.newPage({ viewport: { width: 1024, height: 768 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(server.url);
    await page.waitForFunction(() => document.title === 'ready');
    const run = (o: Partial<RunOptions> & Pick<RunOptions, 'strategy' | 'stride'>) =>
      page.evaluate((opts) => window.__bench.run(opts), { bytes, seed, chunk, ...o });
    // Warm-up (JIT, fonts, KaTeX CSS) on a short prefix stream, not measured.
    await page.evaluate((opts) => window.__bench.run(opts), { strategy: 'ours' as const, bytes: 8 * 1024, seed: seed + 1, chunk, stride: 4 });
    await page.evaluate((opts) => window.__bench.run(opts), { strategy: 'naive' as const, bytes: 8 * 1024, seed: seed + 1, chunk, stride: 16 });
    if (!(await page.evaluate(() => crossOriginIsolated))) log('    (page not cross-origin isolated: performance.now() has 100 us resolution)');
    const results: Omit<RenderBenchResult, 'rounds' | 'chunk' | 'stride'>[] = [];
    for (let round = 1; round <= rounds; round++) {
      const ours = await run({ strategy: 'ours', stride: 1 });
      const naive = await run({ strategy: 'naive', stride });
      const oursSampled = await run({ strategy: 'ours', stride });
      const plain = await run({ strategy: 'plain', stride });
      const s = {
        docBytes: ours.docBytes,
        ours: stats(ours.times, ours.layout),
        naiveSampled: stats(naive.times),
        oursSampled: stats(oursSampled.times),
        plainSampled: stats(plain.times),
      };
      const result = {
        ...s,
        ratio: s.naiveSampled.total / s.oursSampled.total,
        ratioEstimated: (s.naiveSampled.total * stride) / s.ours.total,
        drift: s.ours.lastDecile / s.ours.firstDecile,
      };
      log(
        `    round ${round}: ours ${result.ours.total.toFixed(0)} ms / ${result.ours.updates} updates, p95 ${result.ours.p95.toFixed(2)} ms; ` +
          `sampled naive ${result.naiveSampled.total.toFixed(0)} ms vs ours ${result.oursSampled.total.toFixed(0)} ms (${result.ratio.toFixed(1)}x)`,
      );
      results.push(result);
    }
    if (errors.length) throw new Error(`render benchmark page errors: ${errors.join('; ')}`);
    // Each target is judged on its median round: the ratio and the sampled figures from the
    // round with the median ratio, p95 and the other per-update figures from the round with the
    // median p95, the deciles from the round with the median drift.
    const byRatio = medianBy(results, (r) => r.ratio);
    const byP95 = medianBy(results, (r) => r.ours.p95).ours;
    const byDrift = medianBy(results, (r) => r.drift);
    return {
      ...byRatio,
      ours: {
        ...byP95,
        firstDecile: byDrift.ours.firstDecile,
        lastDecile: byDrift.ours.lastDecile,
        layoutFirstDecile: byDrift.ours.layoutFirstDecile,
        layoutLastDecile: byDrift.ours.layoutLastDecile,
      },
      drift: byDrift.drift,
      rounds,
      chunk,
      stride,
    };
  } finally {
    await browser.close();
    await server.close();
    rmSync(outDir, { recursive: true, force: true });
  }
}

const ms = (n: number) => `${n.toFixed(2)} ms`;

/** The report lines, and whether each target is met. */
export function renderReport(r: RenderBenchResult): { lines: string[]; checks: { ok: boolean; text: string }[] } {
  const kb = (r.docBytes / 1024).toFixed(1);
  const lines = [
    `  ${kb} KB generated answer, ${r.chunk}-byte chunks, median of ${r.rounds} interleaved rounds; per update: flushSync render + forced layout`,
    `  (the deciles come from the round with the median drift, the other figures of ours from the one with the median p95)`,
    `  ours (StreamingMarkdown), every chunk: ${r.ours.updates} updates, total ${r.ours.total.toFixed(0)} ms, p50 ${ms(r.ours.p50)}, p95 ${ms(r.ours.p95)}, max ${ms(r.ours.max)}, ${r.ours.over16} over 16.7 ms`,
    `    first 10 % mean ${ms(r.ours.firstDecile)}, last 10 % mean ${ms(r.ours.lastDecile)} (${r.drift.toFixed(2)}x; of which forced layout ${ms(r.ours.layoutFirstDecile)} -> ${ms(r.ours.layoutLastDecile)})`,
    `  every ${r.stride}th chunk (${r.chunk * r.stride} B per update, ${r.naiveSampled.updates} updates), same prefixes for all:`,
    `    naive (whole text re-rendered): total ${r.naiveSampled.total.toFixed(0)} ms, p50 ${ms(r.naiveSampled.p50)}, p95 ${ms(r.naiveSampled.p95)}, last 10 % ${ms(r.naiveSampled.lastDecile)}`,
    `    ours: total ${r.oursSampled.total.toFixed(0)} ms, p95 ${ms(r.oursSampled.p95)}; plain <pre> floor: total ${r.plainSampled.total.toFixed(0)} ms, p95 ${ms(r.plainSampled.p95)}`,
    `  naive/ours ${r.ratio.toFixed(1)}x on the same prefixes (naive estimated for every chunk vs ours measured: ${r.ratioEstimated.toFixed(1)}x)`,
  ];
  const checks = [
    { ok: r.ratio >= TARGETS.ratio, text: `naive/ours total >= ${TARGETS.ratio}x (${r.ratio.toFixed(1)}x)` },
    { ok: r.ours.p95 <= TARGETS.p95, text: `ours p95 per update <= ${TARGETS.p95} ms (${ms(r.ours.p95)})` },
    { ok: r.drift <= TARGETS.drift, text: `ours last 10 % mean <= ${TARGETS.drift}x first 10 % (${r.drift.toFixed(2)}x)` },
  ];
  return { lines, checks };
}

if (import.meta.main) {
  // Run alone with `node bench/render/run.ts`; `npm run bench` runs every benchmark.
  if (!existsSync(CHROME_PATH)) {
    console.log(`B1 streaming render: skipped, no Chromium at ${CHROME_PATH} (set CHROME_PATH)`);
    process.exit(process.env.CI === 'true' ? 1 : 0);
  }
  console.log('B1 streaming render: main-thread time per update in Chromium');
  const result = await runRenderBench({ log: console.log });
  const { lines, checks } = renderReport(result);
  for (const line of lines) console.log(line);
  for (const c of checks) console.log(`  ${c.ok ? 'ok  ' : 'FAIL'} ${c.text}`);
  process.exit(checks.every((c) => c.ok) ? 0 : 1);
}
