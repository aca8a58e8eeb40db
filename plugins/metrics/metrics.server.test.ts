// GET /metrics over real HTTP: refused without its bearer token, off without METRICS_TOKEN, on
// its own port with METRICS_PORT; the scrape read by a strict Prometheus text-format reader
// (promText.ts) and its values checked against traffic the test made: API requests by route
// pattern and status, failed logins, answers from the fake OpenAI-compatible provider (tokens,
// first tokens, one streaming now, a provider error), a payment through the fake PayPal.
import { createServer as createNetServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streamGeneration } from '../../src/core/api/generationClient.ts';
import type { GenerationEvent } from '../../src/core/index.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../../tests/fixtures/fakeOpenAI.ts';
import { REDIS_URL, redisUp } from '../../tests/fixtures/redis.ts';
import { paypalEnv, startFakePaypal, type FakePaypal } from '../../tests/fixtures/fakePaypal.ts';
import { engines, startTestServer, type TestServer } from '../../tests/server/support.ts';
import { parsePrometheusText, valueOf, type Family } from './promText.ts';

const TOKEN = 'metrics-token-0123456789abcdef';
const PW = 'hunter2hunter2';
const SESSION = 1_900_000_000_000;

async function scrape(url: string, token: string | null = TOKEN): Promise<Response> {
  return fetch(`${url}/metrics`, { headers: token === null ? {} : { authorization: `Bearer ${token}` } });
}
async function read(url: string): Promise<{ text: string; families: Map<string, Family> }> {
  const response = await scrape(url);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  const text = await response.text();
  return { text, families: parsePrometheusText(text) };
}

describe('the Prometheus text reader of these tests', () => {
  it('reads what the format allows and refuses what it does not', () => {
    const good = '# HELP a_total A.\n# TYPE a_total counter\na_total{x="q\\"uote\\\\",y="2"} 3\n# TYPE h histogram\nh_bucket{le="1"} 1\nh_bucket{le="+Inf"} 2\nh_sum 1.5\nh_count 2\n';
    const families = parsePrometheusText(good);
    expect(valueOf(families, 'a_total', { x: 'q"uote\\', y: '2' })).toBe(3);
    expect(valueOf(families, 'h_count')).toBe(2);
    for (const bad of [
      'a 1\n', // no TYPE
      '# TYPE a counter\na{x=1} 1\n', // unquoted
      '# TYPE a counter\na 1\na 2\n', // repeated series
      '# TYPE a counter\na one\n', // bad value
      '# TYPE h histogram\nh_bucket{le="1"} 2\nh_bucket{le="+Inf"} 1\nh_count 1\n', // not cumulative
      '# TYPE h histogram\nh_bucket{le="+Inf"} 2\nh_count 3\n', // count differs
      '# TYPE a counter\na 1', // no final newline
    ]) {
      expect(() => parsePrometheusText(bad), bad).toThrow();
    }
  });
});

