// What the caps on answers in flight cost a turn (issue 34): a slot taken and given back with
// 300 answers in flight, beside parsing the request's URL once (which a turn already does, for
// the cookies' Secure flag), measured in the same run. `node bench/answerCaps.ts`.
import { AnswerCaps } from '../src/server/turn/answerCaps.ts';

export interface AnswerCapsResult {
  /** ns for a `new URL()` of the request's URL: the baseline. */
  urlNs: number;
  /** ns to take and give back a slot, for an IPv4 client, a new visitor each time, an IPv6 client. */
  ipv4Ns: number;
  newVisitorNs: number;
  ipv6Ns: number;
}

const timed = (n: number, f: (i: number) => unknown): number => {
  for (let i = 0; i < n / 10; i++) f(i);
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) f(i);
  return Number(process.hrtime.bigint() - start) / n;
};

export function runAnswerCaps(n = 500_000): AnswerCapsResult {
  const caps = new AnswerCaps({ user: 4, visitor: 4, address: 32 });
  const owners = Array.from({ length: 300 }, (_, i) => ({ user: null, deviceId: `device-${i}-${'x'.repeat(16)}`, root: false }));
  // 300 answers in flight from as many browsers and addresses, as in B5.
  owners.forEach((owner, i) => caps.take(owner, `10.0.${i >> 8}.${i & 255}`));
  const urlNs = timed(n, () => new URL('http://127.0.0.1:3000/api/generate_sse').protocol);
  const ipv4Ns = timed(n, (i) => caps.take(owners[i % 300]!, '203.0.113.7')?.());
  const newVisitorNs = timed(n, (i) => caps.take({ user: null, deviceId: `visitor-${i}`, root: false }, '203.0.113.8')?.());
  const ipv6Ns = timed(n, (i) => caps.take(owners[i % 300]!, '2001:db8:85a3:8d3:1319:8a2e:370:7348')?.());
  return { urlNs, ipv4Ns, newVisitorNs, ipv6Ns };
}

if (import.meta.main) {
  const r = runAnswerCaps();
  const show = (ns: number) => `${(ns / 1000).toFixed(2)} µs (${(ns / r.urlNs).toFixed(1)}x)`;
  console.log(`new URL() ${(r.urlNs / 1000).toFixed(2)} µs; a slot taken and given back: IPv4 ${show(r.ipv4Ns)}, a new visitor ${show(r.newVisitorNs)}, IPv6 ${show(r.ipv6Ns)}`);
}
