// B9 the terminal client streaming (issue 40), in a real pseudo-terminal (tmux): the client
// answering one question while a fake OpenAI-format provider streams a rich markdown answer
// (headings, lists, tables, code, math: bench/render/generate.ts) through the real server,
// beside the floor: a process reading the same /api/generate_sse stream and writing the raw
// deltas (cliFloor.ts). Each process's CPU is sampled (cpuSampler.ts); what the pane receives
// is timed (ptyStamp.ts). The provider stamps the first word of every paragraph, heading, list
// item and table row with the moment it sends it (`T<ms>`), so the first words' latency is the
// moment the pane got the stamp minus the stamp.
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { startFakeOpenAI } from '../tests/fixtures/fakeOpenAI.ts';
import { startTestServer } from '../tests/server/support.ts';
import { generateMarkdown } from './render/generate.ts';

const MAIN = path.resolve(import.meta.dirname, '../src/cli/main.ts');
const FLOOR = path.resolve(import.meta.dirname, 'cliFloor.ts');
const SAMPLER = path.resolve(import.meta.dirname, 'cpuSampler.ts');
const STAMP = path.resolve(import.meta.dirname, 'ptyStamp.ts');
const SOCKET = ['-L', `shellchat-bench-${process.pid}`];
const tmux = async (...args: string[]) => (await promisify(execFile)('tmux', [...SOCKET, ...args], { encoding: 'utf8' })).stdout;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const epoch = (stamp: number) => performance.timeOrigin + stamp;

/**
 * The answer as the provider's deltas (~4 characters, as tokens average), with a `T@@ ` delta
 * (stamped as it is sent) as the first word of every line that starts a paragraph, heading,
 * list item, quote or table row; code, math and a table's delimiter row are left as they are.
 */
