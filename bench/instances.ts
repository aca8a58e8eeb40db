// B8 several instances under load: `users` concurrent users chatting for `seconds` (each asks,
// reads the streamed answer to its end, and asks again) through two instances behind a
// round-robin proxy on PostgreSQL and Redis, and, in the same run and at the same time, the
// same number of users on one instance alone (its own database). Reported: errors (a status
// other than 200, an error event, an answer without its end), p99 time to first token and p99
// token latency (each token stamped by the fake provider when written). And, when asked
// (BENCH_SOAK_MINUTES), the instances' resident memory over a longer run.
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startServer, type RunningServer } from '../tests/e2e/support.ts';
import { startFakeOpenAI } from '../tests/fixtures/fakeOpenAI.ts';
import { startRoundRobin } from '../tests/fixtures/roundRobin.ts';
import { freshDatabase } from '../tests/server/support.ts';
import { UNCAPPED } from './sseRelay.ts';

const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity, timeout: 4000 });

interface Measures {
  turns: number;
  errors: number;
  firsts: number[];
  latencies: number[];
}

/** One turn: POST /api/generate_sse and read it to its end, measuring as it reads. */
function turn(base: string, session: number, into: Measures): Promise<void> {
  const payload = JSON.stringify({ session, user_input: 'load', mem_length: 0 });
  const sent = performance.now();
  return new Promise((resolve) => {
    let text = '';
    let first = true;
    const failed = () => {
      into.errors++;
      resolve();
    };
    const request = http.request(`${base}/api/generate_sse`, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } }, (response) => {
      if (response.statusCode !== 200) return (response.resume(), failed());
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        const now = performance.now();
        text += chunk;
        for (const stamp of chunk.matchAll(/w\d+:(\d+\.\d+) /g)) {
          if (first) into.firsts.push(now - sent);
          first = false;
          into.latencies.push(now - Number(stamp[1]));
        }
      });
      response.on('end', () => {
        if (!text.includes('event: done') || text.includes('event: error')) return failed();
        into.turns++;
        resolve();
      });
      response.on('error', failed);
    });
    request.on('error', failed);
    request.end(payload);
  });
}

const p99 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length * 0.99)] ?? 0;

/** Resident memory of a process, MB (Linux). */
const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

export interface InstancesResult {
  users: number;
  seconds: number;
  pair: { turns: number; errors: number; firstP99: number; latencyP99: number };
  alone: { turns: number; errors: number; firstP99: number; latencyP99: number };
  /** Each instance's resident memory at each minute of the soak, MB. */
  soak?: { minutes: number; rssMb: number[][] };
}

export async function runInstances(options: { users?: number; seconds?: number; tokens?: number; paceMs?: number; soakMinutes?: number; redisUrl?: string } = {}): Promise<InstancesResult> {
  const users = options.users ?? 200;
  const seconds = options.seconds ?? 60;
  const tokens = options.tokens ?? 20;
  const paceMs = options.paceMs ?? 50;
  const fake = await startFakeOpenAI({ models: ['bench'] });
  fake.always({ chunks: Array.from({ length: tokens }, (_, i) => `w${i}:@@ `), delayMs: paceMs, stamp: true, phaseMs: paceMs });
  const [shared, own] = await Promise.all([freshDatabase('postgres'), freshDatabase('postgres')]);
  const dist = path.join(mkdtempSync(path.join(tmpdir(), 'shellchat-bench-')), 'no-dist');
  const base = { SHELLCHAT_DIST: dist, ROOT_PASSWORD: 'root-password-1', MODEL: 'bench', OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'sk-bench', LOG_LEVEL: 'warn', TRUST_PROXY: 'true', ...UNCAPPED };
  const pairEnv = { ...base, DATABASE_URL: shared.url, REDIS_URL: options.redisUrl ?? 'redis://127.0.0.1:6379', SECRET_KEY: 'bench-secret' };
  const servers: RunningServer[] = await Promise.all([startServer(pairEnv), startServer(pairEnv), startServer({ ...base, DATABASE_URL: own.url })]);
  const [a, b, single] = servers as [RunningServer, RunningServer, RunningServer];
  const lb = await startRoundRobin([a.url, b.url], `10.${randomBytes(3).join('.')}`);
  try {
    const measure = async (target: string, until: number): Promise<Measures> => {
      const into: Measures = { turns: 0, errors: 0, firsts: [], latencies: [] };
      await Promise.all(
        Array.from({ length: users }, async (_, i) => {
          // Users begin over a second, each in a session of their own.
          await new Promise((r) => setTimeout(r, (i * 1000) / users));
          for (let n = 0; performance.now() < until; n++) await turn(target, 1_800_000_000_000 + i * 100_000 + n, into);
        }),
      );
      return into;
    };
    const summary = (m: Measures) => ({ turns: m.turns, errors: m.errors, firstP99: p99(m.firsts), latencyP99: p99(m.latencies) });
    const until = performance.now() + seconds * 1000;
    const [pair, alone] = await Promise.all([measure(lb.url, until), measure(single.url, until)]);
    const result: InstancesResult = { users, seconds, pair: summary(pair), alone: summary(alone) };
    if (options.soakMinutes) {
      const pids = [a.process.pid!, b.process.pid!];
      const rss = pids.map((pid) => [rssMb(pid)]);
      const sampler = setInterval(() => pids.forEach((pid, i) => rss[i]!.push(rssMb(pid))), 60_000);
      await measure(lb.url, performance.now() + options.soakMinutes * 60_000);
      clearInterval(sampler);
      result.soak = { minutes: options.soakMinutes, rssMb: rss.map((series) => series.map((mb) => Math.round(mb))) };
    }
    return result;
  } finally {
    await lb.close();
    await Promise.all(servers.map((s) => s.stop()));
    await Promise.all([shared.drop(), own.drop()]);
    await fake.close();
  }
}

if (import.meta.main) {
  console.log(JSON.stringify(await runInstances({ users: Number(process.env.BENCH_USERS ?? 200), seconds: Number(process.env.BENCH_LOAD_SECONDS ?? 60), soakMinutes: Number(process.env.BENCH_SOAK_MINUTES ?? 0) }), null, 2));
}
