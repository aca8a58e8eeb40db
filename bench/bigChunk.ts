// A long answer arriving at once (the brief "bigchunk"; the same render as a long log opened):
// 32 KB and 200 KB of rich markdown sent by the fake provider in one piece, into the built app
// and into the floor page (bench/appStream.ts: the same stream appended as paragraphs), in
// Chromium. Measured from the request to a second after the answer's end, the view at the
// answer's top: the main thread's time (DevTools TaskDuration), and again once every block is
// parsed (what is off screen is parsed in idle time, bench/README.md), the longest task of the
// whole (the Long Tasks API: tasks of 50 ms and more) and how many there were, and the longest
// gap between animation frames.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { CHROME_ARGS, CHROME_PATH, startServer } from '../tests/e2e/support.ts';
import { startFakeOpenAI } from '../tests/fixtures/fakeOpenAI.ts';
import { spread } from './appScrolled.ts';
import { DIST, FLOOR, FLOOR_HTML, PROBE } from './appStream.ts';
import { buildApp } from './initialLoad.ts';
import { generateMarkdown } from './render/generate.ts';

/** Every long task's duration, from the page's start. */
const LONG_TASKS = `window.__long = []; new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__long.push(e.duration); }).observe({ type: 'longtask' });`;
/** Quiet time after the answer's end before the first figures are read (ms): the app's last
 *  slices of what is near the view run in it, and some of its idle work. */
const SETTLE_MS = 1000;

export interface ChunkMeasure {
  mainThreadMs: number;
  /** The main thread's time until every block is parsed (no `[data-deferred]` left). */
  allParsedMs: number;
  longestTaskMs: number;
  longTasks: number;
  gapMax: number;
}

async function measure(page: Page, start: () => Promise<void>, settled: () => Promise<void>): Promise<ChunkMeasure> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const busy = async () => ((await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'TaskDuration')?.value ?? 0) * 1000;
  await page.evaluate(() => {
    const w = window as unknown as { __frames: number[]; __long: number[] };
    w.__frames.length = 0;
    w.__long.length = 0;
  });
  const before = await busy();
  await start();
  await settled();
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  const mainThreadMs = (await busy()) - before;
  await page.waitForFunction(() => !document.querySelector('[data-deferred]'), null, { timeout: 120_000, polling: 100 });
  const allParsedMs = (await busy()) - before;
  const { frames, long } = await page.evaluate(() => {
    const w = window as unknown as { __frames: number[]; __long: number[] };
    return { frames: w.__frames, long: w.__long };
  });
  await cdp.detach();
  const gaps = frames.slice(1).map((t, i) => t - frames[i]!);
  return { mainThreadMs, allParsedMs, longestTaskMs: Math.max(0, ...long), longTasks: long.length, gapMax: Math.max(0, ...gaps) };
}

export interface ChunkResult {
  kb: number;
  floor: ChunkMeasure;
  app: ChunkMeasure;
}

