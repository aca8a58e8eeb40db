// Where a streamed answer's main-thread time goes (issue 24): streams a 64 KB answer (markdown,
// or plain with BENCH_TRACE_KIND=plain) at 800 tok/s (BENCH_TRACE_RATE) through the built app
// (or the floor page of bench/appStream.ts with BENCH_TRACE_PAGE=floor)
// (built unminified into .tmp/bench-trace-dist) with the DevTools protocol's tracing
// and CPU profiler on, and prints: the main thread's time by kind of work over the stream, the
// JS functions with the most self time, and the ten longest tasks with what they spent it on.
// `node bench/streamTrace.ts`.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { CHROME_ARGS, CHROME_PATH, startServer } from '../tests/e2e/support.ts';
import { startFakeOpenAI } from '../tests/fixtures/fakeOpenAI.ts';
import { generateMarkdown } from './render/generate.ts';
import { FLOOR, FLOOR_HTML, plainText } from './appStream.ts';
import { buildApp } from './initialLoad.ts';

interface TraceEvent { name: string; dur?: number; ts: number; ph: string; tid: number; args?: { data?: { functionName?: string; url?: string; lineNumber?: number }; [key: string]: unknown } }
interface ProfileNode { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }

// Built unminified, so the profile names the app's functions.
const DIST = path.resolve(import.meta.dirname, '../.tmp/bench-trace-dist');
await buildApp(DIST, {}, { minify: false });
writeFileSync(path.join(DIST, 'assets', 'floor.html'), FLOOR_HTML);
writeFileSync(path.join(DIST, 'assets', 'floor.js'), FLOOR);
const floor = process.env.BENCH_TRACE_PAGE === 'floor';
const rate = Number(process.env.BENCH_TRACE_RATE ?? 800);
const kind = process.env.BENCH_TRACE_KIND === 'plain' ? 'plain' : 'markdown';
const fake = await startFakeOpenAI({ models: ['bench'] });
const server = await startServer({ SHELLCHAT_DIST: DIST, MODEL: 'bench', OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'sk', LOG_LEVEL: 'warn' });
const browser = await chromium.launch({ executablePath: CHROME_PATH, headless: true, args: CHROME_ARGS });
const tokens = (kind === 'plain' ? plainText(65536) : generateMarkdown(65536)).match(/[^]{1,4}/g)!;
fake.always({ chunks: tokens, delayMs: 1000 / rate });
const context = await browser.newContext({ viewport: { width: 1024, height: 768 }, serviceWorkers: 'block' });
const page = await context.newPage();
await page.goto(floor ? `${server.url}/assets/floor.html` : server.url);
if (!floor) await page.waitForSelector('[data-testid=input]');
await page.waitForLoadState('networkidle');
// BENCH_TRACE_FOLLOW=1: kept scrolled to the end, as in bench/appStream.ts's following runs.
if (process.env.BENCH_TRACE_FOLLOW) {
  await page.evaluate(() => {
    const follow = () => {
      const s = document.scrollingElement!;
      s.scrollTop = s.scrollHeight;
      requestAnimationFrame(follow);
    };
    requestAnimationFrame(follow);
  });
}
const cdp = await context.newCDPSession(page);
const events: TraceEvent[] = [];
cdp.on('Tracing.dataCollected', (d) => events.push(...(d.value as unknown as TraceEvent[])));
const done = new Promise((r) => cdp.once('Tracing.tracingComplete', r));
await cdp.send('Profiler.enable');
await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
await cdp.send('Tracing.start', { categories: process.env.BENCH_TRACE_INVALIDATIONS ? 'devtools.timeline,disabled-by-default-devtools.timeline,disabled-by-default-devtools.timeline.invalidationTracking' : 'devtools.timeline,disabled-by-default-devtools.timeline', transferMode: 'ReportEvents' });
await cdp.send('Profiler.start');
if (floor) {
  await page.evaluate(() => (window as unknown as { runFloor(s: number): Promise<void> }).runFloor(1_800_000_000_000));
} else {
  await page.getByTestId('input').fill('bench');
  await page.getByTestId('input').press('Enter');
  await page.waitForFunction(() => document.querySelector('.shell')?.getAttribute('data-generating') === 'true');
  await page.waitForFunction(() => document.querySelector('.shell')?.getAttribute('data-generating') === 'false', undefined, { timeout: 120_000 });
}
const { profile } = await cdp.send('Profiler.stop');
await cdp.send('Tracing.end');
await done;

