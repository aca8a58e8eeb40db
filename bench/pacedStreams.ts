// Paced streams for B5 and bench/abRelay.ts: concurrent streams of stamped tokens from the
// fake provider, read through a relay (or the provider itself) by clients in this process,
// which measure each token's latency and each gap beyond the pace.
import http from 'node:http';
import type { FakeOpenAI } from '../tests/fixtures/fakeOpenAI.ts';

/** Concurrent paced streams begin over this long (ms), as users' questions would, not in one instant. */
const RAMP_MS = Number(process.env.BENCH_RAMP_MS ?? 1000);

/**
 * Paced streams under load: `streams` concurrent streams of paced tokens (every `paceMs`) to
 * each target, each at its own phase within the pace (independent streams do not tick
 * together), begun over `rampMs`; the i-th stream of every target starts at the same moment.
 * Two measures per target, both reported as p99:
 * - latency: each token carries the time the provider wrote it (the fake provider stamps it,
 *   in this process), so its latency is when the client read it minus that. This is what a
 *   relay adds, constant delays included;
 * - gap: each gap between two text events beyond the pace, the jitter a reader sees.
 * And how long each stream's first token took from the request (p50 and p99).
 */
export async function pacedStreams(
  targets: { url: string; body: (i: number) => unknown }[],
  fake: FakeOpenAI,
  streams: number,
  tokens: number,
  paceMs: number,
  rampMs = RAMP_MS,
): Promise<{ gap: number; latency: number; firstP50: number; firstP99: number }[]> {
  fake.always({ chunks: Array.from({ length: tokens }, (_, i) => `w${i}:@@ `), delayMs: paceMs, stamp: true, phaseMs: paceMs });
  const at = (q: number) => (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length * q)] ?? 0;
  const p99 = at(0.99);
  const measured = targets.map(() => ({ extra: [] as number[], latencies: [] as number[], firsts: [] as number[] }));
  await Promise.all(
    Array.from({ length: streams }, async (_, i) => {
      await new Promise((r) => setTimeout(r, (i * rampMs) / streams));
      await Promise.all(targets.map((target, k) => readPaced(target.url, target.body(i), paceMs, measured[k]!)));
    }),
  );
  return measured.map(({ extra, latencies, firsts }) => ({ gap: p99(extra), latency: p99(latencies), firstP50: at(0.5)(firsts), firstP99: p99(firsts) }));
}

/**
 * POSTs `body` and hands each chunk of the response body to `onChunk` as it is read, over
 * node:http with a keep-alive agent. The clients and the fake provider share 2 cores with the
 * relay they measure: with fetch (web streams) they took 47-54 µs of CPU per paced token, with
 * node:http 44-46 µs, so the relay competes with less of the harness.
 */
// Idle sockets are dropped after 4 s, before the servers' 5 s keep-alive timeout, so that no
// request goes out on a socket the server is closing.
const clientAgent = new http.Agent({ keepAlive: true, maxSockets: Infinity, timeout: 4000 });
function postStream(url: string, body: unknown, onChunk: (chunk: string) => void): Promise<void> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: 'POST', agent: clientAgent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } }, (response) => {
      response.setEncoding('utf8');
      response.on('data', onChunk);
      response.on('end', resolve);
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(payload);
  });
}

/** One paced stream, read to its end: each token's latency and each gap beyond the pace. */
async function readPaced(url: string, body: unknown, paceMs: number, into: { extra: number[]; latencies: number[]; firsts: number[] }): Promise<void> {
  const sent = performance.now();
  let last = 0;
  // The end of a read that may hold the first part of a stamp, completed by the next read.
  let carry = '';
  return postStream(url, body, (chunk) => {
    const now = performance.now();
    const text = carry + chunk;
    let end = 0;
    for (const stamp of text.matchAll(/w\d+:(\d+\.\d+) /g)) {
      if (stamp[0].startsWith('w0:')) into.firsts.push(now - sent);
      into.latencies.push(now - Number(stamp[1]));
      end = stamp.index + stamp[0].length;
    }
    carry = text.slice(Math.max(end, text.length - 40));
    const events = (text.match(/"delta"|data: \{"choices"/g) ?? []).length;
    if (events && last) into.extra.push(Math.max(0, now - last - paceMs * events));
    if (events) last = now;
  });
}
