// Sign-on against a real OpenID provider (oidc-provider on loopback) through the real server
// over HTTP: the first sign-on creates the account, the next logs in, group rules map and are
// taken back, an unverified e-mail does not link, closed sign-up refuses, `:user sso link`
// links, root's `:sso test` shows claims and no token, and a password login can be closed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditRecord } from '../../src/core/index.ts';
import { cookieFetch, createShellTester } from '../../tests/harness/shellTester.ts';
import { engines, startTestServer, type TestServer } from '../../tests/server/support.ts';
import { startOidcProvider, type TestProvider } from '../../tests/fixtures/oidcProvider.ts';
import { outcome, signOn, whoAmI } from './testing/flow.ts';

let op: TestProvider;
let server: TestServer;

const envFor = (op: TestProvider, extra: Record<string, string> = {}) => ({
  OIDC_ISSUER: op.issuer,
  OIDC_CLIENT_ID: op.clientId,
  OIDC_CLIENT_SECRET: op.clientSecret,
  OIDC_SCOPES: 'openid email profile groups',
  OIDC_GROUP_RULES: 'admins=role:super_user,eng=group:engineering',
  ...extra,
});

async function login(base: string, username: string, password: string) {
  const browser = cookieFetch();
  const res = await browser(`${base}/api/user/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password }) });
  return { browser, status: res.status, body: (await res.json()) as { error?: string } };
}

beforeAll(async () => {
  op = await startOidcProvider();
});
afterAll(async () => {
  await op?.close();
});

for (const engine of await engines()) describe(`on ${engine}`, () => {
  beforeAll(async () => {
    server = await startTestServer(engine, envFor(op, { OIDC_LOCAL_LOGIN: 'keeper', OIDC_LOCAL_SIGNUP: 'false' }));
    op.redirectUris.add(`${server.url}/api/sso/callback`);
  }, 60_000);

  afterAll(async () => {
    await server?.close();
  });

  describe('signing on with the real provider', () => {
    it('creates the account at the first sign-on, logs in at the next, and the page says who', async () => {
      op.people.set('alice-sub', { email: 'alice@example.org', email_verified: true, preferred_username: 'alice' });
      const first = cookieFetch();
      const done = await signOn(server.url, first, 'alice-sub');
      expect(done.landed.status).toBe(302);
      expect(done.landed.headers.get('location')).toBe(`${server.url}/?sso=done`);
      expect(done).toMatchObject({ status: 200, said: 'Logged in as alice through default.', username: 'alice' });
      expect(await whoAmI(server.url, first)).toBe('alice');
      // `:user` names the linked identity (the account's profile lines).
      const info = (await (await first(`${server.url}/api/user/info`)).json()) as { result: { profile: unknown[] } };
      expect(info.result.profile).toEqual([{ ns: 'sso', label: 'info.identity', value: 'default (alice@example.org)' }]);
      // Said once: a reload does not say it again.
      expect((await outcome(server.url, first)).status).toBe(404);

      const second = cookieFetch();
      expect(await signOn(server.url, second, 'alice-sub')).toMatchObject({ status: 200, username: 'alice' });
      const rows = await server.server.db.db.selectFrom('users').select('username').where('email', '=', 'alice@example.org').execute();
      expect(rows).toEqual([{ username: 'alice' }]);
      // The provider's tokens are not the session: nothing of them is kept.
      expect(server.logs()).not.toMatch(/eyJ[\w-]+\.eyJ/);
    });

    it('maps group claims to a role and a group, and takes them back when the provider does', async () => {
      const owner = cookieFetch();
      // The shellchat group 'engineering' is an account's own group.
      op.people.set('eng-sub', { email: 'engineering@example.org', email_verified: true, preferred_username: 'engineering' });
      await signOn(server.url, owner, 'eng-sub');
      op.people.set('bob-sub', { email: 'bob@example.org', email_verified: true, preferred_username: 'bob', groups: ['admins', 'eng'] });
      const bob = cookieFetch();
      await signOn(server.url, bob, 'bob-sub');
      const info = async () => ((await (await bob(`${server.url}/api/user/info`)).json()) as { result: { role: string; groups: string[] } }).result;
      expect(await info()).toMatchObject({ role: 'super_user', groups: expect.arrayContaining(['engineering']) });

      op.people.set('bob-sub', { email: 'bob@example.org', email_verified: true, preferred_username: 'bob', groups: [] });
      await signOn(server.url, bob, 'bob-sub');
      const after = await info();
      expect(after.role).toBe('user');
      expect(after.groups).not.toContain('engineering');
    });

    it('does not link an unverified e-mail to the account that has it', async () => {
      const keeper = cookieFetch();
      op.people.set('keeper-real', { email: 'keeper-real@example.org', email_verified: true, preferred_username: 'keeper' });
      await signOn(server.url, keeper, 'keeper-real');
      op.people.set('mallory-sub', { email: 'keeper-real@example.org', email_verified: false, preferred_username: 'mallory' });
      const mallory = cookieFetch();
      const done = await signOn(server.url, mallory, 'mallory-sub');
      expect(done.status).toBe(401);
      expect(done.said).toContain('has not verified the e-mail address keeper-real@example.org');
      expect(await whoAmI(server.url, mallory)).toBeUndefined();
      expect(server.logs()).toContain('sso sign-on refused');
    });

    it('links a verified e-mail to the existing account; a password login closed to others says so', async () => {
      // Root adds carol (sign-up with a password is closed on this server).
      const root = await login(server.url, 'root', 'root-password-1');
      expect(root.status).toBe(200);
      const added = await root.browser(`${server.url}/api/user/add`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'carol', email: 'carol@example.org' }) });
      expect(added.status).toBe(200);
      op.people.set('carol-sub', { email: 'carol@example.org', email_verified: true });
      const carol = cookieFetch();
      expect(await signOn(server.url, carol, 'carol-sub')).toMatchObject({ status: 200, username: 'carol' });

      // Dave's provider address differs from his account's: he links it himself, logged in.
      op.people.set('dave-sub', { email: 'dave.other@example.org', email_verified: false });
      await root.browser(`${server.url}/api/user/add`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'dave', email: 'dave@example.org', password: 'dave-password-1' }) });
      const dave = await login(server.url, 'dave', 'dave-password-1');
      expect(dave.status).toBe(403);
      expect(dave.body.error).toBe('Logging in with a password is off for this account: use :login sso.');
    });

    it('keeps the password login for root and named accounts, and closes password sign-up', async () => {
      expect((await login(server.url, 'root', 'root-password-1')).status).toBe(200);
      const anonymous = cookieFetch();
      const res = await anonymous(`${server.url}/api/user/add`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'eve', email: 'eve@example.org' }) });
      expect(res.status).toBe(403);
      expect(((await res.json()) as { error: string }).error).toBe('Signing up with a password is off on this server: use :login sso.');
    });

    it("shows root the last sign-ons' claims, never a token, and nobody else", async () => {
      const root = await login(server.url, 'root', 'root-password-1');
      const res = await root.browser(`${server.url}/api/sso/test`);
      const text = await res.text();
      expect(res.status).toBe(200);
      expect(text).toContain('keeper-real@example.org');
      expect(text).toContain('"email_verified":false');
      expect(text).not.toMatch(/eyJ|access_token|id_token|nonce/);
      const alice = cookieFetch();
      await signOn(server.url, alice, 'alice-sub');
      expect((await alice(`${server.url}/api/sso/test`)).status).toBe(403);
    });
  });
});

describe('the commands', () => {
  it('lists the providers with :sso; root sees the redirect URI to register, which the log and a lost callback name too', async () => {
    const closedServer = await startTestServer('sqlite', envFor(op));
    try {
      const web = await createShellTester({ serverUrl: closedServer.url });
      const listed = (await web.run(':sso')).text;
      expect(listed).toContain(op.issuer);
      expect(listed).not.toContain('redirect URI');
      // The operator's log says it at start (without PUBLIC_URL, how to name it).
      expect(closedServer.logs()).toContain('sso: register this redirect URI at each identity provider');
      expect(closedServer.logs()).toContain('(set PUBLIC_URL to name it)');
      // A callback that matches no sign-on (a provider sending the browser elsewhere) says where to look.
      const lost = cookieFetch();
      await lost(`${closedServer.url}/api/sso/callback?state=lost&code=x`, { redirect: 'manual' });
      expect((await outcome(closedServer.url, lost)).said).toContain("root's :sso shows the redirect URI to register");
      expect(closedServer.logs()).toContain(`"redirectUri":"${closedServer.url}/api/sso/callback"`);
      // A root with no sign-on yet: `:sso test` says so (and a non-root is refused, above).
      expect((await web.run(':login root root-password-1')).text).toBe('Logged in as root.');
      expect((await web.run(':sso')).text).toContain(`The redirect URI to register at each provider: ${closedServer.url}/api/sso/callback`);
      expect((await web.run(':sso test')).text).toBe('No sign-on yet.');
      // The Documentation page's line names the configured provider.
      const sources = await web.host.docsSources();
      const line = sources.find((d) => d.id === 'sso')?.docs?.features?.find((f) => f.key === 'docs.features.providers');
      expect(line).toMatchObject({ more: true, vars: { providers: 'default' } });
      expect(web.i18n.tFor('sso')(line!.key, line!.vars)).toBe("Single sign-on with the team's identity provider (:login sso; in the terminal, with a code entered in the browser). Configured on this server: default.");
    } finally {
      await closedServer.close();
    }
  }, 60_000);
});

describe('sign-up closed', () => {
  let closed: TestServer;
  const audit: AuditRecord[] = [];
  beforeAll(async () => {
    // A listener of the audit trail, as the audit plugin would be.
    closed = await startTestServer('sqlite', envFor(op, { OIDC_SIGNUP: 'false' }), [{ register: (ctx) => ctx.audit.listen((r) => void audit.push(r)) }]);
    op.redirectUris.add(`${closed.url}/api/sso/callback`);
  }, 60_000);
  afterAll(async () => closed?.close());

  it('refuses a first sign-on with no account, says what to do, and logs nobody in', async () => {
    op.people.set('zed-sub', { email: 'zed@example.org', email_verified: true });
    const zed = cookieFetch();
    const done = await signOn(closed.url, zed, 'zed-sub');
    expect(done).toMatchObject({ status: 401, said: expect.stringContaining('sign-up through the identity provider is closed') });
    expect(await whoAmI(closed.url, zed)).toBeUndefined();
    expect(await closed.server.db.db.selectFrom('users').select('id').where('email', '=', 'zed@example.org').executeTakeFirst()).toBeUndefined();
  });

  it('lets a logged-in person link the identity with :user sso link, then sign on with it', async () => {
    const me = cookieFetch();
    const added = await me(`${closed.url}/api/user/add`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'zed', email: 'zed.local@example.org', password: 'zed-password-1' }) });
    expect(added.status).toBe(200);
    await me(`${closed.url}/api/user/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'zed', password: 'zed-password-1' }) });
    const linked = await signOn(closed.url, me, 'zed-sub', '?link=1');
    expect(linked).toMatchObject({ status: 200, said: 'Your account is now linked to default (zed@example.org).' });
    // The link is in the audit trail: who, how, never a secret.
    await expect.poll(() => audit.filter((r) => r.kind === 'sso.link')).toEqual([expect.objectContaining({ target: 'user:zed', actor: 'zed', after: { provider: 'default', subject: 'zed-sub', how: 'command' } })]);
    expect(JSON.stringify(audit)).not.toMatch(/zed-password-1|shellchat-client-secret|eyJ/);
    expect(closed.logs()).not.toMatch(/zed-password-1|shellchat-client-secret/);
    const other = cookieFetch();
    expect(await signOn(closed.url, other, 'zed-sub')).toMatchObject({ status: 200, username: 'zed' });
    const identity = (await (await other(`${closed.url}/api/sso/identity`)).json()) as { result: { identities: { provider: string; email: string }[] } };
    expect(identity.result.identities).toEqual([expect.objectContaining({ provider: 'default', email: 'zed@example.org' })]);
  });
});
