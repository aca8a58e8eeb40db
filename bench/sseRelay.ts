// Benchmark B5: the server's CPU per relayed token, beside a bare node:http relay of the same
// fake stream measured in the same run, and how fast a client disconnect reaches upstream.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../tests/e2e/support.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../tests/fixtures/fakeOpenAI.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const TOKENS = 1000;
const STREAMS = 60;
const CONCURRENCY = 8;

/** CPU seconds (user + system) a process has used, from /proc (Linux). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return ticks / 100;
}

async function startProcess(script: string, env: Record<string, string>, readyPath: string, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, [script], { cwd: ROOT, env: { ...process.env, ...env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.resume();
  child.stderr!.resume();
  for (let i = 0; i < 200; i++) {
    try {
      const r = await fetch(`http://127.0.0.1:${port}${readyPath}`, { method: readyPath === '/' ? 'POST' : 'GET', body: readyPath === '/' ? 'x' : undefined });
      await r.arrayBuffer();
      if (r.ok) return child;
    } catch {
      // not yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${script} did not start`);
}

async function consume(url: string, body: unknown, onText?: (text: string) => void): Promise<void> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    onText?.(decoder.decode(value, { stream: true }));
  }
}

async function runStreams(url: string, body: (i: number) => unknown, onText?: (text: string) => void): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < STREAMS) await consume(url, body(next++), onText);
    }),
  );
}

async function measure(child: ChildProcess, run: () => Promise<void>): Promise<number> {
  // Two rounds: the first warms up (JIT, connection pools), the second is measured.
  await run();
  const before = cpuSeconds(child.pid!);
  await run();
  return ((cpuSeconds(child.pid!) - before) * 1e6) / (STREAMS * TOKENS);
}

async function abortPropagation(url: string, fake: FakeOpenAI, streams: number): Promise<{ aborted: number; maxMs: number }> {
  fake.always({ chunks: Array.from({ length: 200 }, (_, i) => `w${i} `), delayMs: 20 });
  const before = fake.aborted();
  const controllers = Array.from({ length: streams }, () => new AbortController());
  await Promise.all(
    controllers.map(async (abort, i) => {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ session: 1_800_000_100_000 + i, user_input: 'x' }),
        signal: abort.signal,
      });
      const reader = response.body!.getReader();
      await reader.read();
      await reader.read();
    }),
  );
  const started = performance.now();
  for (const c of controllers) c.abort();
  while (fake.aborted() - before < streams && performance.now() - started < 2000) await new Promise((r) => setTimeout(r, 2));
  return { aborted: fake.aborted() - before, maxMs: performance.now() - started };
}

/**
 * Added latency under load: `streams` concurrent streams of paced tokens (every `paceMs`); each
 * gap between two text events beyond the pace is latency the relay added. Reports the p99.
 */
async function addedLatency(url: string, fake: FakeOpenAI, streams: number, tokens: number, paceMs: number, body: (i: number) => unknown): Promise<number> {
  fake.always({ chunks: Array.from({ length: tokens }, (_, i) => `w${i} `), delayMs: paceMs });
  const extra: number[] = [];
  await Promise.all(
    Array.from({ length: streams }, async (_, i) => {
      const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body(i)) });
      const reader = response.body!.getReader();
      const decoder = new TextDecoder();
      let last = 0;
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        const now = performance.now();
        const events = (decoder.decode(value, { stream: true }).match(/"delta"|data: \{"choices"/g) ?? []).length;
        if (events && last) extra.push(Math.max(0, now - last - paceMs * events));
        if (events) last = now;
      }
    }),
  );
  extra.sort((a, b) => a - b);
  return extra[Math.floor(extra.length * 0.99)] ?? 0;
}

export async function runSseRelay(): Promise<{
  appUs: number;
  bareUs: number;
  ratio: number;
  abort: { aborted: number; maxMs: number; streams: number };
  latency: { streams: number; appP99: number; bareP99: number };
}> {
  const fake = await startFakeOpenAI({ models: ['bench'] });
  const tokens = Array.from({ length: TOKENS }, (_, i) => `t${i} `);
  fake.always({ chunks: tokens });
  const [appPort, barePort] = [await freePort(), await freePort()];
  const app = await startProcess(
    path.join(ROOT, 'src/server/main.ts'),
    { MODEL: 'bench', OPENAI_BASE_URL: fake.url, DATA_DIR: mkdtempSync(path.join(tmpdir(), 'shellchat-bench-')), LOG_LEVEL: 'warn', SHELLCHAT_DIST: '/nonexistent' },
    '/api/ping',
    appPort,
  );
  const bare = await startProcess(path.join(ROOT, 'bench/bareRelay.ts'), { UPSTREAM: fake.url }, '/', barePort);
  try {
    const appUrl = `http://127.0.0.1:${appPort}/api/generate_sse`;
    const bareUs = await measure(bare, () => runStreams(`http://127.0.0.1:${barePort}/`, () => 'hello'));
    // A new session per stream: the bench client has no cookies, so it owns nothing it made before.
    let session = 1_800_000_000_000;
    let received = 0;
    const appUs = await measure(app, () =>
      runStreams(appUrl, () => ({ session: session++, user_input: 'hello', mem_length: 0 }), (text) => (received += (text.match(/event: text/g) ?? []).length)),
    );
    if (received < 2 * STREAMS) throw new Error(`the app relayed only ${received} text events`);
    const abort = { ...(await abortPropagation(appUrl, fake, 100)), streams: 100 };
    const streams = Number(process.env.BENCH_STREAMS ?? 300);
    const appP99 = await addedLatency(appUrl, fake, streams, 100, 20, () => ({ session: session++, user_input: 'x', mem_length: 0 }));
    const bareP99 = await addedLatency(`http://127.0.0.1:${barePort}/`, fake, streams, 100, 20, () => 'x');
    return { appUs, bareUs, ratio: appUs / bareUs, abort, latency: { streams, appP99, bareP99 } };
  } finally {
    app.kill('SIGKILL');
    bare.kill('SIGKILL');
    await fake.close();
  }
}

if (import.meta.main) {
  const r = await runSseRelay();
  console.log(`SSE relay: ${r.appUs.toFixed(1)} µs CPU per token vs bare relay ${r.bareUs.toFixed(1)} µs: ${r.ratio.toFixed(2)}x`);
  console.log(`abort: ${r.abort.aborted}/${r.abort.streams} upstream requests closed within ${r.abort.maxMs.toFixed(0)} ms`);
  console.log(`added latency at ${r.latency.streams} streams of 50 tok/s: p99 ${r.latency.appP99.toFixed(1)} ms (bare relay ${r.latency.bareP99.toFixed(1)} ms)`);
}