export async function runBigChunk(options: { sizes?: number[]; build?: boolean } = {}): Promise<ChunkResult[]> {
  const sizes = options.sizes ?? (process.env.BENCH_SIZES ?? '1,32,200').split(',').map(Number);
  if (options.build !== false) await buildApp(DIST);
  mkdirSync(path.join(DIST, 'assets'), { recursive: true });
  writeFileSync(path.join(DIST, 'assets', 'floor.html'), FLOOR_HTML);
  writeFileSync(path.join(DIST, 'assets', 'floor.js'), FLOOR);
  const fake = await startFakeOpenAI({ models: ['bench'] });
  const server = await startServer({ SHELLCHAT_DIST: DIST, MODEL: 'bench', OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'sk-bench', LOG_LEVEL: 'warn' });
  const browser = await chromium.launch({ executablePath: CHROME_PATH, headless: true, args: CHROME_ARGS });
  const results: ChunkResult[] = [];
  let session = 1_820_000_000_000;
  try {
    for (const kb of sizes) {
      fake.always({ chunks: [generateMarkdown(kb * 1024)], delayMs: 0 });
      const context = await browser.newContext({ viewport: { width: 1024, height: 768 }, serviceWorkers: 'block' });
      await context.addInitScript(PROBE);
      await context.addInitScript(LONG_TASKS);
      const floorPage = await context.newPage();
      await floorPage.goto(`${server.url}/assets/floor.html`);
      let floorDone: Promise<void> = Promise.resolve();
      const floor = await measure(
        floorPage,
        async () => void (floorDone = floorPage.evaluate((s) => (window as unknown as { runFloor(s: number): Promise<void> }).runFloor(s), session++)),
        async () => floorDone,
      );
      await floorPage.close();
      const appPage = await context.newPage();
      await appPage.goto(server.url);
      await appPage.waitForSelector('[data-testid=input]');
      await appPage.waitForLoadState('networkidle');
      const input = appPage.getByTestId('input');
      const app = await measure(
        appPage,
        async () => {
          await input.fill('bench');
          await input.press('Enter');
        },
        async () => {
          await appPage.waitForFunction(() => document.querySelector('.shell')?.getAttribute('data-generating') === 'false' && document.querySelector('.markdown'), null, { timeout: 120_000 });
        },
      );
      await context.close();
      results.push({ kb, floor, app });
    }
  } finally {
    await browser.close();
    await server.stop();
    await fake.close();
  }
  return results;
}

/** `runs` runs of every size (the app built once): the figures by size, in run order. */
export async function runBigChunkRuns(runs = 3): Promise<Map<number, ChunkResult[]>> {
  const bySize = new Map<number, ChunkResult[]>();
  for (let run = 0; run < runs; run++) {
    for (const r of await runBigChunk({ build: run === 0 })) bySize.set(r.kb, [...(bySize.get(r.kb) ?? []), r]);
  }
  return bySize;
}

export const chunkLine = (m: ChunkMeasure): string =>
  `main thread ${m.mainThreadMs.toFixed(0)} ms (all parsed ${m.allParsedMs.toFixed(0)} ms), longest task ${m.longestTaskMs.toFixed(0)} ms (${m.longTasks} of 50 ms or more), longest frame gap ${m.gapMax.toFixed(1)} ms`;

export function summary(kb: number, results: ChunkResult[]): { ratio: ReturnType<typeof spread>; allParsed: ReturnType<typeof spread>; longest: ReturnType<typeof spread>; line: string } {
  const ratio = spread(results.map((r) => r.app.mainThreadMs / r.floor.mainThreadMs));
  const allParsed = spread(results.map((r) => r.app.allParsedMs / r.floor.allParsedMs));
  const longest = spread(results.map((r) => r.app.longestTaskMs), 0);
  const line = `${kb} KB at once, median (lowest-highest) of ${results.length}: app main thread ${spread(results.map((r) => r.app.mainThreadMs), 0).text} ms, floor ${spread(results.map((r) => r.floor.mainThreadMs), 0).text} ms: ${ratio.text}x; until all parsed app ${spread(results.map((r) => r.app.allParsedMs), 0).text} ms, floor ${spread(results.map((r) => r.floor.allParsedMs), 0).text} ms: ${allParsed.text}x; longest task app ${longest.text} ms, floor ${spread(results.map((r) => r.floor.longestTaskMs), 0).text} ms; long tasks app ${spread(results.map((r) => r.app.longTasks), 0).text}`;
  return { ratio, allParsed, longest, line };
}

if (import.meta.main) {
  const bySize = await runBigChunkRuns(Number(process.env.BENCH_RUNS ?? 3));
  for (const [kb, results] of bySize) {
    for (const r of results) console.log(`${kb} KB at once\n  floor: ${chunkLine(r.floor)}\n  app:   ${chunkLine(r.app)}`);
    console.log(summary(kb, results).line);
  }
}
