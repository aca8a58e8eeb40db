// Where a streamed answer's longest frames go (issue 24): streams a 64 KB markdown answer at
// 800 tok/s through the built app (bench/appStream.ts builds it into .tmp/bench-app-dist) with
// the DevTools protocol's tracing on, and prints the ten longest main-thread tasks with what
// they spent their time on. `node bench/streamTrace.ts` after a run of bench/appStream.ts.
import path from 'node:path';
import { chromium } from 'playwright-core';
import { CHROME_ARGS, CHROME_PATH, startServer } from '../tests/e2e/support.ts';
import { startFakeOpenAI } from '../tests/fixtures/fakeOpenAI.ts';
import { generateMarkdown } from './render/generate.ts';
const DIST = path.resolve(import.meta.dirname, '../.tmp/bench-app-dist');
const fake = await startFakeOpenAI({ models: ['bench'] });
const server = await startServer({ SHELLCHAT_DIST: DIST, MODEL: 'bench', OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'sk', LOG_LEVEL: 'warn' });
const browser = await chromium.launch({ executablePath: CHROME_PATH, headless: true, args: CHROME_ARGS });
const tokens = generateMarkdown(65536).match(/[^]{1,4}/g)!;
fake.always({ chunks: tokens, delayMs: 1000 / 800 });
const context = await browser.newContext({ viewport: { width: 1024, height: 768 }, serviceWorkers: 'block' });
const page = await context.newPage();
await page.goto(server.url);
await page.waitForSelector('[data-testid=input]');
const cdp = await context.newCDPSession(page);
const events: { name: string; dur?: number; ts: number; ph: string; tid: number; args?: { data?: { functionName?: string; url?: string; lineNumber?: number } } }[] = [];
cdp.on('Tracing.dataCollected', (d) => events.push(...(d.value as never[])));
const done = new Promise((r) => cdp.once('Tracing.tracingComplete', r));
await cdp.send('Tracing.start', { categories: 'devtools.timeline,disabled-by-default-devtools.timeline', transferMode: 'ReportEvents' });
await page.getByTestId('input').fill('bench');
await page.getByTestId('input').press('Enter');
await page.waitForFunction(() => document.querySelector('.shell')?.getAttribute('data-generating') === 'true');
await page.waitForFunction(() => document.querySelector('.shell')?.getAttribute('data-generating') === 'false', undefined, { timeout: 60_000 });
await cdp.send('Tracing.end');
await done;
const main = events.filter((e) => e.name === 'RunTask' && e.ph === 'X').sort((a, b) => b.dur! - a.dur!);
const tid = main[0]!.tid;
for (const task of main.filter((t) => t.tid === tid).slice(0, 10)) {
  const inside = events.filter((e) => e.tid === tid && e.ph === 'X' && e.ts >= task.ts && e.ts + (e.dur ?? 0) <= task.ts + task.dur! && e !== task);
  const by = new Map<string, number>();
  for (const e of inside) by.set(e.name, (by.get(e.name) ?? 0) + (e.dur ?? 0) / 1000);
  const fn = inside.find((e) => e.name === 'FunctionCall')?.args?.data;
  console.log((task.dur! / 1000).toFixed(1), 'ms', [...by].sort((a, b) => b[1] - a[1]).slice(0, 6).map(([k, v]) => `${k} ${v.toFixed(1)}`).join(', '), fn ? `${fn.functionName} ${fn.url?.split('/').pop()}:${fn.lineNumber}` : '');
}
await browser.close(); await server.stop(); await fake.close();
