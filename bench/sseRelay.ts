// Benchmark B5: the server's CPU per relayed token, beside a bare node:http relay of the same
// fake stream measured in the same run, and how fast a client disconnect reaches upstream.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../tests/e2e/support.ts';
import { pacedStreams } from './pacedStreams.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../tests/fixtures/fakeOpenAI.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const TOKENS = Number(process.env.BENCH_TOKENS ?? 1000);
const STREAMS = Number(process.env.BENCH_NSTREAMS ?? 60);
const CONCURRENCY = 8;

let probes = 0;
/**
 * A measured process's CPU time (µs, all threads) and resident memory, from bench/cpuProbe.ts.
 * Replies are matched to requests by id. Taking the next message instead let two requests in
 * flight at once (the RSS sampler's and a round's) answer both with the first reply and leave
 * the second for a later request: the first memory reading of the slow-client phase was then a
 * stale, uncollected one (up to 53 MB too high), and a round's CPU could start from an old
 * reading.
 */
export function probe(child: ChildProcess, what: 'cpu' | 'heap' = 'cpu'): Promise<{ cpu: number; rss: number; heap: number }> {
  const id = ++probes;
  return new Promise((resolve) => {
    const onMessage = (m: unknown) => {
      if ((m as { id?: number }).id !== id) return;
      child.off('message', onMessage);
      resolve(m as { cpu: number; rss: number; heap: number });
    };
    child.on('message', onMessage);
    child.send({ id, what });
  });
}