describe('GET /metrics', () => {
  let fake: FakeOpenAI;
  let paypal: FakePaypal;
  let t: TestServer;
  let off: TestServer;

  beforeAll(async () => {
    [fake, paypal] = await Promise.all([startFakeOpenAI(), startFakePaypal()]);
    const models = { MODEL: 'gpt-4o-mini', OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'sk-system-key' };
    [t, off] = await Promise.all([
      startTestServer('sqlite', { ...models, ...paypalEnv(paypal), PLANS: JSON.stringify([{ role: 'user', price: '0' }, { role: 'plus_user', price: '6.00' }]), METRICS_TOKEN: TOKEN }),
      startTestServer('sqlite', models),
    ]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([t?.close(), off?.close()]);
    await Promise.all([fake?.close(), paypal?.close()]);
  });

  async function ask(session: number): Promise<GenerationEvent[]> {
    const events: GenerationEvent[] = [];
    await streamGeneration({ session, user_input: 'hello' } as never, (e) => events.push(e), { signal: new AbortController().signal, baseUrl: t.url, fetch: t.client().raw });
    return events;
  }

  it('is refused without its bearer token, or with another', async () => {
    for (const token of [null, 'wrong-token-0123456789abcdef', TOKEN.slice(0, -1), `${TOKEN}x`]) {
      const response = await scrape(t.url, token);
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(await response.text()).not.toContain('shellchat_');
    }
    const basic = await fetch(`${t.url}/metrics`, { headers: { authorization: `Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}` } });
    expect(basic.status).toBe(401);
  });

  it('is off without METRICS_TOKEN: a 404, not the page', async () => {
    const response = await scrape(off.url, null);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).not.toContain('html');
    expect(await response.text()).not.toContain('shellchat_http_requests_total');
  });

  it('counts API requests by route pattern and status, with their latency', async () => {
    const before = (await read(t.url)).families;
    const api = t.client();
    for (let i = 0; i < 3; i++) await api.raw(`${t.url}/api/ping`);
    // A parameter's value never becomes a label: both land on the route's pattern.
    await api.raw(`${t.url}/api/role/first-name`);
    await api.raw(`${t.url}/api/role/second-name`);
    await api.raw(`${t.url}/api/no-such-route-${Date.now()}`);
    const { families, text } = await read(t.url);
    const delta = (name: string, labels: Record<string, string>) => valueOf(families, name, labels) - valueOf(before, name, labels);
    expect(delta('shellchat_http_requests_total', { method: 'GET', route: '/api/ping', status: '200' })).toBe(3);
    expect(delta('shellchat_http_requests_total', { method: 'GET', route: '/api/role/:name', status: '404' })).toBe(2);
    expect(delta('shellchat_http_requests_total', { method: 'GET', route: '/api/*', status: '404' })).toBe(1);
    expect(delta('shellchat_http_request_duration_seconds_count', { method: 'GET', route: '/api/ping' })).toBe(3);
    expect(delta('shellchat_http_request_duration_seconds_bucket', { method: 'GET', route: '/api/ping', le: '+Inf' })).toBe(3);
    expect(text).not.toMatch(/first-name|second-name|no-such-route/);
    // The scrape itself is no API request, and the event loop's lag is there.
    expect(text).not.toContain('route="/metrics"');
    expect(families.get('nodejs_eventloop_lag_seconds')?.type).toBe('gauge');
  });

  it('counts failed logins by reason, never by name', async () => {
    const before = (await read(t.url)).families;
    const api = t.client();
    await api.raw(`${t.url}/api/user/add`, { method: 'POST', headers: { 'content-type': 'application/json', origin: t.url }, body: JSON.stringify({ username: 'metricsuser', email: 'metricsuser@example.org', password: PW }) });
    for (let i = 0; i < 2; i++) {
      const r = await api.raw(`${t.url}/api/user/login`, { method: 'POST', headers: { 'content-type': 'application/json', origin: t.url }, body: JSON.stringify({ username: 'metricsuser', password: 'wrong-password-1' }) });
      expect(r.status).toBe(401);
    }
    const { families, text } = await read(t.url);
    expect(valueOf(families, 'shellchat_login_failures_total', { reason: 'credentials' }) - valueOf(before, 'shellchat_login_failures_total', { reason: 'credentials' })).toBe(2);
    expect(valueOf(families, 'shellchat_http_requests_total', { method: 'POST', route: '/api/user/login', status: '401' })).toBe(2);
    expect(text).not.toContain('metricsuser');
  });

  it('counts answers, their tokens and first tokens, one streaming now, and provider errors', async () => {
    const before = (await read(t.url)).families;
    const delta = (families: Map<string, Family>, name: string, labels: Record<string, string> = {}) => valueOf(families, name, labels) - valueOf(before, name, labels);
    const provider = 'openai-compatible';
    fake.reply({ chunks: ['Hel', 'lo'], usage: { prompt_tokens: 7, completion_tokens: 5 } });
    fake.reply({ chunks: ['Again'], usage: { prompt_tokens: 11, completion_tokens: 3 } });
    expect((await ask(SESSION + 1)).at(-1)).toMatchObject({ type: 'done' });
    expect((await ask(SESSION + 2)).at(-1)).toMatchObject({ type: 'done' });

    // An answer paced slowly is streaming while the scrape is read.
    fake.reply({ chunks: ['slow', ' one', ' here'], delayMs: 400, usage: { prompt_tokens: 1, completion_tokens: 3 } });
    const slow = ask(SESSION + 3);
    let during = before;
    for (let i = 0; i < 100; i++) {
      during = (await read(t.url)).families;
      if (valueOf(during, 'shellchat_answers_streaming') === 1) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(valueOf(during, 'shellchat_answers_streaming')).toBe(1);
    await slow;

    // A 400 is not retried: one provider error, one failed answer.
    fake.reply({ status: 400, text: 'bad request from the fake' });
    expect((await ask(SESSION + 4)).some((e) => e.type === 'error')).toBe(true);

    const { families, text } = await read(t.url);
    expect(valueOf(families, 'shellchat_answers_streaming')).toBe(0);
    expect(delta(families, 'shellchat_answers_total', { provider, outcome: 'done' })).toBe(3);
    expect(delta(families, 'shellchat_answers_total', { provider, outcome: 'failed' })).toBe(1);
    expect(delta(families, 'shellchat_tokens_relayed_total', { provider, direction: 'input' })).toBe(19);
    expect(delta(families, 'shellchat_tokens_relayed_total', { provider, direction: 'output' })).toBe(11);
    expect(delta(families, 'shellchat_answer_first_token_seconds_count', { provider })).toBe(3);
    expect(delta(families, 'shellchat_provider_errors_total', { provider, status: '400' })).toBe(1);
    // The slow answer's first token came ~0 s in, its end after two paced chunks (>= 0.5 s).
    expect(delta(families, 'shellchat_answer_duration_seconds_bucket', { provider, le: '0.5' })).toBeLessThanOrEqual(3);
    // No model name, session or text of the answers in the labels.
    expect(text).not.toMatch(/gpt-4o-mini|Hello|slow one|sk-system-key/);
  });

  it('counts a provider error that was retried, an answer stopped, and logins throttled', async () => {
    const before = (await read(t.url)).families;
    const delta = (families: Map<string, Family>, name: string, labels: Record<string, string> = {}) => valueOf(families, name, labels) - valueOf(before, name, labels);
    const provider = 'openai-compatible';
    // A 503 before the first token is retried (after 0 s, as Retry-After says): one error, one answer done.
    fake.reply({ status: 503, retryAfter: 0 });
    fake.reply({ chunks: ['ok'] });
    expect((await ask(SESSION + 5)).at(-1)).toMatchObject({ type: 'done' });

    // The reader goes away mid-answer: the answer is stopped.
    fake.reply({ chunks: ['one', ' two', ' three', ' four'], delayMs: 300 });
    const stop = new AbortController();
    await streamGeneration({ session: SESSION + 6, user_input: 'hello' } as never, (e) => e.type === 'text' && stop.abort(), { signal: stop.signal, baseUrl: t.url, fetch: t.client().raw }).catch(() => undefined);
    let families = before;
    for (let i = 0; i < 100 && delta(families, 'shellchat_answers_total', { provider, outcome: 'stopped' }) < 1; i++) {
      await new Promise((r) => setTimeout(r, 20));
      families = (await read(t.url)).families;
    }
    expect(delta(families, 'shellchat_provider_errors_total', { provider, status: '503' })).toBe(1);
    expect(delta(families, 'shellchat_answers_total', { provider, outcome: 'done' })).toBe(1);
    expect(delta(families, 'shellchat_answers_total', { provider, outcome: 'stopped' })).toBe(1);
    // The stop is no provider error.
    expect(delta(families, 'shellchat_provider_errors_total', { provider, status: 'none' })).toBe(0);
    expect(valueOf(families, 'shellchat_answers_streaming')).toBe(0);

    // Wrong passwords until the throttle answers 429: those count as throttled, the others as credentials.
    const api = t.client();
    const login = () => api.raw(`${t.url}/api/user/login`, { method: 'POST', headers: { 'content-type': 'application/json', origin: t.url }, body: JSON.stringify({ username: 'throttled-name', password: 'wrong-password-1' }) });
    const statuses: number[] = [];
    for (let i = 0; i < 30 && statuses.at(-1) !== 429; i++) statuses.push((await login()).status);
    expect(statuses.at(-1)).toBe(429);
    const after = (await read(t.url)).families;
    expect(delta(after, 'shellchat_login_failures_total', { reason: 'throttled' })).toBe(1);
    expect(delta(after, 'shellchat_login_failures_total', { reason: 'credentials' })).toBe(statuses.filter((s) => s === 401).length);
  });

  it('counts payments by outcome', async () => {
    const before = (await read(t.url)).families;
    const api = t.client();
    await api.post('/api/user/add', { username: 'payer1', email: 'payer1@example.org', password: PW });
    await api.post('/api/user/login', { username: 'payer1', password: PW });
    const order = (await api.post<{ id: string }>('/api/payment/order', { kind: 'topup', amount: 5 })).result!;
    paypal.approve(order.id);
    await api.post('/api/payment/capture', { orderId: order.id });
    const { families } = await read(t.url);
    expect(valueOf(families, 'shellchat_payments_total', { outcome: 'credited' }) - valueOf(before, 'shellchat_payments_total', { outcome: 'credited' })).toBe(1);
  });

  it('shows neither a database pool nor Redis on SQLite without REDIS_URL', async () => {
    const { families } = await read(t.url);
    expect(families.get('shellchat_db_connections')?.samples).toEqual([]);
    expect(families.get('shellchat_redis_up')?.samples).toEqual([]);
  });
});

describe('GET /metrics on its own port (METRICS_PORT)', () => {
  it('answers there, behind the token, and not on the server port', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createNetServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    const t = await startTestServer('sqlite', { METRICS_TOKEN: TOKEN, METRICS_PORT: String(port) });
    try {
      const own = `http://127.0.0.1:${port}`;
      let response = await scrape(own).catch(() => undefined);
      for (let i = 0; !response && i < 50; i++) {
        await new Promise((r) => setTimeout(r, 20));
        response = await scrape(own).catch(() => undefined);
      }
      expect(response?.status).toBe(200);
      expect(parsePrometheusText(await response!.text()).has('shellchat_http_requests_total')).toBe(true);
      expect((await scrape(own, null)).status).toBe(401);
      const publicPort = await scrape(t.url);
      expect(publicPort.status).toBe(404);
      expect(await publicPort.text()).not.toContain('shellchat_http_requests_total');
    } finally {
      await t.close();
    }
    // Closed with the server.
    await expect(fetch(`http://127.0.0.1:${port}/metrics`)).rejects.toThrow();
  });
});

