// `:login sso` in the terminal client: the device authorization grant through the real server
// against a real provider (oidc-provider's deviceFlow), the code entered at the provider's page
// over HTTP as a person would; a denied or expired code, a provider without the grant, and an
// issuer that is down or answers too much, each with its message and its line in the log.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outputToText } from '../../src/core/index.ts';
import { cookieFetch, createShellTester } from '../../tests/harness/shellTester.ts';
import { startFakeOp, type FakeOp } from '../../tests/fixtures/fakeOidc.ts';
import { startOidcProvider, throughDeviceForm, type TestProvider } from '../../tests/fixtures/oidcProvider.ts';
import { engines, startTestServer, type TestServer } from '../../tests/server/support.ts';
import { FLOWS_PER_ADDRESS } from './server/flow.ts';
import { MAX_ANSWER_BYTES } from './server/oidc.ts';
import { outcome } from './testing/flow.ts';

let op: TestProvider;
const MAIN = path.join(import.meta.dirname, '../../src/cli/main.ts');

const envFor = (issuer: string, extra: Record<string, string> = {}) => ({ OIDC_ISSUER: issuer, OIDC_CLIENT_ID: op.clientId, OIDC_CLIENT_SECRET: op.clientSecret, OIDC_GROUP_RULES: 'admins=role:plus_user', OIDC_SCOPES: 'openid email profile groups', ...extra });

/** The terminal client on `server`; `shown` resolves with the line that names the page and code. */
async function terminal(server: TestServer) {
  const cli = await createShellTester({ serverUrl: server.url, env: 'cli' });
  const shown = new Promise<string>((resolve) => cli.events.on('output', (outputs) => resolve(outputs.map(outputToText).join('\n'))));
  return { cli, shown };
}

/** The page and the code of the line the terminal showed. */
function pageAndCode(line: string): { page: string; code: string } {
  const match = /open (\S+) in a browser and enter the code (\S+)\./.exec(line);
  if (!match) throw new Error(`no page and code in: ${line}`);
  return { page: match[1]!, code: match[2]! };
}

beforeAll(async () => {
  op = await startOidcProvider();
});
afterAll(async () => op?.close());

for (const engine of await engines()) describe(`on ${engine}`, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(engine, envFor(op.issuer));
  }, 60_000);
  afterAll(async () => server?.close());

  it('shows the page and the code, polls, and ends logged in with shellchat\'s own login', async () => {
    op.people.set('dora-sub', { email: 'dora@example.org', email_verified: true, preferred_username: 'dora', groups: ['admins'] });
    const { cli, shown } = await terminal(server);
    const running = cli.run(':login sso');
    const line = await shown;
    expect(line).toMatch(new RegExp(`^To sign on, open ${op.issuer}/device\\?user_code=\\S+ in a browser and enter the code \\S+\\. Waiting`));
    const { page, code } = pageAndCode(line);
    // The person types the code at the provider's own page (without it in the address).
    expect(await throughDeviceForm(new URL(page).origin + new URL(page).pathname, code, 'dora-sub')).toContain('Sign-in Success');
    const said = await running;
    expect(said.errors).toEqual([]);
    expect(said.text).toBe('Logged in as dora through default.');
    expect(cli.settings.get('user')).toBe('dora');
    // The terminal holds shellchat's login cookie, which the next command uses; the rules applied.
    expect(cli.cookies.get('auth')).toMatch(/\w{20,}/);
    const info = await cli.run(':user');
    expect(info.text).toContain('dora');
    const row = await server.server.db.db.selectFrom('users').select(['username', 'role']).where('email', '=', 'dora@example.org').executeTakeFirstOrThrow();
    expect(row).toEqual({ username: 'dora', role: 'plus_user' });
    // The grant's row is gone (single use), and no provider token reached the log.
    expect(await server.server.db.db.selectFrom('sso_devices' as never).selectAll().execute()).toEqual([]);
    expect(server.logs()).toContain('login by sign-on');
    expect(server.logs()).not.toMatch(/eyJ[\w-]+\.eyJ|shellchat-client-secret/);
  }, 60_000);
});

