// B1 in the real app (issue 24): the built SPA served by the real server, the real chat client,
// a fake OpenAI-format provider streaming a 64 KB answer (rich markdown, or plain paragraphs)
// at 800 and at 2,000 tokens a second, in Chromium. Beside it in the same browser, the floor:
// a bare page on the same origin (served from the build's assets) that reads the same
// /api/generate_sse stream and appends only the new text once per animation frame, as plain
// paragraphs. Measured while it streams: main-thread time (the DevTools protocol's
// TaskDuration), the gaps between animation frames (p95, max), and how long a key typed
// meanwhile waits for the next frame (p95).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROME_ARGS, CHROME_PATH, startServer } from '../tests/e2e/support.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../tests/fixtures/fakeOpenAI.ts';
import { buildApp } from './initialLoad.ts';
import { generateMarkdown, lcg } from './render/generate.ts';

export const DIST = path.resolve(import.meta.dirname, '../.tmp/bench-app-dist');

/** The floor: the stream's text appended once per frame, as paragraphs, nothing else. */
export const FLOOR_HTML = '<!doctype html><meta charset="utf-8"><title>floor</title><input id="key" autofocus><div id="out"></div><script src="floor.js"></script>';
/** Its script in a file of its own: the app's CSP (script-src 'self') refuses inline scripts. */
export const FLOOR = `window.runFloor = async (session) => {
  const res = await fetch('/api/generate_sse', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ session, user_input: 'bench', mem_length: 0 }) });
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  const out = document.getElementById('out');
  let p = out.appendChild(document.createElement('p'));
  let buffer = '', pending = '', scheduled = false;
  const flush = () => {
    scheduled = false;
    const parts = pending.split('\\n\\n');
    pending = '';
    p.append(parts[0]);
    for (const part of parts.slice(1)) { p = out.appendChild(document.createElement('p')); p.append(part); }
  };
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    for (let at = buffer.indexOf('\\n\\n'); at >= 0; at = buffer.indexOf('\\n\\n')) {
      const event = buffer.slice(0, at);
      buffer = buffer.slice(at + 2);
      if (!event.startsWith('event: text')) continue;
      pending += JSON.parse(event.slice(event.indexOf('data: ') + 6)).delta;
      if (!scheduled) { scheduled = true; requestAnimationFrame(flush); }
    }
  }
  flush();
};
`;

/** Both pages: every animation frame's time, and each key's wait for the next frame. With
 *  __follow set, the page is kept scrolled to its end each frame, as a person reading the
 *  answer as it comes (holding End): the new text is then always on screen. */
export const PROBE = `
window.__frames = [];
window.__follow = false;
const frame = (t) => {
  window.__frames.push(t);
  if (window.__follow) { const s = document.scrollingElement; s.scrollTop = s.scrollHeight; }
  requestAnimationFrame(frame);
};
requestAnimationFrame(frame);
window.__keys = [];
document.addEventListener('keydown', (e) => { const at = e.timeStamp; requestAnimationFrame((t) => window.__keys.push(t - at)); }, true);
`;

/** 64 KB of plain paragraphs (the same words as the markdown, no markup). */
export function plainText(bytes: number): string {
  const rand = lcg(11);
  const words = ['model', 'token', 'stream', 'answer', 'prompt', 'context', 'session', 'render', 'server', 'client'];
  const paragraphs: string[] = [];
  let size = 0;
  while (size < bytes) {
    const n = 40 + Math.floor(rand() * 40);
    const p = Array.from({ length: n }, () => words[Math.floor(rand() * words.length)]).join(' ') + '.';
    paragraphs.push(p);
    size += p.length + 2;
  }
  return paragraphs.join('\n\n').slice(0, bytes);
}

/** ~4 characters a token, as providers' tokens average in English. */
export const tokensOf = (text: string) => text.match(/[^]{1,4}/g) ?? [];

export interface StreamMeasure {
  mainThreadMs: number;
  streamMs: number;
  gapP95: number;
  gapMax: number;
  keyP95: number;
  /** Main-thread time in the last tenth of the stream over the first tenth (the stream is
   *  paced, so each tenth brings as many tokens): 1 when a token costs the same at the end. */
  lastOverFirst: number;
}

export const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)] ?? 0;

/** The main-thread time between two moments, from (time, busy) samples taken along the way. */
function busyBetween(samples: [number, number][], from: number, to: number): number {
  const at = (t: number) => {
    const i = samples.findIndex(([time]) => time >= t);
    if (i <= 0) return i === 0 ? samples[0]![1] : samples.at(-1)![1];
    const [t0, b0] = samples[i - 1]!;
    const [t1, b1] = samples[i]!;
    return b0 + ((b1 - b0) * (t - t0)) / (t1 - t0 || 1);
  };
  return at(to) - at(from);
}

