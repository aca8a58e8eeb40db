// The hostile cases of issue 38 over HTTP, each refused with its message and no session: a
// wrong or replayed state, a replayed code, a callback in another browser, a nonce mismatch, an
// ID token from another issuer or for another audience, expired, unsigned (alg none) or signed
// by another key, and no way to be sent to another origin after login. And two instances
// behind a round-robin proxy: the flow begun on one is finished on the other.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRoundRobin, type RoundRobin } from '../../tests/fixtures/roundRobin.ts';
import { cookieFetch } from '../../tests/harness/shellTester.ts';
import { startTestServer, type TestServer } from '../../tests/server/support.ts';
import { FLOWS_PER_ADDRESS } from './server/flow.ts';
import { startFakeOp, type FakeOp, type Lie } from '../../tests/fixtures/fakeOidc.ts';
import { callback, outcome, signOn, startAt, whoAmI } from './testing/flow.ts';
import { startOidcProvider, throughLoginForm, type TestProvider } from '../../tests/fixtures/oidcProvider.ts';

let op: TestProvider;
let liar: FakeOp;
let server: TestServer;

const providers = () =>
  JSON.stringify([
    { name: 'real', issuer: op.issuer, clientId: op.clientId, clientSecret: op.clientSecret, scopes: 'openid email profile' },
    { name: 'liar', issuer: liar.issuer, clientId: liar.clientId, clientSecret: 'liar-secret' },
  ]);

beforeAll(async () => {
  op = await startOidcProvider();
  liar = await startFakeOp();
  server = await startTestServer('sqlite', { OIDC_PROVIDERS: providers() });
  op.redirectUris.add(`${server.url}/api/sso/callback`);
}, 60_000);

afterAll(async () => {
  await server?.close();
  await op?.close();
  await liar?.close();
});

/** Asserts the browser was sent home, told `message`, and is logged in as nobody. */
async function refused(browser: ReturnType<typeof cookieFetch>, landed: Response, message: string) {
  expect(landed.status).toBe(302);
  expect(landed.headers.get('location')).toBe(`${server.url}/?sso=done`);
  expect(landed.headers.getSetCookie().some((c) => c.startsWith('auth='))).toBe(false);
  const said = await outcome(server.url, browser);
  expect(said.status).toBe(401);
  expect(said.said).toContain(message);
  expect(await whoAmI(server.url, browser)).toBeUndefined();
}

describe('several providers', () => {
  it('lists them, and a start without a name says which there are', async () => {
    const browser = cookieFetch();
    const list = (await (await browser(`${server.url}/api/sso/providers`)).json()) as { result: { providers: { name: string }[] } };
    expect(list.result.providers.map((p) => p.name)).toEqual(['real', 'liar']);
    const res = await browser(`${server.url}/api/sso/start`, { redirect: 'manual' });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe('Several identity providers are configured (real, liar): name one, as in :login sso real.');
    const unknown = await browser(`${server.url}/api/sso/start?provider=nope`, { redirect: 'manual' });
    expect(unknown.status).toBe(400);
  });
});

