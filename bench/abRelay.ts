// A/B of the server's CPU per relayed token: this checkout's server and another checkout's
// (an earlier commit, say), streaming at once beside the bare relay, the same paced streams to
// each. Run at once, both find the machine in the same state, so a round's ratio of the two
// varies by about ±2%, where rounds run one after the other differed by up to ±20%: enough to
// tell whether a change to the relay's path saves 1% of its CPU. Each round's p99 token latency
// through each is printed too: measured at once, the two see the same noisy moments.
//
//   git worktree add /tmp/before <commit> && ln -s "$PWD/node_modules" /tmp/before/
//   node bench/abRelay.ts /tmp/before          (BENCH_AB_ROUNDS, BENCH_AB_TOKENS, BENCH_CPU_STREAMS)
//
// To weigh a runtime flag instead of a change, pass this checkout as the other one and the flag
// in BENCH_AB_NODE_OPTIONS: it goes to the "after" server only.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../tests/e2e/support.ts';
import { startFakeOpenAI } from '../tests/fixtures/fakeOpenAI.ts';
import { pacedStreams } from './pacedStreams.ts';
import { median, probe, startProcess, UNCAPPED } from './sseRelay.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const other = process.argv[2];
if (!other) throw new Error('usage: node bench/abRelay.ts <other checkout>');
const rounds = Number(process.env.BENCH_AB_ROUNDS ?? 6);
const tokens = Number(process.env.BENCH_AB_TOKENS ?? 500);
const streams = Number(process.env.BENCH_CPU_STREAMS ?? 100);

const fake = await startFakeOpenAI({ models: ['bench'] });
const server = async (root: string, nodeOptions = '') => {
  const port = await freePort();
  const env = { NODE_OPTIONS: nodeOptions, MODEL: 'bench', OPENAI_BASE_URL: fake.url, DATA_DIR: mkdtempSync(path.join(tmpdir(), 'shellchat-ab-')), LOG_LEVEL: 'warn', SHELLCHAT_DIST: '/nonexistent', ...UNCAPPED };
  return { child: await startProcess(path.join(root, 'src/server/main.ts'), env, '/api/ping', port), url: `http://127.0.0.1:${port}/api/generate_sse` };
};
const barePort = await freePort();
const relays: Record<'bare' | 'before' | 'after', { child: ChildProcess; url: string }> = {
  bare: { child: await startProcess(path.join(ROOT, 'bench/bareRelay.ts'), { UPSTREAM: fake.url }, '/', barePort), url: `http://127.0.0.1:${barePort}/` },
  before: await server(path.resolve(other)),
  after: await server(ROOT, process.env.BENCH_AB_NODE_OPTIONS),
};
let session = 1_800_000_000_000;
const targets = Object.entries(relays).map(([name, r]) => ({ ...r, body: name === 'bare' ? () => 'x' : () => ({ session: session++, user_input: 'hello', mem_length: 0 }) }));
try {
  // A warm-up round (JIT, connection pools), not counted.
  await pacedStreams(targets, fake, Math.min(streams, 30), tokens, 20);
  const ratios: { change: number; before: number; after: number; latency: number }[] = [];
  for (let i = 0; i < rounds; i++) {
    const start = await Promise.all(targets.map((t) => probe(t.child)));
    const seen = await pacedStreams(targets, fake, streams, tokens, 20);
    const end = await Promise.all(targets.map((t) => probe(t.child)));
    const [bare, before, after] = targets.map((_, k) => (end[k]!.cpu - start[k]!.cpu) / (streams * tokens));
    const [bareP99, beforeP99, afterP99] = seen.map((s) => s.latency);
    ratios.push({ change: after! / before!, before: before! / bare!, after: after! / bare!, latency: afterP99! - beforeP99! });
    console.log(
      `round ${i + 1}: µs per token: bare ${bare!.toFixed(2)}, before ${before!.toFixed(2)}, after ${after!.toFixed(2)}; after/before ${(after! / before!).toFixed(3)}; ` +
        `p99 latency (ms): bare ${bareP99!.toFixed(1)}, before ${beforeP99!.toFixed(1)}, after ${afterP99!.toFixed(1)}`,
    );
  }
  const m = (pick: (r: (typeof ratios)[number]) => number) => median(ratios.map(pick)).toFixed(3);
  console.log(`median: after/before ${m((r) => r.change)}; against the bare relay, before ${m((r) => r.before)}x, after ${m((r) => r.after)}x; p99 latency after minus before ${m((r) => r.latency)} ms`);
} finally {
  for (const r of Object.values(relays)) r.child.kill('SIGKILL');
  await fake.close();
}