async function measure(page: Page, start: () => Promise<void>, finished: () => Promise<boolean>, follow: boolean): Promise<StreamMeasure> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const busy = async () => ((await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'TaskDuration')?.value ?? 0) * 1000;
  await page.evaluate((f) => {
    (window as unknown as { __frames: number[] }).__frames.length = 0;
    (window as unknown as { __keys: number[] }).__keys.length = 0;
    (window as unknown as { __follow: boolean }).__follow = f;
  }, follow);
  const before = await busy();
  const began = performance.now();
  await start();
  const samples: [number, number][] = [[0, 0]];
  // A key every 250 ms while it streams, as a person typing the next question.
  while (!(await finished())) {
    await page.keyboard.press('a');
    await new Promise((r) => setTimeout(r, 250));
    samples.push([performance.now() - began, (await busy()) - before]);
  }
  const streamMs = performance.now() - began;
  const mainThreadMs = (await busy()) - before;
  samples.push([streamMs, mainThreadMs]);
  const lastOverFirst = busyBetween(samples, streamMs * 0.9, streamMs) / busyBetween(samples, 0, streamMs * 0.1);
  const { frames, keys } = await page.evaluate(() => ({ frames: (window as unknown as { __frames: number[] }).__frames, keys: (window as unknown as { __keys: number[] }).__keys }));
  const gaps = frames.slice(1).map((t, i) => t - frames[i]!);
  await cdp.detach();
  return { mainThreadMs, streamMs, gapP95: p95(gaps), gapMax: Math.max(0, ...gaps), keyP95: p95(keys), lastOverFirst };
}

export interface AppStreamResult {
  rate: number;
  kind: 'markdown' | 'plain';
  /** The page kept scrolled to the answer's end while it streams. */
  follow: boolean;
  floor: StreamMeasure;
  app: StreamMeasure;
}

export async function runAppStream(options: { rates?: number[]; bytes?: number } = {}): Promise<AppStreamResult[]> {
  const rates = options.rates ?? [800, 2000];
  const bytes = options.bytes ?? 64 * 1024;
  await buildApp(DIST);
  mkdirSync(path.join(DIST, 'assets'), { recursive: true });
  writeFileSync(path.join(DIST, 'assets', 'floor.html'), FLOOR_HTML);
  writeFileSync(path.join(DIST, 'assets', 'floor.js'), FLOOR);
  const fake: FakeOpenAI = await startFakeOpenAI({ models: ['bench'] });
  const server = await startServer({ SHELLCHAT_DIST: DIST, MODEL: 'bench', OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'sk-bench', LOG_LEVEL: 'warn' });
  const browser: Browser = await chromium.launch({ executablePath: CHROME_PATH, headless: true, args: CHROME_ARGS });
  const results: AppStreamResult[] = [];
  let session = 1_800_000_000_000;
  try {
    const scenarios = [
      { kind: 'markdown', follow: false },
      { kind: 'markdown', follow: true },
      { kind: 'plain', follow: false },
    ] as const;
    for (const { kind, follow } of scenarios) {
      const tokens = tokensOf(kind === 'markdown' ? generateMarkdown(bytes) : plainText(bytes));
      for (const rate of rates) {
        fake.always({ chunks: tokens, delayMs: 1000 / rate });
        const context = await browser.newContext({ viewport: { width: 1024, height: 768 }, serviceWorkers: 'block' });
        await context.addInitScript(PROBE);
        const floorPage = await context.newPage();
        await floorPage.goto(`${server.url}/assets/floor.html`);
        await floorPage.focus('#key');
        let floorDone = false;
        const floor = await measure(
          floorPage,
          async () =>
            void floorPage
              .evaluate((s) => (window as unknown as { runFloor(s: number): Promise<void> }).runFloor(s), session++)
              // A failure ends the wait too (and the run reports it), never an unhandled rejection that leaves the server running.
              .then(() => (floorDone = true), (err: unknown) => ((floorDone = true), console.error('floor failed:', err))),
          async () => floorDone,
          follow,
        );
        await floorPage.close();
        const appPage = await context.newPage();
        await appPage.goto(server.url);
        await appPage.waitForSelector('[data-testid=input]');
        // As a person's first question comes: after the page loaded what it loads when idle.
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
          follow,
        );
        await context.close();
        results.push({ rate, kind, follow, floor, app });
      }
    }
  } finally {
    await browser.close();
    await server.stop();
    await fake.close();
  }
  return results;
}

if (import.meta.main) {
  for (const r of await runAppStream()) {
    const line = (m: StreamMeasure) => `main thread ${(m.mainThreadMs / 1000).toFixed(2)} s of ${(m.streamMs / 1000).toFixed(1)} s, frame gaps p95 ${m.gapP95.toFixed(1)} / max ${m.gapMax.toFixed(1)} ms, key p95 ${m.keyP95.toFixed(1)} ms, last/first tenth ${m.lastOverFirst.toFixed(2)}x`;
    console.log(`${r.kind}${r.follow ? ', following its end' : ''} at ${r.rate} tok/s\n  floor: ${line(r.floor)}\n  app:   ${line(r.app)}\n  main-thread ratio ${(r.app.mainThreadMs / r.floor.mainThreadMs).toFixed(2)}x`);
  }
}