// The pool's gauges on an engine with a pool (PostgreSQL or MySQL/MariaDB), and Redis, when they answer here.
const pooled = (await engines()).filter((e) => e !== 'sqlite');
describe.runIf(pooled.length > 0)('the database pool and Redis in /metrics', () => {
  it.each(pooled)('shows the %s pool, and Redis up where it answers', async (engine) => {
    const t = await startTestServer(engine, { METRICS_TOKEN: TOKEN, SECRET_KEY: 'metrics-test-secret-key', ...(redisUp ? { REDIS_URL } : {}) });
    try {
      await t.client().raw(`${t.url}/api/ping`);
      let families = (await read(t.url)).families;
      expect(valueOf(families, 'shellchat_db_connections', { engine, state: 'total' })).toBeGreaterThanOrEqual(1);
      expect(valueOf(families, 'shellchat_db_connections', { engine, state: 'waiting' })).toBe(0);
      if (!redisUp) return;
      // The client connects in the background (a Redis away at start does not hold the server back).
      for (let i = 0; i < 100 && valueOf(families, 'shellchat_redis_up', { connection: 'shared' }) !== 1; i++) {
        await new Promise((r) => setTimeout(r, 20));
        families = (await read(t.url)).families;
      }
      expect(valueOf(families, 'shellchat_redis_up', { connection: 'shared' })).toBe(1);
    } finally {
      await t.close();
    }
  }, 60_000);
});
