// B1 scrolled away (issue 40): the reader scrolls up and down through what came earlier while
// an answer streams below, a scripted mouse wheel every 100 ms, in the app and in the floor
// (bench/appStream.ts). The page shows one result at a time (spec part 4: a new answer replaces
// the output), so the earlier text in the view is the answer's own beginning: its first 32 KB
// come in one burst, then 64 KB paced, so there is text to scroll from the start in both pages.
// Measured: main-thread time, frame gaps, and the drift of the element under the reader's eyes
// between two wheel events beyond the wheel's own delta (0 when the view does not jump).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROME_ARGS, CHROME_PATH, startServer } from '../tests/e2e/support.ts';
import { startFakeOpenAI } from '../tests/fixtures/fakeOpenAI.ts';
import { DIST, FLOOR, FLOOR_HTML, p95, PROBE, tokensOf } from './appStream.ts';
import { buildApp } from './initialLoad.ts';
import { generateMarkdown } from './render/generate.ts';

const PREFIX_BYTES = 32 * 1024;
const WHEEL_EVERY_MS = 100;
const WHEEL_PX = 100;
/** Where the reader starts reading, well inside the earlier text and away from its end. */
const START_AT_PX = 1500;

export interface ScrolledMeasure {
  /** From the first wheel of the reading to the stream's end. */
  mainThreadMs: number;
  streamMs: number;
  gapP95: number;
  gapMax: number;
  wheels: number;
  /** The largest movement of the anchored element between two wheels (each taken and painted). */
  driftMaxPx: number;
  /** Wheel intervals in which it moved at all. */
  drifted: number;
  /** The largest difference between a wheel's delta and how far it moved that element. */
  wheelOffMaxPx: number;
  /** The page's scroll position at the end over where the wheels alone would have left it. */
  scrollEndPx: number;
  scrollExpectedPx: number;
  /** The longest frame while the first 32 KB came in at once, before the reading began. */
  burstGapMax: number;
}

/** Wheels the page has seen (a busy page takes one late). */
const WHEELS = `window.__wheels = 0; addEventListener('wheel', () => window.__wheels++, { passive: true, capture: true });`;

/** The top of the element under the reader's eyes (chosen once), and the scroll position. */
const READ = `(() => {
  const s = document.scrollingElement;
  if (!window.__anchor?.isConnected) {
    window.__anchorLost = (window.__anchor ? 1 : 0) + (window.__anchorLost ?? 0);
    window.__anchor = document.elementFromPoint(innerWidth / 2, innerHeight / 3);
  }
  return { top: window.__anchor.getBoundingClientRect().top, scroll: s.scrollTop, lost: window.__anchorLost };
})()`;

async function measure(page: Page, start: () => Promise<void>, finished: () => Promise<boolean>): Promise<ScrolledMeasure> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const busy = async () => ((await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'TaskDuration')?.value ?? 0) * 1000;
  await page.evaluate(() => void ((window as unknown as { __frames: number[] }).__frames.length = 0));
  await start();
  // The earlier text is in: the reader moves into it, then reads up and down.
  await page.waitForFunction((px) => document.scrollingElement!.scrollHeight > px + 2 * innerHeight, START_AT_PX);
  await page.mouse.move(512, 400);
  for (let moved = 0; moved < START_AT_PX; moved += 300) await page.mouse.wheel(0, 300);
  await new Promise((r) => setTimeout(r, 300));
  type Read = { top: number; scroll: number; lost?: number };
  // Measured from here: the reading, not the burst's first render (reported apart, as its frame).
  const burstFrames = await page.evaluate(() => (window as unknown as { __frames: number[] }).__frames.splice(0));
  const burstGapMax = Math.max(0, ...burstFrames.slice(1).map((t, i) => t - burstFrames[i]!));
  const before = await busy();
  const began = performance.now();
  const read = async () => (await page.evaluate(READ)) as Read;
  let last = await read();
  const scrollStart = last.scroll;
  let wheels = 0;
  let driftMaxPx = 0;
  let drifted = 0;
  let wheelOffMaxPx = 0;
  let expected = scrollStart;
  // A lost anchor (its element replaced) is a jump too: the reader's place is gone.
  const moved = (from: Read, to: Read, delta: number) => (to.lost !== from.lost ? Infinity : Math.abs(to.top - from.top + delta));
  while (!(await finished())) {
    // Ten notches down, ten up: the reader stays among the earlier text.
    const delta = Math.floor(wheels / 10) % 2 === 0 ? WHEEL_PX : -WHEEL_PX;
    const before = await read();
    // Between the last wheel (once the page had it and painted it) and this one, nothing moves.
    const drift = moved(last, before, 0);
    if (drift > 0.5) drifted++;
    driftMaxPx = Math.max(driftMaxPx, drift);
    await page.mouse.wheel(0, delta);
    wheels++;
    expected += delta;
    // Until the page has the wheel and two frames after it: a busy page takes a wheel late.
    await page.evaluate(async (n) => {
      const raf = () => new Promise((r) => requestAnimationFrame(r));
      while ((window as unknown as { __wheels: number }).__wheels < n) await raf();
      await raf();
      await raf();
    }, wheels);
    last = await read();
    wheelOffMaxPx = Math.max(wheelOffMaxPx, moved(before, last, delta));
    // On a fixed clock, so both pages get as many wheels: one behind takes the next at once.
    await new Promise((r) => setTimeout(r, Math.max(0, began + wheels * WHEEL_EVERY_MS - performance.now())));
  }
  const streamMs = performance.now() - began;
  const mainThreadMs = (await busy()) - before;
  const frames = await page.evaluate(() => (window as unknown as { __frames: number[] }).__frames);
  const gaps = frames.slice(1).map((t, i) => t - frames[i]!);
  await cdp.detach();
  return { mainThreadMs, streamMs, gapP95: p95(gaps), gapMax: Math.max(0, ...gaps), wheels, driftMaxPx, drifted, scrollEndPx: last.scroll, scrollExpectedPx: expected, burstGapMax, wheelOffMaxPx };
}

