// The server's own defences over real HTTP (security.md §6 #11, #15, #16, #20): no secret in
// the logs, cross-origin writes refused, body limits and validation, the Secure cookie behind a
// TLS proxy, login throttling per address, security headers, and the JSON 404.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublicUser } from '../../src/core/index.ts';
import { startTestServer, type TestServer } from '../server/support.ts';

const ROOT_PASSWORD = 'root-password-1';
let t: TestServer;

beforeAll(async () => {
  t = await startTestServer('sqlite', { ROOT_PASSWORD });
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const post = (base: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });

/** A user signed up and logged in; returns the client and its cookie header. */
async function signup(username: string, password = `pw-${username}-1234`) {
  const api = t.client();
  await api.post('/api/user/add', { username, email: `${username}@example.org`, password });
  await api.post('/api/user/login', { username, password });
  return { api, password, cookie: `auth=${api.cookies.get('auth')!}` };
}

describe('logs', () => {
  it('never carry passwords, group passwords, login tokens or cookie headers', async () => {
    const secrets: string[] = [ROOT_PASSWORD];
    const cookies: string[] = [];
    const keep = (api: { cookies: Map<string, string> }) => {
      const token = api.cookies.get('auth');
      if (token) {
        secrets.push(token);
        cookies.push(`auth=${token}`);
      }
    };

    // Sign-ups: one with a password, one with a generated password.
    const owner = t.client();
    await owner.post('/api/user/add', { username: 'logowner', email: 'logowner@example.org', password: 'owner-secret-pass-1' });
    secrets.push('owner-secret-pass-1');
    const generated = await t.client().post<{ password: string }>('/api/user/add', { username: 'loggen', email: 'loggen@example.org' });
    secrets.push(generated.result!.password);

    // Logins, good and bad.
    await owner.post('/api/user/login', { username: 'logowner', password: 'owner-secret-pass-1' });
    keep(owner);
    const bad = await post(t.url, '/api/user/login', { username: 'logowner', password: 'wrong-secret-pass-2' });
    expect(bad.status).toBe(401);
    secrets.push('wrong-secret-pass-2');
    const root = t.client();
    await root.post('/api/user/login', { username: 'root', password: ROOT_PASSWORD });
    keep(root);

    // A password change, with the cookie header sent.
    await owner.post('/api/user/update/password', { password: 'owner-secret-pass-3' });
    secrets.push('owner-secret-pass-3');

    // A group join with the owner's group password.
    const groupPassword = String((await owner.get<PublicUser>('/api/user/info')).result!.settings.groupPassword);
    secrets.push(groupPassword);
    const member = t.client();
    await member.post('/api/user/add', { username: 'logmember', email: 'logmember@example.org', password: 'member-secret-pass-4' });
    secrets.push('member-secret-pass-4');
    await member.post('/api/user/login', { username: 'logmember', password: 'member-secret-pass-4' });
    keep(member);
    await member.post('/api/user/group/join', { group: 'logowner', password: groupPassword });
    const wrongJoin = await post(t.url, '/api/user/group/join', { group: 'logowner', password: 'wrong-group-secret' }, { cookie: cookies.at(-1)! });
    expect(wrongJoin.status).toBe(403);
    secrets.push('wrong-group-secret');

    // A failed login for a user that does not exist, with a cookie header.
    const failed = await post(t.url, '/api/user/login', { username: 'nobody-here', password: 'nobody-secret-pass-5' }, { cookie: cookies[0]! });
    expect(failed.status).toBe(401);
    secrets.push('nobody-secret-pass-5');

    const logs = t.logs();
    // The actions were logged (so the search below searched something)...
    expect(logs).toMatch(/"msg":"login failed"/);
    expect(logs).toMatch(/"msg":"password changed"/);
    expect(logs).toMatch(/"path":"\/api\/user\/group\/join"/);
    // ...and none of the secrets was.
    expect(secrets.length).toBeGreaterThanOrEqual(12);
    for (const secret of [...new Set([...secrets, ...cookies])]) expect(logs, `log holds ${secret}`).not.toContain(secret);
  });
});

describe('cross-origin writes', () => {
  const theme = async (username: string) => t.server.accounts.settings.normalize((await t.server.accounts.byUsername(username))!.settings).theme;

  it('refuses a foreign Origin with 403 and changes nothing', async () => {
    const { cookie } = await signup('csrf1');
    for (const origin of ['https://evil.example', 'http://127.0.0.1.evil.example', 'null']) {
      const res = await post(t.url, '/api/user/update/setting', { key: 'theme', value: 'dark' }, { cookie, origin });
      expect(res.status, origin).toBe(403);
      expect(await res.json()).toEqual({ success: false, error: 'Cross-origin request refused.', code: 'core.crossOrigin', params: {} });
    }
    const deleted = await post(t.url, '/api/user/delete', { username: 'csrf1' }, { cookie, origin: 'https://evil.example' });
    expect(deleted.status).toBe(403);
    expect(await t.server.accounts.byUsername('csrf1')).toBeDefined();
    expect(await theme('csrf1')).toBe('light');
  });

  it("accepts the server's own origin", async () => {
    const { cookie } = await signup('csrf2');
    const res = await post(t.url, '/api/user/update/setting', { key: 'theme', value: 'dark' }, { cookie, origin: t.url });
    expect(res.status).toBe(200);
    expect(await theme('csrf2')).toBe('dark');
  });

  it('accepts a request without Origin (the CLI)', async () => {
    const { cookie } = await signup('csrf3');
    const res = await post(t.url, '/api/user/update/setting', { key: 'theme', value: 'terminal' }, { cookie });
    expect(res.status).toBe(200);
    expect(await theme('csrf3')).toBe('terminal');
  });

  it('refuses Sec-Fetch-Site: cross-site without Origin, and changes nothing', async () => {
    const { cookie } = await signup('csrf4');
    const res = await post(t.url, '/api/user/update/setting', { key: 'theme', value: 'dark' }, { cookie, 'sec-fetch-site': 'cross-site' });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ success: false, error: 'Cross-origin request refused.', code: 'core.crossOrigin', params: {} });
    expect(await theme('csrf4')).toBe('light');
  });
});

