// Requests another site's page makes a logged-in browser send (issue 34, item 1), over real
// HTTP with the headers a browser sends for each: nothing that spends or writes runs from
// them, whatever the method. A question asked so reaches no provider and writes no log and no
// usage row; the same requests from the app's own page, the CLI or curl still work.
// The browser itself sends them in crossSite.browser.test.ts.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fakeOpenAI.ts';
import { startTestServer, type TestServer } from '../server/support.ts';

const REFUSED = { success: false, error: 'Cross-origin request refused.', code: 'core.crossOrigin', params: {} };
const ALLOWED = 'https://app.example.org';
const SESSION = 1_800_000_000_000;

let fake: FakeOpenAI;
let t: TestServer;
let cookie: string;
let userId: number;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  t = await startTestServer('sqlite', { MODEL: 'gpt-4o-mini', OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'sk-system', ALLOWED_ORIGINS: ALLOWED });
  const api = t.client();
  await api.post('/api/user/add', { username: 'victim', email: 'victim@example.org', password: 'victim-pass-1234' });
  await api.post('/api/user/login', { username: 'victim', password: 'victim-pass-1234' });
  cookie = `auth=${api.cookies.get('auth')!}`;
  userId = (await t.server.accounts.byUsername('victim'))!.id;
}, 60_000);
afterAll(async () => {
  await t?.close();
  await fake?.close();
});
beforeEach(() => fake.reset());