const tasks = events.filter((e) => e.name === 'RunTask' && e.ph === 'X').sort((a, b) => b.dur! - a.dur!);
const tid = tasks[0]!.tid;
const mine = tasks.filter((t) => t.tid === tid);
const ms = (us: number) => (us / 1000).toFixed(0);
console.log(`${floor ? 'floor, ' : ''}${kind} at ${rate} tok/s: ${mine.length} main-thread tasks, ${ms(mine.reduce((s, t) => s + t.dur!, 0))} ms`);

// Time by kind of work: each event's own time (its duration less its direct children's).
const flat = events.filter((e) => e.tid === tid && e.ph === 'X' && e.dur).sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
const self = new Map<string, number>();
const stack: { e: TraceEvent; end: number; children: number }[] = [];
const close = (until: number) => {
  while (stack.length && stack.at(-1)!.end <= until) {
    const top = stack.pop()!;
    self.set(top.e.name, (self.get(top.e.name) ?? 0) + top.e.dur! - top.children);
  }
};
for (const e of flat) {
  close(e.ts);
  if (stack.length) stack.at(-1)!.children += e.dur!;
  stack.push({ e, end: e.ts + e.dur!, children: 0 });
}
close(Infinity);
console.log('self time by kind:', [...self].sort((a, b) => b[1] - a[1]).slice(0, 14).map(([k, v]) => `${k} ${ms(v)}`).join(', '));

// BENCH_TRACE_INVALIDATIONS=1: what invalidated style, most frequent first.
if (process.env.BENCH_TRACE_INVALIDATIONS) {
  const reasons = new Map<string, number>();
  for (const e of events.filter((x) => x.tid === tid && /Style.*Invalidation/.test(x.name))) {
    const d = (e.args?.data ?? {}) as { reason?: string; nodeName?: string; invalidationList?: { classes?: string[]; tagNames?: string[]; attributes?: string[] }[]; extraData?: string };
    const list = d.invalidationList?.map((i) => [...(i.classes ?? []), ...(i.tagNames ?? []), ...(i.attributes ?? [])].join(',')).join(';') ?? '';
    const key = `${e.name} ${d.reason ?? ''} ${d.nodeName ?? ''} ${list} ${d.extraData ?? ''}`.slice(0, 160);
    reasons.set(key, (reasons.get(key) ?? 0) + 1);
  }
  for (const [k, v] of [...reasons].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`  ${String(v).padStart(6)}  ${k}`);
}

// How much each style recalculation and layout touched.
{
  type Args = { elementCount?: number; beginData?: { dirtyObjects?: number; totalObjects?: number } };
  const of = (name: string) => flat.filter((e) => e.name === name).map((e) => e.args as Args | undefined);
  const styles = of('UpdateLayoutTree').map((a) => a?.elementCount ?? 0);
  const layouts = of('Layout').map((a) => a?.beginData?.dirtyObjects ?? 0);
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const sorted = [...styles].sort((a, b) => a - b);
  console.log(`style recalcs' elements: median ${sorted[sorted.length >> 1]}, p90 ${sorted[Math.floor(sorted.length * 0.9)]}, max ${sorted.at(-1)}`);
  console.log(`style recalcs ${styles.length}, ${sum(styles)} elements (${(sum(styles) / (styles.length || 1)).toFixed(0)} each); layouts ${layouts.length}, ${sum(layouts)} dirty objects (${(sum(layouts) / (layouts.length || 1)).toFixed(0)} each)`);
}