export function stampedAnswer(bytes: number, markdown = generateMarkdown(bytes)): { chunks: string[]; stamps: number } {
  const parts: string[] = [];
  let current = '';
  let inFence = false;
  let inMath = false;
  for (const line of markdown.split('\n')) {
    const fence = /^\s*(```|~~~)/.test(line);
    const math = /^\s*\$\$/.test(line);
    if (fence) inFence = !inFence;
    else if (math && !inFence) inMath = !inMath;
    const plain = fence || math || inFence || inMath || !line.trim() || /^\s*\|?\s*:?-{3,}/.test(line);
    if (plain) current += `${line}\n`;
    else {
      const prefix = /^(\s*(?:#{1,6} |[-*+] |\d+[.)] |> |\| ?)*)/.exec(line)![0];
      parts.push(current + prefix);
      current = `${line.slice(prefix.length)}\n`;
    }
  }
  parts.push(current.replace(/\n$/, ''));
  const tokens = (text: string) => text.match(/[^]{1,4}/g) ?? [];
  const chunks = parts.flatMap((p, i) => (i ? ['T@@ ', ...tokens(p)] : tokens(p)));
  return { chunks, stamps: parts.length - 1 };
}

export interface RunMeasure {
  /** CPU time (ms) from the first delta sent to the last byte the pane got. */
  cpuMs: number;
  streamMs: number;
  /** CPU in the last tenth of the stream over the first, and over the second (after warm-up). */
  lastOverFirst: number;
  lastOverSecond: number;
  /** First words: how many stamps reached the pane, and their latency (ms) from being sent. */
  stampsSeen: number;
  latencyP50: number;
  latencyP95: number;
  latencyMax: number;
  /** The same p95 for the words sent a second or more into the stream (the renderer loaded). */
  latencyP95After1s: number;
  /** The answer's first stamped word's latency (the client's cold start). */
  latencyFirst: number;
  /** CPU (ms) in each tenth of the stream. */
  tenths: number[];
  /** The kernel's share of the CPU (system time). */
  systemMs: number;
}

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))] ?? Number.NaN;

/** CPU (µs) at a moment, interpolated between samples. */
function cpuAt(samples: [number, number, ...number[]][], t: number): number {
  const i = samples.findIndex(([time]) => time >= t);
  if (i < 0) return samples.at(-1)![1];
  if (i === 0) return samples[0]![1];
  const [t0, c0] = samples[i - 1]!;
  const [t1, c1] = samples[i]!;
  return c0 + ((c1 - c0) * (t - t0)) / (t1 - t0 || 1);
}

/** One process in a tmux pane of its own, measured: `command` is node's arguments after the sampler. */
async function runInPane(name: string, command: string[], columns: number, rows: number, env: Record<string, string>): Promise<RunMeasure> {
  const dir = mkdtempSync(path.join(tmpdir(), 'shellchat-cli-bench-'));
  const cpuFile = path.join(dir, 'cpu.json');
  const prefix = path.join(dir, 'pane');
  const vars = Object.entries({ ...env, BENCH_CPU_FILE: cpuFile, TERM: 'xterm-256color' }).map(([k, v]) => `${k}=${v}`);
  // The pane waits for a key, so that the byte capture is on before the process writes.
  const line = ['read go;', 'env', '-u', 'NO_COLOR', ...vars, process.execPath, '--import', SAMPLER, ...command, '; sleep 600'].join(' ');
  await tmux('new-session', '-d', '-s', name, '-x', String(columns), '-y', String(rows), line);
  await tmux('pipe-pane', '-t', name, '-o', `${process.execPath} ${STAMP} ${prefix}`);
  await sleep(300);
  await tmux('send-keys', '-t', name, 'Enter');
  try {
    for (const end = Date.now() + 300_000; !existsSync(cpuFile); await sleep(100)) if (Date.now() > end) throw new Error(`${name}: no end in 300 s`);
    await sleep(200);
  } finally {
    spawnSync('tmux', [...SOCKET, 'kill-session', '-t', name]);
  }
  const samples = JSON.parse(readFileSync(cpuFile, 'utf8')) as [number, number, number][];
  const raw = readFileSync(`${prefix}.raw`).toString('latin1');
  const times = readFileSync(`${prefix}.times`, 'utf8').trim().split('\n').map((l) => l.split(' ').map(Number) as [number, number]);
  const arrival = (offset: number) => times.find(([, length]) => length >= offset)![0];
  const seen = new Map<string, number>();
  const sentAt = (stamp: string) => epoch(Number(stamp));
  for (const m of raw.matchAll(/T(\d+\.\d{3}) /g)) if (!seen.has(m[1]!)) seen.set(m[1]!, arrival(m.index + m[0].length) - epoch(Number(m[1])));
  const first = Math.min(...[...seen.keys()].map((s) => epoch(Number(s))));
  const last = times.at(-1)![0];
  const streamMs = last - first;
  const cpu = (from: number, to: number) => cpuAt(samples, to) - cpuAt(samples, from);
  const tenth = streamMs / 10;
  const latencies = [...seen.values()];
  const after1s = [...seen].filter(([stamp]) => sentAt(stamp) >= first + 1000).map(([, latency]) => latency);
  return {
    cpuMs: cpu(first, last) / 1000,
    streamMs,
    lastOverFirst: cpu(last - tenth, last) / cpu(first, first + tenth),
    lastOverSecond: cpu(last - tenth, last) / cpu(first + tenth, first + 2 * tenth),
    stampsSeen: seen.size,
    latencyP50: quantile(latencies, 0.5),
    latencyP95: quantile(latencies, 0.95),
    latencyMax: Math.max(...latencies),
    latencyP95After1s: quantile(after1s, 0.95),
    latencyFirst: [...seen].find(([stamp]) => sentAt(stamp) === first)![1],
    systemMs: (samples.findLast(([time]) => time <= last)![2]! - samples.findLast(([time]) => time <= first)![2]!) / 1000,
    tenths: Array.from({ length: 10 }, (_, i) => cpu(first + i * tenth, first + (i + 1) * tenth) / 1000),
  };
}

export interface CliStreamResult {
  rate: number;
  bytes: number;
  stamps: number;
  floor: RunMeasure[];
  client: RunMeasure[];
}

/** Each rate: `runs` rounds of the floor then the client, the same answer at the same pace. */
export async function runCliStream(options: { rates?: { rate: number; bytes: number; markdown?: string }[]; runs?: number; columns?: number; rows?: number; clientNodeArgs?: string[] } = {}): Promise<CliStreamResult[]> {
  const rates = options.rates ?? [
    { rate: 2000, bytes: 64 * 1024 },
    { rate: 800, bytes: 16 * 1024 },
    { rate: 10, bytes: 1024 },
  ];
  const runs = options.runs ?? 3;
  const [columns, rows] = [options.columns ?? 100, options.rows ?? 30];
  const fake = await startFakeOpenAI({ models: ['bench'] });
  const server = await startTestServer('sqlite', { MODEL: 'bench', OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'sk-bench', LOG_LEVEL: 'warn' });
  await tmux('new-session', '-d', '-s', 'idle', 'sleep 3600');
  const results: CliStreamResult[] = [];
  let session = 1_900_000_000_000;
  try {
    for (const { rate, bytes, markdown } of rates) {
      const { chunks, stamps } = stampedAnswer(bytes, markdown);
      fake.always({ chunks, delayMs: 1000 / rate, stamp: true });
      const result: CliStreamResult = { rate, bytes, stamps, floor: [], client: [] };
      for (let run = 0; run < runs; run++) {
        result.floor.push(await runInPane(`floor-${rate}-${run}`, [FLOOR, server.url, String(session++)], columns, rows, {}));
        const config = mkdtempSync(path.join(tmpdir(), 'shellchat-cli-bench-config-'));
        result.client.push(await runInPane(`client-${rate}-${run}`, [...(options.clientNodeArgs ?? []), MAIN, '--server', server.url, 'bench'], columns, rows, { SHELLCHAT_CONFIG_DIR: config, ...(process.env.BENCH_CLIENT_PLAIN ? { NO_COLOR: '1' } : {}) }));
      }
      results.push(result);
    }
  } finally {
    spawnSync('tmux', [...SOCKET, 'kill-server']);
    await server.close();
    await fake.close();
  }
  return results;
}

/** The median of the runs, and their spread (lowest-highest). */
export function medianSpread(xs: number[], digits = 2): string {
  const sorted = [...xs].sort((a, b) => a - b);
  return `${sorted[sorted.length >> 1]!.toFixed(digits)} (${sorted[0]!.toFixed(digits)}-${sorted.at(-1)!.toFixed(digits)})`;
}

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

if (import.meta.main) {
  // BENCH_CLIENT_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' profiles the client.
  // BENCH_CLI_RATES=2000 runs that rate alone (64 KB at 2,000, 16 KB at 800, 1 KB below).
  const clientNodeArgs = process.env.BENCH_CLIENT_NODE_ARGS?.split(' ').filter(Boolean);
  const rates = process.env.BENCH_CLI_RATES?.split(',').map(Number).map((rate) => ({ rate, bytes: rate >= 2000 ? 64 * 1024 : rate >= 800 ? 16 * 1024 : 1024 }));
  for (const r of await runCliStream({ runs: Number(process.env.BENCH_RUNS ?? 3), clientNodeArgs, ...(rates ? { rates } : {}) })) {
    const ratios = r.client.map((c, i) => c.cpuMs / r.floor[i]!.cpuMs);
    console.log(`${r.rate} tok/s, ${(r.bytes / 1024).toFixed(0)} KB, ${r.stamps} first words stamped`);
    for (const [who, ms] of [['floor', r.floor], ['client', r.client]] as const) {
      console.log(`  ${who}: CPU ${medianSpread(ms.map((m) => m.cpuMs), 0)} ms of ${medianSpread(ms.map((m) => m.streamMs / 1000), 1)} s; last/first tenth ${medianSpread(ms.map((m) => m.lastOverFirst))}, last/second ${medianSpread(ms.map((m) => m.lastOverSecond))}; first words seen ${ms.map((m) => m.stampsSeen).join('/')}, latency p50 ${medianSpread(ms.map((m) => m.latencyP50), 1)} p95 ${medianSpread(ms.map((m) => m.latencyP95), 1)} max ${medianSpread(ms.map((m) => m.latencyMax), 1)} ms; p95 from the first second on ${medianSpread(ms.map((m) => m.latencyP95After1s), 1)} ms`);
    }
    console.log(`  client / floor CPU: ${medianSpread(ratios)}`);
    if (process.env.BENCH_CLI_TENTHS) for (const [who, ms] of [['floor', r.floor], ['client', r.client]] as const) for (const m of ms) console.log(`  ${who} system ${m.systemMs.toFixed(0)} ms; CPU by tenth (ms): ${m.tenths.map((t) => t.toFixed(0)).join(' ')}`);
  }
}
