// Issue 34, item 4: one anonymous cookie opened 1,500 answers at once, each relayed to the
// provider on the operator's key. Answers in flight are now capped per anonymous browser, per
// user (over all their browsers) and per address, with the shipped defaults (4, 4, 32); past a
// cap the answer is refused before anything runs, in words and with a code, as the event
// stream's error or a 429, and the slots come back when answers end, fail or are stopped.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { GenerationEvent } from '../../src/core/index.ts';
import { streamGeneration } from '../../src/core/api/generationClient.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fakeOpenAI.ts';
import { startTestServer, type TestServer } from '../server/support.ts';

const MESSAGE = 'Too many answers are in progress. Try again when one has finished.';
const REFUSAL = { type: 'error', error: MESSAGE, message: { code: 'core.tooManyAnswers', params: {}, text: MESSAGE } };
let session = 1_800_000_000_000;

let fake: FakeOpenAI;
let t: TestServer;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  t = await startTestServer('sqlite', { MODEL: 'gpt-4o-mini', OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'sk-operator' });
}, 60_000);
afterAll(async () => {
  await t?.close();
  await fake?.close();
});
beforeEach(() => {
  fake.reset();
  // Every answer hangs after its headers until its browser stops it: all stay in flight.
  fake.always({ hang: true });
});

interface Asked {
  events: GenerationEvent[];
  stop(): void;
  /** Settles when the answer's stream has ended (refused, stopped or finished). */
  ended: Promise<void>;
}

/** A question over the event stream, as the page and the CLI send it; `fetch` carries the browser's cookies (none: a fresh visitor each time). */
function ask(fetchWith: typeof fetch = fetch): Asked {
  const events: GenerationEvent[] = [];
  const abort = new AbortController();
  const ended = streamGeneration({ session: ++session, user_input: 'Write me a very long story' } as never, (e) => events.push(e), { signal: abort.signal, baseUrl: t.url, fetch: fetchWith }).catch(() => undefined);
  return { events, stop: () => abort.abort(), ended };
}

const refusedOf = (asked: Asked[]) => asked.filter((a) => a.events.length === 1 && a.events[0]!.type === 'error');
/** Waits until `n` requests reached the provider, then a while longer to see that no more come. */
async function reached(n: number) {
  await fake.waitForRequests(n, 10_000);
  await new Promise((r) => setTimeout(r, 300));
  return fake.requests.length;
}
async function stopAll(asked: Asked[]) {
  for (const a of asked) a.stop();
  await Promise.all(asked.map((a) => a.ended));
  // The server sees each stop, aborts its provider request and gives the slot back.
  await expect.poll(() => fake.openStreams(), { timeout: 10_000 }).toBe(0);
}

describe('answers in flight', () => {
  it('lets one anonymous cookie have 4 at once: of 50 sent together 4 reach the provider, 46 are refused in words', async () => {
    const browser = t.client();
    await browser.get('/api/ping'); // the device cookie
    const asked = Array.from({ length: 50 }, () => ask(browser.raw));
    expect(await reached(4)).toBe(4);
    await expect.poll(() => refusedOf(asked).length, { timeout: 10_000 }).toBe(46);
    for (const a of refusedOf(asked)) expect(a.events).toEqual([REFUSAL]);
    // The operator's key went out four times only.
    expect(fake.requests.map((r) => r.headers.authorization)).toEqual(Array(4).fill('Bearer sk-operator'));
    // A refused answer writes nothing.
    expect(await t.server.db.db.selectFrom('logs').select('id').execute()).toHaveLength(0);

    // Stopped answers give their slots back: four more go through.
    await stopAll(asked);
    fake.reset();
    fake.always({ hang: true });
    const again = Array.from({ length: 6 }, () => ask(browser.raw));
    expect(await reached(4)).toBe(4);
    await expect.poll(() => refusedOf(again).length).toBe(2);
    await stopAll(again);
  }, 60_000);

  it('counts a user over all their browsers: two logins share 4', async () => {
    const [one, two] = [t.client(), t.client()];
    await one.post('/api/user/add', { username: 'capped', email: 'capped@example.org', password: 'capped-pass-1234' });
    for (const b of [one, two]) await b.post('/api/user/login', { username: 'capped', password: 'capped-pass-1234' });
    expect(one.cookies.get('auth')).not.toBe(two.cookies.get('auth'));
    const asked = [...Array.from({ length: 3 }, () => ask(one.raw)), ...Array.from({ length: 3 }, () => ask(two.raw))];
    expect(await reached(4)).toBe(4);
    await expect.poll(() => refusedOf(asked).length).toBe(2);
    await stopAll(asked);
  }, 60_000);

  it('counts an address over fresh cookies: 50 new visitors from one address get 32', async () => {
    const asked = Array.from({ length: 50 }, () => ask());
    expect(await reached(32)).toBe(32);
    await expect.poll(() => refusedOf(asked).length, { timeout: 10_000 }).toBe(18);
    for (const a of refusedOf(asked)) expect(a.events).toEqual([REFUSAL]);
    await stopAll(asked);
  }, 60_000);

  it('refuses POST /api/generate and /api/generate_msg past the cap with a 429 in the same words', async () => {
    const browser = t.client();
    await browser.get('/api/ping');
    const asked = Array.from({ length: 4 }, () => ask(browser.raw));
    await reached(4);
    const body = JSON.stringify({ session: ++session, user_input: 'one more' });
    for (const path of ['/api/generate', '/api/generate_msg']) {
      const response = await browser.raw(`${t.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      expect(response.status, path).toBe(429);
      expect(await response.json()).toEqual({ success: false, error: MESSAGE, code: 'core.tooManyAnswers', params: {} });
    }
    expect(fake.requests).toHaveLength(4);
    await stopAll(asked);
    // generate_msg holds its slot only while it builds the messages.
    for (let i = 0; i < 6; i++) {
      const response = await browser.raw(`${t.url}/api/generate_msg`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ session: ++session, user_input: 'local' }) });
      expect(response.status).toBe(200);
    }
  }, 60_000);

  it('gives the slots back when answers end and when they fail', async () => {
    const browser = t.client();
    await browser.get('/api/ping');
    fake.reset();
    fake.always({ text: 'A short answer.', firstDelayMs: 200 });
    const finished = Array.from({ length: 4 }, () => ask(browser.raw));
    await Promise.all(finished.map((a) => a.ended));
    for (const a of finished) expect(a.events.at(-1)!.type).toBe('done');
    fake.reset();
    fake.always({ status: 500, firstDelayMs: 100 });
    const failed = Array.from({ length: 4 }, () => ask(browser.raw));
    await Promise.all(failed.map((a) => a.ended));
    for (const a of failed) expect(a.events.at(-1)).toMatchObject({ type: 'error', error: expect.stringContaining('500') });
    // Eight answers ended one way or the other: four more are in flight at once again.
    fake.reset();
    fake.always({ hang: true });
    const asked = Array.from({ length: 5 }, () => ask(browser.raw));
    expect(await reached(4)).toBe(4);
    await expect.poll(() => refusedOf(asked).length).toBe(1);
    await stopAll(asked);
  }, 60_000);
});