// The same by tenth of the stream (a flat cost keeps each tenth's figures alike).
const t0 = mine.reduce((m, t) => Math.min(m, t.ts), Infinity);
const t1 = mine.reduce((m, t) => Math.max(m, t.ts + t.dur!), 0);
const KINDS = ['FunctionCall', 'UpdateLayoutTree', 'Layout', 'PrePaint', 'Paint', 'Layerize', 'Commit'];
const tenths = Array.from({ length: 10 }, () => new Map<string, number>());
for (const e of flat) {
  const tenth = tenths[Math.min(9, Math.floor(((e.ts - t0) / (t1 - t0)) * 10))]!;
  if (KINDS.includes(e.name) || e.name === 'RunTask') tenth.set(e.name, (tenth.get(e.name) ?? 0) + e.dur!);
}
console.log('by tenth (ms, inclusive):', ['RunTask', ...KINDS].join(' / '));
tenths.forEach((m, i) => console.log(`  ${i + 1}: ${['RunTask', ...KINDS].map((k) => ms(m.get(k) ?? 0)).join(' / ')}`));

// JS self time by function (the sampling profiler).
const nodes = new Map(profile.nodes.map((n) => [n.id, n as ProfileNode]));
const hits = new Map<number, number>();
profile.samples!.forEach((id, i) => hits.set(id, (hits.get(id) ?? 0) + (profile.timeDeltas![i] ?? 0)));
const byFn = new Map<string, number>();
for (const [id, us] of hits) {
  const f = nodes.get(id)!.callFrame;
  const key = `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.lineNumber}`;
  byFn.set(key, (byFn.get(key) ?? 0) + us);
}
console.log('JS self time by function:');
for (const [k, v] of [...byFn].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`  ${ms(v).padStart(6)} ms  ${k}`);
// Inclusive time: each sample counts once for every function on its stack.
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const inclusive = new Map<string, number>();
for (const [id, us] of hits) {
  const seen = new Set<string>();
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
    const f = nodes.get(at)!.callFrame;
    if (!f.url) continue;
    const key = `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.lineNumber}`;
    if (seen.has(key)) continue;
    seen.add(key);
    inclusive.set(key, (inclusive.get(key) ?? 0) + us);
  }
}
console.log('JS inclusive time by function:');
// Each function with the module it comes from (the unminified bundle marks them with comments).
const moduleOf = new Map<string, string[]>();
const sourceModule = (url: string, line: number): string => {
  const file = url.split('/').pop()!;
  if (!moduleOf.has(file)) {
    const lines = readFileSync(path.join(DIST, 'assets', file), 'utf8').split('\n');
    let current = '';
    moduleOf.set(file, lines.map((l) => (current = l.startsWith('// ') && /^\/\/ (node_modules|src)\//.test(l) ? l.slice(3) : current)));
  }
  return moduleOf.get(file)![line] ?? '';
};
const urlOf = new Map<string, { url: string; line: number }>();
for (const n of profile.nodes) if (n.callFrame.url) urlOf.set(`${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber}`, { url: n.callFrame.url, line: n.callFrame.lineNumber });
for (const [k, v] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.BENCH_TRACE_TOP ?? 40))) {
  const at = urlOf.get(k);
  let where = '';
  try {
    where = at ? sourceModule(at.url, at.line) : '';
  } catch {
    // a script of the page's own (the floor's), not in the build
  }
  console.log(`  ${ms(v).padStart(6)} ms  ${k}  ${where.replace(/^node_modules\//, '')}`);
}

console.log('longest tasks:');
for (const task of mine.slice(0, 10)) {
  const inside = events.filter((e) => e.tid === tid && e.ph === 'X' && e.ts >= task.ts && e.ts + (e.dur ?? 0) <= task.ts + task.dur! && e !== task);
  const by = new Map<string, number>();
  for (const e of inside) by.set(e.name, (by.get(e.name) ?? 0) + (e.dur ?? 0) / 1000);
  const fn = inside.find((e) => e.name === 'FunctionCall')?.args?.data;
  console.log(' ', (task.dur! / 1000).toFixed(1), 'ms', [...by].sort((a, b) => b[1] - a[1]).slice(0, 6).map(([k, v]) => `${k} ${v.toFixed(1)}`).join(', '), fn ? `${fn.functionName} ${fn.url?.split('/').pop()}:${fn.lineNumber}` : '');
}
await browser.close();
await server.stop();
await fake.close();