describe('hostile callbacks', () => {
  it('refuses a wrong state', async () => {
    op.people.set('h1', { email: 'h1@example.org', email_verified: true });
    const browser = cookieFetch();
    const back = await throughLoginForm(await startAt(server.url, browser, '?provider=real'), 'h1');
    const forged = new URL(back);
    forged.searchParams.set('state', 'forged-state');
    await refused(browser, await callback(server.url, browser, forged.href), 'This sign-on is unknown, expired or already used.');
  });

  it('refuses a replayed state, even after the first use logged in', async () => {
    op.people.set('h2', { email: 'h2@example.org', email_verified: true });
    const browser = cookieFetch();
    const first = await signOn(server.url, browser, 'h2', '?provider=real');
    expect(first.status).toBe(200);
    const thief = cookieFetch();
    await refused(thief, await callback(server.url, thief, first.back), 'This sign-on is unknown, expired or already used.');
  });

  it('refuses a replayed code under a fresh state, with the provider\'s error', async () => {
    op.people.set('h3', { email: 'h3@example.org', email_verified: true });
    const first = await signOn(server.url, cookieFetch(), 'h3', '?provider=real');
    const browser = cookieFetch();
    const fresh = new URL(await startAt(server.url, browser, '?provider=real'));
    const replay = new URL(first.back);
    replay.searchParams.set('state', fresh.searchParams.get('state')!);
    await refused(browser, await callback(server.url, browser, replay.href), 'The identity provider real refused the sign-on (invalid_grant).');
    expect(server.logs()).toContain('invalid_grant');
  });

  it('refuses a callback in another browser than the one that began the flow', async () => {
    op.people.set('h4', { email: 'h4@example.org', email_verified: true });
    const back = await throughLoginForm(await startAt(server.url, cookieFetch(), '?provider=real'), 'h4');
    const other = cookieFetch();
    await refused(other, await callback(server.url, other, back), 'This sign-on was started in another browser.');
  });

  const lies: [Lie, string][] = [
    ['nonce', 'The sign-on token could not be trusted (the nonce does not match)'],
    ['issuer', 'The sign-on token could not be trusted (the issuer does not match)'],
    ['audience', 'The sign-on token could not be trusted (the audience does not match)'],
    ['expired', "The sign-on token is not valid at this server's time"],
    ['unsigned', 'The sign-on token could not be trusted (its signature algorithm is not accepted)'],
    ['otherKey', 'The sign-on token could not be trusted (its signature does not verify)'],
  ];
  for (const [lie, message] of lies) {
    it(`refuses an ID token with ${lie === 'unsigned' ? 'alg none' : `a lie (${lie})`}`, async () => {
      liar.lie = lie;
      const browser = cookieFetch();
      const authorize = await fetch(await startAt(server.url, browser, '?provider=liar'), { redirect: 'manual' });
      await refused(browser, await callback(server.url, browser, authorize.headers.get('location')!), message);
      expect(server.logs()).toContain('sso sign-on failed');
    });
  }

  it('accepts the same provider when it tells the truth (the lies above are what was refused)', async () => {
    liar.lie = 'none';
    const browser = cookieFetch();
    const authorize = await fetch(await startAt(server.url, browser, '?provider=liar'), { redirect: 'manual' });
    const landed = await callback(server.url, browser, authorize.headers.get('location')!);
    expect(landed.headers.get('location')).toBe(`${server.url}/?sso=done`);
    expect(await outcome(server.url, browser)).toMatchObject({ status: 200, username: 'hostile' });
  });

  it('never sends the browser to another origin after login', async () => {
    op.people.set('h5', { email: 'h5@example.org', email_verified: true });
    const browser = cookieFetch();
    const back = await throughLoginForm(await startAt(server.url, browser, '?provider=real&return=https://evil.example/&redirect_uri=https://evil.example/'), 'h5');
    expect(new URL(back).origin).toBe(server.url);
    const withNext = new URL(back);
    withNext.searchParams.set('next', 'https://evil.example/');
    const landed = await browser(`${server.url}${withNext.pathname}${withNext.search}`, { redirect: 'manual', headers: { host: 'evil.example' } });
    expect(landed.headers.get('location')).toBe(`${server.url}/?sso=done`);
    expect(await whoAmI(server.url, browser)).toBe('h5');
  });

  it('bounds the sign-ons under way from one address: the next start is refused until one ends', async () => {
    const starts: number[] = [];
    for (let i = 0; i < 30 && !starts.includes(429); i++) starts.push((await cookieFetch()(`${server.url}/api/sso/start?provider=liar`, { redirect: 'manual' })).status);
    expect(starts.at(-1)).toBe(429);
    const open = await server.server.db.db.selectFrom('sso_flows' as never).select((eb) => eb.fn.countAll<number>().as('n')).where('used_at' as never, 'is', null).executeTakeFirstOrThrow();
    expect(Number(open.n)).toBe(FLOWS_PER_ADDRESS);
    const refusedStart = await cookieFetch()(`${server.url}/api/sso/start?provider=liar`, { redirect: 'manual' });
    expect(refusedStart.status).toBe(429);
    expect(((await refusedStart.json()) as { error: string }).error).toBe('Too many sign-ons are under way from this address. Finish one, or try again in 10 minutes.');
  });

  it('refuses a start that another site sent the browser to', async () => {
    const res = await cookieFetch()(`${server.url}/api/sso/start?provider=real`, { redirect: 'manual', headers: { 'sec-fetch-site': 'cross-site' } });
    expect(res.status).toBe(403);
  });
});

describe('two instances behind a round-robin proxy', () => {
  let a: TestServer;
  let b: TestServer;
  let proxy: RoundRobin;
  beforeAll(async () => {
    const shared = { DATA_DIR: mkdtempSync(path.join(tmpdir(), 'shellchat-sso-')), SECRET_KEY: 'sso-two-instances-secret', OIDC_PROVIDERS: providers() };
    a = await startTestServer('sqlite', shared);
    b = await startTestServer('sqlite', shared);
    proxy = await startRoundRobin([a.url, b.url], '127.0.0.1');
    op.redirectUris.add(`${proxy.url}/api/sso/callback`);
  }, 60_000);
  afterAll(async () => {
    await proxy?.close();
    await a?.close();
    await b?.close();
  });

  it('starts the flow on one and finishes it on the other', async () => {
    op.people.set('twice', { email: 'twice@example.org', email_verified: true, preferred_username: 'twice' });
    const browser = cookieFetch();
    const back = await throughLoginForm(await startAt(proxy.url, browser, '?provider=real'), 'twice');
    const landed = await callback(proxy.url, browser, back);
    expect(landed.headers.get('location')).toBe(`${proxy.url}/?sso=done`);
    const starts = proxy.paths.map((p, i) => [p, proxy.served[i]] as const);
    const startedOn = starts.find(([p]) => p.startsWith('/api/sso/start'))![1];
    const finishedOn = starts.find(([p]) => p.startsWith('/api/sso/callback'))![1];
    expect(finishedOn).not.toBe(startedOn);
    expect(await outcome(proxy.url, browser)).toMatchObject({ status: 200, username: 'twice' });
  });
});