export async function startProcess(script: string, env: Record<string, string>, readyPath: string, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--expose-gc', '--import', path.join(ROOT, 'bench/cpuProbe.ts'), script], {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
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

const ROUNDS = 5;
/** Paced rounds take ~11 s each, five of each kind: the CPU rounds (relays at once) and the latency rounds (each alone, ±20% from one to the next). */
const PACED_ROUNDS = Number(process.env.BENCH_PACED_ROUNDS ?? 5);

/** µs of CPU per token over one run of streams. */
async function cpuPerToken(child: ChildProcess, run: () => Promise<void>, tokens: number): Promise<number> {
  const before = (await probe(child)).cpu;
  await run();
  return ((await probe(child)).cpu - before) / tokens;
}

/**
 * The load comes from one machine, hundreds of streams from one address (and B8's users through
 * one proxy): the caps on answers in flight (MAX_ANSWERS_PER_*) would refuse most of it.
 */
export const UNCAPPED = { MAX_ANSWERS_PER_USER: '0', MAX_ANSWERS_PER_VISITOR: '0', MAX_ANSWERS_PER_ADDRESS: '0' };

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/**
 * The relays in alternating rounds after a warm-up round each (JIT, connection pools), so that
 * a noisy moment of the machine falls on all of them; the median round of each is reported.
 */
async function measureRounds(relays: { child: ChildProcess; run: () => Promise<void> }[], tokens: number): Promise<number[]> {
  for (const r of relays) await r.run();
  const us: number[][] = relays.map(() => []);
  for (let i = 0; i < ROUNDS; i++) {
    for (const [k, r] of relays.entries()) us[k]!.push(await cpuPerToken(r.child, r.run, tokens));
  }
  return us.map(median);
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

interface PerRelay {
  direct: number;
  bare: number;
  core: number;
  app: number;
}

export interface SseRelayResult {
  /** Burst: streams of 1,000 tokens written as fast as the fake provider can. */
  burst: { appUs: number; bareUs: number; coreUs: number; ratio: number };
  /**
   * Paced: concurrent streams at 50 tokens/s, one token per network packet. CPU (µs per token,
   * and the median of the rounds' ratios) with the three relays streaming at once, `cpuStreams`
   * each; `alone` is each relay's CPU in the latency rounds, `streams` to it alone. p99s in ms,
   * each by way of: the provider itself, the bare relay, the relay core, shellchat.
   */
  paced: {
    streams: number;
    cpuStreams: number;
    appUs: number;
    bareUs: number;
    coreUs: number;
    ratio: number;
    ratios: number[];
    alone: { appUs: number; bareUs: number; coreUs: number; ratio: number };
    gapP99: PerRelay;
    latencyP99: PerRelay;
    appRssMb: number;
  };
  /** The target's 1,000 streams, once each (ms): p99 latency and gap, first token p50 and p99. */
  atTarget: { streams: number } & Partial<Record<'direct' | 'bare' | 'app', Awaited<ReturnType<typeof pacedStreams>>[number]>>;
  abort: { aborted: number; maxMs: number; streams: number };
  slowClients: { streams: number; unfinished: boolean; heldMb: number; releasedMb: number; heldKbPerStream: number; growthKbPerStream: number };
}

export async function runSseRelay(): Promise<SseRelayResult> {
  const fake = await startFakeOpenAI({ models: ['bench'] });
  const [appPort, barePort] = [await freePort(), await freePort()];
  const app = await startProcess(
    path.join(ROOT, 'src/server/main.ts'),
    { MODEL: 'bench', OPENAI_BASE_URL: fake.url, DATA_DIR: mkdtempSync(path.join(tmpdir(), 'shellchat-bench-')), LOG_LEVEL: 'warn', SHELLCHAT_DIST: '/nonexistent', ...UNCAPPED },
    '/api/ping',
    appPort,
  );
  const bare = await startProcess(path.join(ROOT, 'bench/bareRelay.ts'), { UPSTREAM: fake.url }, '/', barePort);
  const corePort = await freePort();
  const core = await startProcess(path.join(ROOT, 'bench/coreRelay.ts'), { UPSTREAM: fake.url }, '/', corePort);
  try {
    const appUrl = `http://127.0.0.1:${appPort}/api/generate_sse`;
    const bareUrl = `http://127.0.0.1:${barePort}/`;
    const coreUrl = `http://127.0.0.1:${corePort}/`;
    // A new session per stream: the bench client has no cookies, so it owns nothing it made before.
    let session = 1_800_000_000_000;
    const appBody = () => ({ session: session++, user_input: 'hello', mem_length: 0 });

    fake.always({ chunks: Array.from({ length: TOKENS }, (_, i) => `t${i} `) });
    let received = 0;
    const [bareBurst, coreBurst, appBurst] = await measureRounds(
      [
        { child: bare, run: () => runStreams(bareUrl, () => 'hello') },
        { child: core, run: () => runStreams(coreUrl, () => 'hello') },
        { child: app, run: () => runStreams(appUrl, appBody, (text) => (received += (text.match(/event: text/g) ?? []).length)) },
      ],
      STREAMS * TOKENS,
    );
    const burst = { appUs: appBurst!, bareUs: bareBurst!, coreUs: coreBurst! };
    if (received < 2 * STREAMS) throw new Error(`the app relayed only ${received} text events`);

    const streams = Number(process.env.BENCH_STREAMS ?? 300);
    const pacedTokens = Number(process.env.BENCH_PACED_TOKENS ?? 500);
    const directBody = () => ({ model: 'bench', stream: true, messages: [{ role: 'user', content: 'x' }] });
    const relays = { bare: { child: bare, url: bareUrl, body: () => 'x' }, core: { child: core, url: coreUrl, body: () => 'x' }, app: { child: app, url: appUrl, body: appBody } };

    // CPU per token: the three relays at once, the same streams to each, so that each round
    // finds the machine in the same state for all of them. Measured one after the other, a
    // round differed from the next by up to ±20% (the bare relay most) and the ratio of the
    // medians ranged 1.07-1.53x over nine runs; at once, a round's ratio varies by a few
    // percent. Each relay gets a third of the load the latency rounds give it alone.
    const cpuStreams = Number(process.env.BENCH_CPU_STREAMS ?? Math.round(streams / 3));
    const together: Record<keyof typeof relays, number[]> & { ratio: number[] } = { bare: [], core: [], app: [], ratio: [] };
    for (let i = 0; i < PACED_ROUNDS; i++) {
      const order = Object.values(relays);
      const before = await Promise.all(order.map((r) => probe(r.child)));
      await pacedStreams(order, fake, cpuStreams, pacedTokens, 20);
      const after = await Promise.all(order.map((r) => probe(r.child)));
      const us = order.map((_, k) => (after[k]!.cpu - before[k]!.cpu) / (cpuStreams * pacedTokens));
      together.bare.push(us[0]!);
      together.core.push(us[1]!);
      together.app.push(us[2]!);
      together.ratio.push(us[2]! / us[0]!);
    }

    // Latency: each relay alone under the full load, in alternating rounds, beside a client
    // talking to the provider itself. Their CPU is reported too, as measured alone.
    const pacedRun = async (child: ChildProcess | undefined, url: string, body: (i: number) => unknown) => {
      const before = child ? (await probe(child)).cpu : 0;
      const [p99] = await pacedStreams([{ url, body }], fake, streams, pacedTokens, 20);
      return { ...p99!, us: child ? ((await probe(child)).cpu - before) / (streams * pacedTokens) : 0 };
    };
    const runs: Record<'direct' | 'bare' | 'core' | 'app', Awaited<ReturnType<typeof pacedRun>>[]> = { direct: [], bare: [], core: [], app: [] };
    let peakRss = 0;
    const sampler = setInterval(() => void probe(app).then((p) => (peakRss = Math.max(peakRss, p.rss))), 250);
    for (let i = 0; i < PACED_ROUNDS; i++) {
      // What a client talking to the provider itself sees, in the same rounds.
      runs.direct.push(await pacedRun(undefined, `${fake.url}/chat/completions`, directBody));
      for (const name of ['bare', 'core', 'app'] as const) runs[name].push(await pacedRun(relays[name].child, relays[name].url, relays[name].body));
    }
    clearInterval(sampler);
    const medians = (pick: (run: Awaited<ReturnType<typeof pacedRun>>) => number) => ({
      direct: median(runs.direct.map(pick)),
      bare: median(runs.bare.map(pick)),
      core: median(runs.core.map(pick)),
      app: median(runs.app.map(pick)),
    });
    const alone = medians((r) => r.us);

    // The target's own load, once, measured but not checked: 1,000 streams (10 s each, begun
    // over 2 s), 50,000 tokens a second, with the fake provider and the clients on the same 2
    // cores as the relay. Each relay in turn, beside a client on the provider itself.
    const bigStreams = Number(process.env.BENCH_TARGET_STREAMS ?? 1000);
    const atTarget: SseRelayResult['atTarget'] = { streams: bigStreams };
    if (bigStreams > 0) {
      atTarget.direct = (await pacedStreams([{ url: `${fake.url}/chat/completions`, body: directBody }], fake, bigStreams, pacedTokens, 20, 2000))[0]!;
      atTarget.bare = (await pacedStreams([relays.bare], fake, bigStreams, pacedTokens, 20, 2000))[0]!;
      atTarget.app = (await pacedStreams([relays.app], fake, bigStreams, pacedTokens, 20, 2000))[0]!;
    }

    const abort = { ...(await abortPropagation(appUrl, fake, 100)), streams: 100 };
    const slowClients = await slowReaders(app, appPort, fake, 4, appBody);
    return {
      burst: { ...burst, ratio: burst.appUs / burst.bareUs },
      paced: {
        streams,
        cpuStreams,
        appUs: median(together.app),
        bareUs: median(together.bare),
        coreUs: median(together.core),
        ratio: median(together.ratio),
        ratios: together.ratio,
        alone: { appUs: alone.app, bareUs: alone.bare, coreUs: alone.core, ratio: alone.app / alone.bare },
        gapP99: medians((r) => r.gap),
        latencyP99: medians((r) => r.latency),
        appRssMb: peakRss / 2 ** 20,
      },
      atTarget,
      abort,
      slowClients,
    };
  } finally {
    app.kill('SIGKILL');
    bare.kill('SIGKILL');
    core.kill('SIGKILL');
    await fake.close();
  }
}

/**
 * Memory with slow clients: `streams` clients that read the first chunk and then nothing
 * (raw sockets, paused) while the provider offers 48 MB each as fast as it can. Reported: the
 * server's memory those streams hold after a garbage collection, and how much it grew between
 * 3 s and 6 s of waiting. What the kernel's socket buffers took (several MB on loopback, as
 * they tune themselves) has passed through the server and stays in the answer it keeps for the
 * log; without back-pressure the server would go on reading and keeping the rest.
 */
async function slowReaders(app: ChildProcess, port: number, fake: FakeOpenAI, streams: number, body: () => unknown) {
  // What the earlier phases left is let go first: their keep-alive connections, which the
  // provider closes after 5 s idle, would otherwise be freed during the measuring.
  await new Promise((r) => setTimeout(r, 6000));
  fake.always({ chunks: Array.from({ length: 24_000 }, (_, i) => `${'x'.repeat(2000)}${i} `) });
  const abortedBefore = fake.aborted();
  const sockets = await Promise.all(
    Array.from({ length: streams }, () => {
      const payload = JSON.stringify(body());
      return new Promise<Socket>((resolve) => {
        const socket = connect(port, '127.0.0.1', () => {
          socket.write(`POST /api/generate_sse HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(payload)}\r\n\r\n${payload}`);
        });
        socket.once('data', () => {
          socket.pause();
          resolve(socket);
        });
      });
    }),
  );
  // Let the provider push as much as the server accepts, then as long again: flat memory does
  // not grow in the second wait.
  await new Promise((r) => setTimeout(r, 3000));
  const early = (await probe(app, 'heap')).heap;
  await new Promise((r) => setTimeout(r, 3000));
  const held = (await probe(app, 'heap')).heap;
  // Still streaming, held back: not one of the provider's answers has been read to its end.
  const unfinished = fake.aborted() === abortedBefore;
  for (const socket of sockets) socket.destroy();
  // What those streams held is what their end released (measured after they are gone, so
  // that memory the earlier phases free meanwhile, such as idle keep-alive sockets, is not
  // counted against them).
  while (fake.aborted() - abortedBefore < streams) await new Promise((r) => setTimeout(r, 50));
  await new Promise((r) => setTimeout(r, 500));
  const released = (await probe(app, 'heap')).heap;
  return { streams, unfinished, heldMb: held / 2 ** 20, releasedMb: released / 2 ** 20, heldKbPerStream: (held - released) / 1024 / streams, growthKbPerStream: (held - early) / 1024 / streams };
}

if (import.meta.main) {
  const r = await runSseRelay();
  console.log(JSON.stringify(r, null, 2));
}