describe('the terminal client, on sqlite', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('sqlite', envFor(op.issuer));
  }, 60_000);
  afterAll(async () => server?.close());

  it('in the shellchat process: prints the page and code on stderr, the login on stdout, and keeps the login for the next run', async () => {
    op.people.set('tess-sub', { email: 'tess@example.org', email_verified: true, preferred_username: 'tess' });
    const dir = mkdtempSync(path.join(tmpdir(), 'shellchat-sso-cli-'));
    const run = (line: string, onErr?: (text: string) => void) =>
      new Promise<{ status: number | null; out: string; err: string }>((resolve) => {
        const child = spawn(process.execPath, [MAIN, '--server', server.url, line], { env: { ...process.env, SHELLCHAT_CONFIG_DIR: dir, NO_COLOR: '' } });
        let out = '';
        let err = '';
        child.stdout.on('data', (d) => (out += String(d)));
        child.stderr.on('data', (d) => onErr?.((err += String(d))));
        child.on('close', (status) => resolve({ status, out, err }));
        child.stdin.end('');
      });
    let entered: Promise<string> | undefined;
    const done = await run(':login sso', (err) => {
      if (!entered && /enter the code \S+\./.test(err)) {
        const { page, code } = pageAndCode(err);
        entered = throughDeviceForm(page, code, 'tess-sub');
      }
    });
    expect(await entered).toContain('Sign-in Success');
    expect(done).toMatchObject({ status: 0, out: 'Logged in as tess through default.\n' });
    expect(done.err).toMatch(/^To sign on, open \S+ in a browser and enter the code \S+\. Waiting for the identity provider\.\.\.\n$/);
    expect((await run(':user')).out).toContain('tess@example.org');
  }, 60_000);

  it('says the sign-on was refused when the person aborts at the provider', async () => {
    op.people.set('abe-sub', { email: 'abe@example.org', email_verified: true });
    const { cli, shown } = await terminal(server);
    const running = cli.run(':login sso');
    const { page, code } = pageAndCode(await shown);
    await throughDeviceForm(page, code, 'abe-sub', true);
    const said = await running;
    expect(said.errors).toEqual(['The sign-on was refused at the identity provider default. Start again with :login sso if that was a mistake.']);
    expect(cli.settings.get('user')).toBe('');
    expect(cli.cookies.has('auth')).toBe(false);
    expect(server.logs()).toContain('sso device sign-on denied at the provider');
  }, 60_000);

  it('says the code expired when nobody enters it in time', async () => {
    op.deviceCodeTtl = 1;
    try {
      const { cli } = await terminal(server);
      const said = await cli.run(':login sso');
      expect(said.errors).toEqual(['The code expired before it was entered at the identity provider. Start again with :login sso.']);
      expect(cli.settings.get('user')).toBe('');
    } finally {
      op.deviceCodeTtl = 600;
    }
  }, 60_000);

  it('asks the provider at most once per interval however often a terminal polls, and starts at most 20 grants per address', async () => {
    const post = async (route: string, body: unknown) => {
      const res = await fetch(`${server.url}/api/sso/${route}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return { status: res.status, body: (await res.json()) as { result?: { handle: string; interval: number; user: unknown }; error?: string } };
    };
    const { result } = (await post('device', {})).body;
    const before = op.tokenRequests;
    const early = await Promise.all(Array.from({ length: 10 }, () => post('device/poll', { handle: result!.handle })));
    expect(early.map((r) => [r.status, r.body.result?.user])).toEqual(Array.from({ length: 10 }, () => [200, null]));
    expect(op.tokenRequests).toBe(before);
    await new Promise((resolve) => setTimeout(resolve, result!.interval * 1000 + 200));
    const due = await Promise.all(Array.from({ length: 5 }, () => post('device/poll', { handle: result!.handle })));
    expect(due.every((r) => r.status === 200 && r.body.result?.user === null)).toBe(true);
    expect(op.tokenRequests).toBe(before + 1);
    // Grants under way are rows: one address holds at most FLOWS_PER_ADDRESS of them.
    const starts: number[] = [];
    for (let i = 0; i < FLOWS_PER_ADDRESS + 5 && !starts.includes(429); i++) starts.push((await post('device', {})).status);
    expect(starts.filter((s) => s === 200)).toHaveLength(FLOWS_PER_ADDRESS - 1);
    const refused = await post('device', {});
    expect(refused).toMatchObject({ status: 429, body: { error: 'Too many sign-ons are under way from this address. Finish one, or try again in 10 minutes.' } });
    await server.server.db.db.deleteFrom('sso_devices' as never).execute();
  }, 60_000);

  it('refuses a poll with a handle it never gave, and the browser-only link says where to go', async () => {
    const res = await fetch(`${server.url}/api/sso/device/poll`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ handle: 'forged' }) });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: string }).error).toBe('This sign-on from the terminal is unknown or already finished. Start again with :login sso.');
    const { cli } = await terminal(server);
    expect((await cli.run(':login root root-password-1')).text).toBe('Logged in as root.');
    expect((await cli.run(':user sso link')).errors.join('')).toContain('Linking an identity provider happens in the browser');
  });
});

describe('providers that cannot sign a terminal on', () => {
  let fake: FakeOp;
  let down: string;
  let heavy: http.Server;
  beforeAll(async () => {
    fake = await startFakeOp();
    // An issuer that was there and stopped: its port refuses connections.
    const stopped = http.createServer();
    await new Promise<void>((resolve) => stopped.listen(0, '127.0.0.1', resolve));
    down = `http://127.0.0.1:${(stopped.address() as AddressInfo).port}`;
    await new Promise<void>((resolve) => stopped.close(() => resolve()));
    // An issuer whose discovery document never ends.
    heavy = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`{"issuer":"${'x'.repeat(MAX_ANSWER_BYTES + 10)}"}`);
    });
    await new Promise<void>((resolve) => heavy.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    await fake?.close();
    await new Promise<void>((resolve) => heavy?.close(() => resolve()));
  });

  it('says in one line that the provider offers no terminal sign-on and points to API keys', async () => {
    const server = await startTestServer('sqlite', { OIDC_ISSUER: fake.issuer, OIDC_CLIENT_ID: fake.clientId, OIDC_CLIENT_SECRET: 'liar-secret' });
    try {
      const { cli } = await terminal(server);
      const said = await cli.run(':login sso');
      expect(said.errors).toEqual(['The identity provider default does not offer sign-on from a terminal (the device authorization grant). Here, log in with an API key: create one with :key add in the browser.']);
    } finally {
      await server.close();
    }
  }, 60_000);

  it('says the provider cannot be reached when its issuer is down or answers too much, and the log says why', async () => {
    const heavyUrl = `http://127.0.0.1:${(heavy.address() as AddressInfo).port}`;
    const server = await startTestServer('sqlite', { OIDC_PROVIDERS: JSON.stringify([{ name: 'down', issuer: down, clientId: 'c' }, { name: 'heavy', issuer: heavyUrl, clientId: 'c' }]) });
    try {
      const { cli } = await terminal(server);
      expect((await cli.run(':login sso down')).errors).toEqual(['The identity provider down does not answer. Try again later; the server log says why.']);
      expect(server.logs()).toMatch(/sso discovery failed[\s\S]*ECONNREFUSED|ECONNREFUSED[\s\S]*sso discovery failed/);
      expect((await cli.run(':login sso heavy')).errors).toEqual(['The identity provider heavy does not answer. Try again later; the server log says why.']);
      expect(server.logs()).toContain(`over ${MAX_ANSWER_BYTES} bytes`);
      // The browser's sign-on says the same on the page it comes back to.
      const browser = cookieFetch();
      const start = await browser(`${server.url}/api/sso/start?provider=down`, { redirect: 'manual' });
      expect(start.headers.get('location')).toMatch(/\/\?sso=done$/);
      expect(await outcome(server.url, browser)).toMatchObject({ status: 401, said: 'The identity provider down does not answer. Try again later; the server log says why.' });
    } finally {
      await server.close();
    }
  }, 60_000);
});
