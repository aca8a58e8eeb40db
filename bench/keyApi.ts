// Benchmark B9 (issue 36): the OpenAI-compatible API. The same fake stream, in the same run,
// through POST /v1/chat/completions with a key, through the page's /api/generate_sse with a
// login, and straight from the fake provider: the server's CPU per token of /v1 beside the page
// path's, the first token's added wait beside the provider's own (p50), and 200 streams at once
// through /v1 with no error. The server runs in its own process (bench/cpuProbe.ts reads its CPU).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../tests/e2e/support.ts';
import { startFakeOpenAI } from '../tests/fixtures/fakeOpenAI.ts';
import { median, probe, startProcess, UNCAPPED } from './sseRelay.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const TOKENS = Number(process.env.BENCH_KEY_TOKENS ?? 500);
const STREAMS = Number(process.env.BENCH_KEY_STREAMS ?? 24);
const CONCURRENCY = 6;
const ROUNDS = 5;
const FIRST_TOKEN_SAMPLES = 40;
const AT_ONCE = Number(process.env.BENCH_KEY_AT_ONCE ?? 200);

export interface KeyApiResult {
  tokens: number;
  streams: number;
  /** Server CPU µs per token, medians of the rounds, and the median of the rounds' ratios. */
  v1Us: number;
  pageUs: number;
  ratio: number;
  ratios: number[];
  /** First content token, ms from the request (p50): straight from the provider, through /v1, through the page. */
  firstDirect: number;
  firstV1: number;
  firstPage: number;
  concurrent: { streams: number; errors: number; complete: number; seconds: number };
}

/** Reads a stream to its end; the ms to the first chunk that holds `marker`, and whether `done` came. */
async function read(url: string, headers: Record<string, string>, body: unknown, marker: string, done: string): Promise<{ firstMs: number; ok: boolean }> {
  const started = performance.now();
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  if (!response.ok) {
    await response.arrayBuffer();
    return { firstMs: Number.NaN, ok: false };
  }
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let firstMs = Number.NaN;
  let tail = '';
  for (;;) {
    const { value, done: ended } = await reader.read();
    if (ended) break;
    const text = decoder.decode(value, { stream: true });
    if (Number.isNaN(firstMs) && text.includes(marker)) firstMs = performance.now() - started;
    tail = (tail + text).slice(-200);
  }
  return { firstMs, ok: tail.includes(done) };
}

export async function runKeyApi(): Promise<KeyApiResult> {
  const fake = await startFakeOpenAI({ models: ['bench'] });
  const port = await freePort();
  const app = await startProcess(
    path.join(ROOT, 'src/server/main.ts'),
    { MODEL: 'bench', OPENAI_BASE_URL: fake.url, DATA_DIR: mkdtempSync(path.join(tmpdir(), 'shellchat-bench-key-')), LOG_LEVEL: 'warn', SHELLCHAT_DIST: '/nonexistent', ROOT_PASSWORD: 'bench-root-password', ...UNCAPPED },
    '/api/ping',
    port,
  );
  const base = `http://127.0.0.1:${port}`;
  try {
    // Root's login for the page path, and a key of root's for /v1: the same account, the same limits (none).
    const login = await fetch(`${base}/api/user/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'root', password: 'bench-root-password' }) });
    const cookie = login.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
    const made = await fetch(`${base}/api/key/add`, { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'bench', no_log: false }) });
    const key = ((await made.json()) as { result: { key: string } }).result.key;

    let session = 1_800_000_000_000;
    type Path = { url: string; headers: Record<string, string>; body: () => unknown; marker: string; done: string };
    const paths: Record<'v1' | 'page' | 'direct', Path> = {
      v1: { url: `${base}/v1/chat/completions`, headers: { authorization: `Bearer ${key}` }, body: () => ({ model: 'bench', stream: true, messages: [{ role: 'user', content: 'hello' }] }), marker: '"content":"t', done: '[DONE]' },
      page: { url: `${base}/api/generate_sse`, headers: { cookie }, body: () => ({ session: session++, user_input: 'hello', mem_length: 0 }), marker: 'event: text', done: 'event: done' },
      direct: { url: `${fake.url}/chat/completions`, headers: {}, body: () => ({ model: 'bench', stream: true, messages: [{ role: 'user', content: 'hello' }] }), marker: '"content":"t', done: '[DONE]' },
    };
    const run = async (p: Path, n: number, concurrency: number) => {
      let next = 0;
      const results: { firstMs: number; ok: boolean }[] = [];
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (next++ < n) results.push(await read(p.url, p.headers, p.body(), p.marker, p.done));
        }),
      );
      if (results.some((r) => !r.ok)) throw new Error(`${p.url}: ${results.filter((r) => !r.ok).length} streams failed`);
      return results;
    };

    // CPU per token: alternating rounds after a warm-up of each, so both see the machine alike.
    fake.always({ chunks: Array.from({ length: TOKENS }, (_, i) => `t${i} `) });
    await run(paths.v1, CONCURRENCY, CONCURRENCY);
    await run(paths.page, CONCURRENCY, CONCURRENCY);
    const us: Record<'v1' | 'page', number[]> = { v1: [], page: [] };
    const ratios: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      for (const name of ['v1', 'page'] as const) {
        const before = (await probe(app)).cpu;
        await run(paths[name], STREAMS, CONCURRENCY);
        us[name].push(((await probe(app)).cpu - before) / (STREAMS * TOKENS));
      }
      ratios.push(us.v1.at(-1)! / us.page.at(-1)!);
    }

    // First token: one stream at a time, short answers, the three paths in turn.
    fake.always({ chunks: ['t0 ', 't1 ', 't2 '] });
    const first: Record<'v1' | 'page' | 'direct', number[]> = { v1: [], page: [], direct: [] };
    for (let i = 0; i < FIRST_TOKEN_SAMPLES; i++) {
      for (const name of ['direct', 'v1', 'page'] as const) first[name].push((await run(paths[name], 1, 1))[0]!.firstMs);
    }

    // 200 streams at once through /v1, each 50 tokens paced at 20 ms.
    fake.always({ chunks: Array.from({ length: 50 }, (_, i) => `t${i} `), delayMs: 20, phaseMs: 20 });
    const started = performance.now();
    const all = await Promise.all(Array.from({ length: AT_ONCE }, () => read(paths.v1.url, paths.v1.headers, paths.v1.body(), paths.v1.marker, paths.v1.done).catch(() => ({ firstMs: Number.NaN, ok: false }))));
    const seconds = (performance.now() - started) / 1000;
    const complete = all.filter((r) => r.ok).length;

    return {
      tokens: TOKENS,
      streams: STREAMS,
      v1Us: median(us.v1),
      pageUs: median(us.page),
      ratio: median(ratios),
      ratios,
      firstDirect: median(first.direct),
      firstV1: median(first.v1),
      firstPage: median(first.page),
      concurrent: { streams: AT_ONCE, errors: AT_ONCE - complete, complete, seconds },
    };
  } finally {
    app.kill();
    await fake.close();
  }
}

// `node bench/keyApi.ts` runs it alone.
if (import.meta.main) {
  console.log(JSON.stringify(await runKeyApi(), null, 2));
  process.exit(0);
}