export interface ScrolledResult {
  rate: number;
  floor: ScrolledMeasure;
  app: ScrolledMeasure;
}

export async function runAppScrolled(options: { rates?: number[]; bytes?: number; build?: boolean } = {}): Promise<ScrolledResult[]> {
  const rates = options.rates ?? [800, 2000];
  const bytes = options.bytes ?? 64 * 1024;
  if (options.build !== false) await buildApp(DIST);
  mkdirSync(path.join(DIST, 'assets'), { recursive: true });
  writeFileSync(path.join(DIST, 'assets', 'floor.html'), FLOOR_HTML);
  writeFileSync(path.join(DIST, 'assets', 'floor.js'), FLOOR);
  const text = generateMarkdown(PREFIX_BYTES + bytes);
  const cut = text.indexOf('\n\n', PREFIX_BYTES) + 2;
  const chunks = [text.slice(0, cut), ...tokensOf(text.slice(cut))];
  const fake = await startFakeOpenAI({ models: ['bench'] });
  const server = await startServer({ SHELLCHAT_DIST: DIST, MODEL: 'bench', OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'sk-bench', LOG_LEVEL: 'warn' });
  // Without smooth scrolling a notch moves the page at once, so a read 100 ms later sees all of it.
  const browser: Browser = await chromium.launch({ executablePath: CHROME_PATH, headless: true, args: [...CHROME_ARGS, '--disable-smooth-scrolling'] });
  const results: ScrolledResult[] = [];
  let session = 1_810_000_000_000;
  try {
    for (const rate of rates) {
      fake.always({ chunks, delayMs: 1000 / rate });
      const context = await browser.newContext({ viewport: { width: 1024, height: 768 }, serviceWorkers: 'block' });
      await context.addInitScript(PROBE);
      await context.addInitScript(WHEELS);
      const floorPage = await context.newPage();
      await floorPage.goto(`${server.url}/assets/floor.html`);
      let floorDone = false;
      const floor = await measure(
        floorPage,
        async () =>
          void floorPage
            .evaluate((s) => (window as unknown as { runFloor(s: number): Promise<void> }).runFloor(s), session++)
            .then(() => (floorDone = true), (err: unknown) => ((floorDone = true), console.error('floor failed:', err))),
        async () => floorDone,
      );
      await floorPage.close();
      const appPage = await context.newPage();
      await appPage.goto(server.url);
      await appPage.waitForSelector('[data-testid=input]');
      await appPage.waitForLoadState('networkidle');
      const input = appPage.getByTestId('input');
      const shell = appPage.locator('.shell');
      const app = await measure(
        appPage,
        async () => {
          await input.fill('bench');
          await input.press('Enter');
          await appPage.waitForFunction(() => document.querySelector('.shell')?.getAttribute('data-generating') === 'true');
        },
        async () => (await shell.getAttribute('data-generating')) === 'false',
      );
      await context.close();
      results.push({ rate, floor, app });
    }
  } finally {
    await browser.close();
    await server.stop();
    await fake.close();
  }
  return results;
}

export const scrolledLine = (m: ScrolledMeasure): string =>
  `main thread ${(m.mainThreadMs / 1000).toFixed(2)} s of ${(m.streamMs / 1000).toFixed(1)} s, frame gaps p95 ${m.gapP95.toFixed(1)} / max ${m.gapMax.toFixed(1)} ms, ${m.wheels} wheels, drift max ${m.driftMaxPx.toFixed(1)} px (${m.drifted} moved), a wheel off its delta by ${m.wheelOffMaxPx.toFixed(1)} px at most, scroll ${m.scrollEndPx} / expected ${m.scrollExpectedPx}; the burst's longest frame ${m.burstGapMax.toFixed(1)} ms`;

/** Median and spread of a figure over the runs. */
export function spread(xs: number[], digits = 2): { median: number; text: string } {
  const sorted = [...xs].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  return { median, text: `${median.toFixed(digits)} (${sorted[0]!.toFixed(digits)}-${sorted.at(-1)!.toFixed(digits)})` };
}

/** `runs` runs of every rate (the app built once): the figures by rate, in run order. */
export async function runAppScrolledRuns(runs = 3): Promise<Map<number, ScrolledResult[]>> {
  const byRate = new Map<number, ScrolledResult[]>();
  for (let run = 0; run < runs; run++) {
    for (const r of await runAppScrolled({ build: run === 0 })) byRate.set(r.rate, [...(byRate.get(r.rate) ?? []), r]);
  }
  return byRate;
}

if (import.meta.main) {
  const byRate = await runAppScrolledRuns(Number(process.env.BENCH_RUNS ?? 3));
  for (const [rate, results] of byRate) {
    for (const r of results) console.log(`scrolled away at ${rate} tok/s\n  floor: ${scrolledLine(r.floor)}\n  app:   ${scrolledLine(r.app)}\n  main-thread ratio ${(r.app.mainThreadMs / r.floor.mainThreadMs).toFixed(2)}x`);
    console.log(`at ${rate} tok/s, median (lowest-highest) of ${results.length}: ratio ${spread(results.map((r) => r.app.mainThreadMs / r.floor.mainThreadMs)).text}x; app p95 ${spread(results.map((r) => r.app.gapP95), 1).text} ms, floor p95 ${spread(results.map((r) => r.floor.gapP95), 1).text} ms; drift max ${spread(results.map((r) => r.app.driftMaxPx), 1).text} px`);
  }
}