const count = async (table: 'logs' | 'usage' | 'uploads') =>
  Number((await t.server.db.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
const written = async () => ({ logs: await count('logs'), usage: await count('usage'), provider: fake.requests.length });
const question = (input: string, session = SESSION) => `${t.url}/api/generate_sse?${new URLSearchParams({ user_input: input, session: String(session) })}`;

// What Chromium sends for a top-level navigation (a link, a form GET, `location = ...`) and for an <img>.
const navigation = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' };
const image = { accept: 'image/avif,image/webp,image/apng,image/*,*/*;q=0.8', 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'image' };

describe('GET /api/generate_sse from another site', () => {
  const attacks: [string, Record<string, string>][] = [
    ['a link or form GET on another site (Sec-Fetch-Site: cross-site)', { ...navigation, 'sec-fetch-site': 'cross-site' }],
    ['an <img> on another site', { ...image, 'sec-fetch-site': 'cross-site' }],
    ['a page of the same site on another port or subdomain (same-site, no Origin)', { ...navigation, 'sec-fetch-site': 'same-site' }],
    ['an <img> of the same site, which carries the Lax cookie', { ...image, 'sec-fetch-site': 'same-site' }],
    ['a link opened from a mail program or typed (Sec-Fetch-Site: none)', { ...navigation, 'sec-fetch-site': 'none' }],
    ['a CORS request from another origin', { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site', accept: 'text/event-stream' }],
    ['a sandboxed frame (Origin: null)', { origin: 'null', 'sec-fetch-site': 'cross-site', accept: 'text/event-stream' }],
    ['a same-site subdomain the operator did not allow', { origin: 'https://evil.app.example.org', 'sec-fetch-site': 'same-site', accept: 'text/event-stream' }],
    ['an old browser (no Sec-Fetch-Site) following a link: its Referer', { accept: navigation.accept, referer: 'https://evil.example/page' }],
    ['an old browser whose page withheld the Referer (a navigation asks for HTML)', { accept: navigation.accept }],
    ['an old browser\'s <img> without a Referer', { accept: image.accept }],
  ];

  it.each(attacks)('is refused: %s; nothing reaches the provider, nothing is written', async (_, headers) => {
    const before = await written();
    const response = await fetch(question('Spend my balance'), { headers: { cookie, ...headers } });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual(REFUSED);
    // Wait past where a question would have reached the provider.
    await new Promise((r) => setTimeout(r, 100));
    expect(await written()).toEqual(before);
  });

  it('is refused as HEAD too (Hono answers HEAD with the GET route)', async () => {
    const before = await written();
    const response = await fetch(question('head'), { method: 'HEAD', headers: { cookie, ...navigation, 'sec-fetch-site': 'cross-site' } });
    expect(response.status).toBe(403);
    await new Promise((r) => setTimeout(r, 100));
    expect(await written()).toEqual(before);
  });

  const allowed: [string, () => Record<string, string>][] = [
    ["the app's own page (an EventSource or fetch: same-origin)", () => ({ accept: 'text/event-stream', 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors' })],
    ['an origin the operator allowed (ALLOWED_ORIGINS)', () => ({ origin: ALLOWED, 'sec-fetch-site': 'same-site', accept: 'text/event-stream' })],
    ['the CLI or curl (none of those headers)', () => ({ accept: '*/*' })],
    ['an old browser on a page of ours (its Referer)', () => ({ accept: 'text/event-stream', referer: `${t.url}/` })],
  ];

  it.each(allowed)('still answers %s, and writes the log and its usage', async (_, headers) => {
    const before = await written();
    const response = await fetch(question('hello', SESSION + before.logs + 1), { headers: { cookie, ...headers() } });
    expect(response.status).toBe(200);
    expect(await response.text()).toMatch(/event: done\n/);
    expect(await written()).toEqual({ logs: before.logs + 1, usage: before.usage + 1, provider: before.provider + 1 });
    const last = await t.server.db.db.selectFrom('logs').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(last.user_id).toBe(userId);
  });
});

describe('POST from another site (the attacks that held, kept)', () => {
  const json = JSON.stringify({ user_input: 'Spend my balance', session: SESSION + 99 });
  const attacks: [string, string, RequestInit][] = [
    ['a form POST (urlencoded) to /api/generate_sse', '/api/generate_sse', { headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' }, body: 'user_input=x&session=1800000000099' }],
    ['a text/plain POST carrying JSON to /api/generate_sse', '/api/generate_sse', { headers: { 'content-type': 'text/plain', origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' }, body: json }],
    ['a text/plain POST carrying JSON to /api/generate', '/api/generate', { headers: { 'content-type': 'text/plain', origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' }, body: json }],
    ['Origin: null (a sandboxed frame) to /api/generate', '/api/generate', { headers: { 'content-type': 'application/json', origin: 'null' }, body: json }],
    ['Sec-Fetch-Site: cross-site without Origin to /api/generate_msg', '/api/generate_msg', { headers: { 'content-type': 'application/json', 'sec-fetch-site': 'cross-site' }, body: json }],
    ["an old browser's form POST without Origin, its Referer another site's", '/api/generate', { headers: { 'content-type': 'text/plain', referer: 'https://evil.example/form' }, body: json }],
  ];

  it.each(attacks)('refuses %s', async (_, path, init) => {
    const before = await written();
    const response = await fetch(`${t.url}${path}`, { method: 'POST', ...init, headers: { cookie, ...(init.headers as Record<string, string>) } });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual(REFUSED);
    await new Promise((r) => setTimeout(r, 100));
    expect(await written()).toEqual(before);
  });
});

describe('the other GETs that spend or write', () => {
  const crossSite = { ...navigation, 'sec-fetch-site': 'cross-site' };

  it('refuses a presigned URL (an upload row) asked for by another site, and still gives one to the page', async () => {
    const query = new URLSearchParams({ fileName: 'a.txt', contentType: 'text/plain' });
    const url = `${t.url}/api/file/generate-presigned-url?${query}`;
    const before = await count('uploads');
    for (const headers of [crossSite, { ...image, 'sec-fetch-site': 'same-site' }, { ...navigation, 'sec-fetch-site': 'none' }, { accept: navigation.accept, referer: 'https://evil.example/' }]) {
      const response = await fetch(url, { headers: { cookie, ...headers } });
      expect(response.status, JSON.stringify(headers)).toBe(403);
      expect(await response.json()).toEqual(REFUSED);
    }
    expect(await count('uploads')).toBe(before);
    expect((await fetch(url, { headers: { cookie, 'sec-fetch-site': 'same-origin' } })).status).toBe(200);
    expect(await count('uploads')).toBe(before + 1);
  });

  it("keeps the logged-in user's e-mail subscription from another site's link, not from their own page", async () => {
    const url = `${t.url}/api/user/update/email-subscription?${new URLSearchParams({ email: 'victim@example.org', email_subscription: '0' })}`;
    const subscribed = async () => Number((await t.server.accounts.byUsername('victim'))!.email_subscription);
    const before = await subscribed();
    expect(before).toBe(1);
    const response = await fetch(url, { headers: { cookie, ...crossSite } });
    expect(response.status).toBe(403);
    expect(await subscribed()).toBe(1);
    expect((await fetch(url, { headers: { cookie, 'sec-fetch-site': 'same-origin' } })).status).toBe(200);
    expect(await subscribed()).toBe(0);
  });

  it('refuses the subscription status (which credits approved PayPal orders) to another site', async () => {
    const url = `${t.url}/api/subscription/status`;
    const response = await fetch(url, { headers: { cookie, ...crossSite } });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual(REFUSED);
    expect((await fetch(url, { headers: { cookie, 'sec-fetch-site': 'same-origin' } })).status).toBe(200);
  });

  it('leaves reading GETs and the links from our own mail open to other sites', async () => {
    // Reading is not a write: another site's link to a list shows the user their own list.
    expect((await fetch(`${t.url}/api/model/list`, { headers: { cookie, ...crossSite } })).status).toBe(200);
    // A verification link is opened from a webmail (cross-site): its token is the capability.
    const verify = await fetch(`${t.url}/api/user/verify-email?token=not-a-token`, { headers: crossSite });
    expect(verify.status).toBe(400);
    expect(await verify.text()).toContain('<html');
  });
});
