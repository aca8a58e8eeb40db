// Issue 34, item 3: anonymous quotas reset by dropping a cookie. A visitor over the question
// limit, or over the upload quota, was served again with no `device` cookie (14 uploads of 10 MB
// with fresh cookies filled 205 MB in 4 s). A visitor's limits are now counted per address as
// well (behind TRUST_PROXY the address the proxy forwarded, not one the client wrote; an IPv6
// address by its /64), and all visitors' uploads together have a cap on the server. What is
// stored is a keyed hash of the address, never the address.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fakeOpenAI.ts';
import { engines, startTestServer, type TestServer } from '../server/support.ts';

const MB = 1024 * 1024;
const DEVICE_LIMIT = /^The usage limitation has been reached\. Sign up with :user add /;

describe.each(await engines())('visitors counted by address, on %s', (engine) => {
  let fake: FakeOpenAI;
  let t: TestServer;
  const session = () => Date.now() - Math.floor(Math.random() * 1_000_000_000);
  type Client = ReturnType<TestServer['client']>;
  const from = (address: string) => ({ 'x-forwarded-for': address });
  /** A question from `client` at `address`: its status and error. */
  const ask = async (client: Client, address: string | Record<string, string>) => {
    const headers = { 'content-type': 'application/json', ...(typeof address === 'string' ? from(address) : address) };
    const r = await client.raw(`${t.url}/api/generate`, { method: 'POST', headers, body: JSON.stringify({ session: session(), user_input: 'hello' }) });
    const body = (await r.json()) as { error?: string };
    return { status: r.status, error: body.error };
  };
  const presign = async (client: Client, address: string) => {
    const query = new URLSearchParams({ fileName: 'notes.txt', contentType: 'text/plain' });
    const r = await client.raw(`${t.url}/api/file/generate-presigned-url?${query}`, { headers: from(address) });
    return { status: r.status, body: (await r.json()) as { result?: { url: string }; code?: string; error?: string } };
  };
  const put = async (client: Client, url: string, address: string) => {
    const r = await client.raw(url, { method: 'PUT', headers: { 'content-type': 'text/plain', ...from(address) }, body: Buffer.alloc(MB, 97) });
    return { status: r.status, body: (await r.json()) as { code?: string; error?: string } };
  };
  /** 14 browsers with fresh cookies at `address` presign an upload each, then all PUT 1 MB at once. */
  const fourteenUploads = async (address: string) => {
    const clients = Array.from({ length: 14 }, () => t.client());
    const signed = await Promise.all(clients.map((c) => presign(c, address)));
    for (const s of signed) expect(s.status, JSON.stringify(s.body)).toBe(200);
    return Promise.all(clients.map((c, i) => put(c, signed[i]!.body.result!.url, address)));
  };
  const visitorBytes = async () =>
    Number((await t.server.db.db.selectFrom('uploads').select((eb) => eb.fn.sum<number | string | null>('size').as('bytes')).where('user_id', 'is', null).executeTakeFirst())?.bytes ?? 0);

  beforeAll(async () => {
    fake = await startFakeOpenAI();
    fake.always({ text: 'ok', firstDelayMs: 100 });
    t = await startTestServer(engine, {
      MODEL: 'gpt-4o-mini',
      OPENAI_BASE_URL: fake.url,
      OPENAI_API_KEY: 'sk-test',
      TRUST_PROXY: 'true',
      USAGE_LIMITS: 'anonymous:2,-,-',
      VISITORS_PER_ADDRESS: '2',
      UPLOAD_QUOTA_MB: '3',
      UPLOAD_ADDRESS_QUOTA_MB: '5',
      UPLOAD_ANONYMOUS_TOTAL_MB: '8',
    });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  it('does not serve a visitor over the question limit again for dropping the cookie, nor for writing another address before the proxy’s', async () => {
    const before = fake.requests.length;
    const visitor = t.client();
    expect((await ask(visitor, '203.0.113.10')).status).toBe(200);
    expect((await ask(visitor, '203.0.113.10')).status).toBe(200);
    expect((await ask(visitor, '203.0.113.10')).error).toMatch(DEVICE_LIMIT);
    // Without the cookie: the address's share (2 visitors' worth) is what is left, then nothing.
    expect((await ask(t.client(), '203.0.113.10')).status).toBe(200);
    expect((await ask(t.client(), '203.0.113.10')).status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await ask(t.client(), '203.0.113.10')).error).toMatch(DEVICE_LIMIT);
    // The proxy appends the address it saw; what the client wrote before it is not believed.
    expect((await ask(t.client(), { 'x-forwarded-for': '198.51.100.77, 203.0.113.10' })).error).toMatch(DEVICE_LIMIT);
    expect(fake.requests.length - before).toBe(4);
    // Another address is another count.
    expect((await ask(t.client(), '203.0.113.11')).status).toBe(200);
    // The table holds a keyed hash of the address, never the address.
    const rows = await t.server.db.db.selectFrom('usage').select('address').where('user_id', 'is', null).execute();
    expect(rows.length).toBeGreaterThanOrEqual(5);
    for (const { address } of rows) expect(address).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(new Set(rows.map((r) => r.address)).size).toBe(2);
  }, 30_000);

  it('counts an IPv6 visitor by the /64, so rotating through it does not help', async () => {
    const before = fake.requests.length;
    const answers = [];
    for (let i = 1; i <= 6; i++) answers.push((await ask(t.client(), `2001:db8:7:7::${i.toString(16)}`)).status);
    expect(answers).toEqual([200, 200, 200, 200, 400, 400]);
    expect(fake.requests.length - before).toBe(4);
  }, 30_000);

  it('lets 4 of 20 questions sent at once with fresh cookies from one address through', async () => {
    const before = fake.requests.length;
    const answers = await Promise.all(Array.from({ length: 20 }, () => ask(t.client(), '203.0.113.12')));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(4);
    expect(fake.requests.length - before).toBe(4);
  }, 30_000);

  it('keeps 14 uploads sent at once with fresh cookies within the address’s quota, and all visitors within the server’s cap', async () => {
    const start = await visitorBytes();
    expect(start).toBe(0);
    const first = await fourteenUploads('203.0.113.20');
    expect(first.filter((r) => r.status === 200)).toHaveLength(5);
    for (const r of first.filter((r) => r.status !== 200)) {
      expect(r).toEqual({
        status: 400,
        body: {
          success: false,
          error: 'Uploads from visitors without an account at this address have reached their limit of 5 MB. Sign up or log in to upload more.',
          code: 'core.uploadAddressQuota',
          params: { mb: 5 },
        },
      });
    }
    expect(await visitorBytes()).toBe(5 * MB);
    // Another address: its own quota, until all visitors together hold the server's 8 MB.
    const second = await fourteenUploads('203.0.113.21');
    expect(second.filter((r) => r.status === 200)).toHaveLength(3);
    const full = 'This server takes no more uploads from visitors without an account. Sign up or log in to upload.';
    for (const r of second.filter((r) => r.status !== 200)) expect(r.body).toMatchObject({ code: 'core.uploadVisitorsFull', error: full });
    expect(await visitorBytes()).toBe(8 * MB);
    // A third address is told at once, before it sends anything.
    expect(await presign(t.client(), '203.0.113.22')).toEqual({ status: 403, body: { success: false, error: full, code: 'core.uploadVisitorsFull', params: {} } });
    // The uploads' rows hold keyed hashes too.
    for (const { address } of await t.server.db.db.selectFrom('uploads').select('address').where('user_id', 'is', null).execute()) expect(address).toMatch(/^[A-Za-z0-9_-]{22}$/);
    // A user's uploads are the user's quota, not the visitors'.
    await t.server.accounts.create({ username: 'uploader', email: 'uploader@example.org', password: 'uploader-password' });
    const user = t.client();
    await user.post('/api/user/login', { username: 'uploader', password: 'uploader-password' });
    const signed = await presign(user, '203.0.113.20');
    expect((await put(user, signed.body.result!.url, '203.0.113.20')).status).toBe(200);
  }, 60_000);
});