describe('request bodies', () => {
  // Three large bodies in a row over fetch's pooled keep-alive connections: the answer to an
  // oversized body must not leave a half-read connection that breaks the next request.
  it("answers 413 'The request is too large.' to a JSON body over 1 MB, with or without Content-Length", async () => {
    const body = JSON.stringify({ username: 'someone', password: 'x'.repeat(1024 * 1024) });
    const sized = await post(t.url, '/api/user/login', body);
    expect(sized.status).toBe(413);
    expect(await sized.json()).toEqual({ success: false, error: 'The request is too large.', code: 'core.tooLarge', params: {} });
    const bytes = new TextEncoder().encode(body);
    const chunked = await fetch(`${t.url}/api/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: new ReadableStream({
        start(controller) {
          for (let i = 0; i < bytes.length; i += 64 * 1024) controller.enqueue(bytes.slice(i, i + 64 * 1024));
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(413);
    expect(await chunked.json()).toEqual({ success: false, error: 'The request is too large.', code: 'core.tooLarge', params: {} });
    // Just under the limit is read (and refused for its content, not its size).
    const under = await post(t.url, '/api/user/login', JSON.stringify({ username: 'someone', password: 'x', pad: 'y'.repeat(1024 * 1024 - 100) }));
    expect(under.status).toBe(401);
  });

  it("answers 400 'The request body must be JSON.' to a body that is not JSON", async () => {
    for (const [body, type] of [
      ['username=a&password=b', 'application/x-www-form-urlencoded'],
      ['{"username": "a",', 'application/json'],
      ['', 'application/json'],
    ]) {
      const res = await post(t.url, '/api/user/login', body!, { 'content-type': type! });
      expect(res.status, body).toBe(400);
      expect(await res.json()).toEqual({ success: false, error: 'The request body must be JSON.', code: 'core.notJson', params: {} });
    }
  });

  it('answers 400 naming the field when the body fails validation', async () => {
    const wrongType = await post(t.url, '/api/user/login', { username: 5, password: 'x' });
    expect(wrongType.status).toBe(400);
    expect((await wrongType.json()).error).toMatch(/^Invalid username: /);
    const missing = await post(t.url, '/api/user/login', { username: 'a' });
    expect(missing.status).toBe(400);
    expect((await missing.json()).error).toMatch(/^Invalid password: /);
    const { cookie } = await signup('zodder');
    const amount = await post(t.url, '/api/user/update/balance', { amount: 'lots' }, { cookie });
    expect(amount.status).toBe(400);
    expect((await amount.json()).error).toMatch(/^Invalid amount: /);
  });
});

describe('the login cookie behind a proxy', () => {
  const login = (base: string, headers: Record<string, string>) =>
    post(base, '/api/user/login', { username: 'root', password: ROOT_PASSWORD }, headers).then((res) => {
      expect(res.status).toBe(200);
      return res.headers.getSetCookie().find((c) => c.startsWith('auth='))!;
    });

  it('is Secure with TRUST_PROXY=true and X-Forwarded-Proto: https, and not otherwise', async () => {
    const proxied = await startTestServer('sqlite', { ROOT_PASSWORD, TRUST_PROXY: 'true' });
    try {
      expect(await login(proxied.url, { 'x-forwarded-proto': 'https' })).toMatch(/;\s*Secure/i);
      expect(await login(proxied.url, {})).not.toMatch(/Secure/i);
      expect(await login(proxied.url, { 'x-forwarded-proto': 'http' })).not.toMatch(/Secure/i);
    } finally {
      await proxied.close();
    }
    // Without TRUST_PROXY the header is not believed.
    expect(await login(t.url, { 'x-forwarded-proto': 'https' })).not.toMatch(/Secure/i);
  }, 30_000);
});

describe('login throttling per address', () => {
  it('answers 429 with Retry-After after 20 failed logins for different usernames', async () => {
    // A server of its own, so no earlier failure counts; X-Forwarded-For is not believed here.
    const own = await startTestServer('sqlite', { ROOT_PASSWORD });
    try {
      for (let i = 0; i < 20; i++) {
        const res = await post(own.url, '/api/user/login', { username: `guess${i}`, password: 'wrong-password' }, { 'x-forwarded-for': `198.51.100.${i}` });
        expect(res.status, `attempt ${i + 1}`).toBe(401);
      }
      // Even the right password for another account is refused now, from this address.
      const refused = await post(own.url, '/api/user/login', { username: 'root', password: ROOT_PASSWORD }, { 'x-forwarded-for': '198.51.100.200' });
      expect(refused.status).toBe(429);
      expect((await refused.json()).error).toMatch(/^Too many failed logins/);
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(15 * 60);
      expect(own.logs()).not.toContain(ROOT_PASSWORD);
    } finally {
      await own.close();
    }
  }, 30_000);

  it('counts per forwarded address behind TRUST_PROXY', async () => {
    const proxied = await startTestServer('sqlite', { ROOT_PASSWORD, TRUST_PROXY: 'true' });
    try {
      for (let i = 0; i < 20; i++) {
        expect((await post(proxied.url, '/api/user/login', { username: `guess${i}`, password: 'wrong-password' }, { 'x-forwarded-for': '203.0.113.7' })).status).toBe(401);
      }
      expect((await post(proxied.url, '/api/user/login', { username: 'guess99', password: 'wrong-password' }, { 'x-forwarded-for': '203.0.113.7' })).status).toBe(429);
      // Another client address is not held back.
      expect((await post(proxied.url, '/api/user/login', { username: 'root', password: ROOT_PASSWORD }, { 'x-forwarded-for': '203.0.113.8' })).status).toBe(200);
    } finally {
      await proxied.close();
    }
  }, 30_000);
});

describe('security headers', () => {
  it('are on every API response, errors included', async () => {
    const responses = {
      ok: await fetch(`${t.url}/api/ping`),
      unauthorized: await fetch(`${t.url}/api/user/info`),
      notFound: await fetch(`${t.url}/api/no-such-route`),
      crossOrigin: await post(t.url, '/api/user/logout', {}, { origin: 'https://evil.example' }),
      invalid: await post(t.url, '/api/user/login', 'not json'),
      tooLarge: await post(t.url, '/api/user/login', 'x'.repeat(1024 * 1024 + 1)),
    };
    expect(Object.fromEntries(Object.entries(responses).map(([k, r]) => [k, r.status]))).toEqual({ ok: 200, unauthorized: 401, notFound: 404, crossOrigin: 403, invalid: 400, tooLarge: 413 });
    for (const [name, res] of Object.entries(responses)) {
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp, name).toContain("default-src 'self'");
      expect(csp, name).toContain("frame-ancestors 'none'");
      expect(csp, name).toContain("object-src 'none'");
      expect(res.headers.get('x-content-type-options'), name).toBe('nosniff');
      expect(res.headers.get('x-frame-options'), name).toBe('DENY');
      expect(res.headers.get('access-control-allow-origin'), name).toBeNull();
    }
  });
});

describe('unknown API routes', () => {
  it("answer JSON 404 'Resource not found.'", async () => {
    const { cookie } = await signup('lost');
    const tries = [
      fetch(`${t.url}/api/nothing`),
      fetch(`${t.url}/api/user/nothing/here?x=1`),
      fetch(`${t.url}/api/user/login`), // a known path with the wrong method
      post(t.url, '/api/user/nothing', {}, { cookie }),
      fetch(`${t.url}/api/user/delete`, { method: 'DELETE', headers: { cookie } }),
    ];
    for (const res of await Promise.all(tries)) {
      expect(res.status, res.url).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await res.json()).toEqual({ success: false, error: 'Resource not found.', code: 'core.notFound', params: {} });
    }
  });
});
