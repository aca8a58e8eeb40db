// The key commands through the real plugin host against the real server over HTTP (SQLite): a key
// is shown once and kept as a hash, listed with its scope and this month's use, revoked at once;
// a key authenticates the API routes but cannot make keys, change the password or spend; a
// deleted user's keys die; root lists every key's owner and use, never a key; no key is logged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditRecord, ServerPluginModule } from '../../src/core/index.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../../tests/fixtures/fakeOpenAI.ts';
import { createShellTester } from '../../tests/harness/shellTester.ts';
import { startTestServer, type TestServer } from '../../tests/server/support.ts';
import { addKey, ask, keyRow, keysDb, PW, signedUp, v1 } from './keySupport.ts';
import { parseAddFlags, expiresIn } from './common/rules.ts';
import { sha256 } from './server/keys.ts';

let fake: FakeOpenAI;
let server: TestServer;
/** What the audit hook was told (a listener, as the audit plugin would be). */
const audited: AuditRecord[] = [];

beforeAll(async () => {
  fake = await startFakeOpenAI();
  const listener: ServerPluginModule = { register: (ctx) => ctx.audit.listen((r) => void audited.push(r)) };
  server = await startTestServer('sqlite', { MODEL: 'gpt-4o-mini', OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'sk-system-key' }, [listener]);
}, 60_000);

afterAll(async () => {
  await Promise.all([server?.close(), fake?.close()]);
});

const withKey = (key: string, path: string, init: RequestInit = {}) =>
  fetch(`${server.url}${path}`, { ...init, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...(init.headers ?? {}) } });

describe(':key commands', () => {
  it('need a login', async () => {
    const t = await createShellTester({ plugins: ['general', 'user', 'key'], serverUrl: server.url });
    for (const line of [':key add "a"', ':key ls', ':key rm "a"']) expect((await t.run(line)).errors).toEqual(['Please login.']);
  });

  it('show a new key once, keep only its SHA-256, and list it with its scope', async () => {
    const t = await signedUp(server);
    const key = await addKey(t, ':key add "editor" --expires 30d --role coder --store docs --model "gpt-4o-mini"');
    const row = await keyRow(server, key);
    expect(row.hash).toBe(await sha256(key));
    expect(row.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(key.slice(12));
    expect(row).toMatchObject({ name: 'editor', role: 'coder', stores: 'docs', model: 'gpt-4o-mini', prefix: key.slice(0, 12) });
    expect(Number(row.expires_at) - Number(row.created_at)).toBe(30 * 86_400_000);
    const listed = await t.run(':key ls');
    expect(listed.errors).toEqual([]);
    const table = listed.outputs.find((o) => o.kind === 'table') as { columns: string[]; rows: string[][] };
    expect(table.columns).toEqual(['Name', 'Prefix', 'Scope', 'Created', 'Last used', 'Tokens this month', 'Fees this month']);
    expect(table.rows[0]!.slice(0, 3)).toEqual(['editor', `${key.slice(0, 12)}...`, expect.stringContaining('role coder, store docs, model gpt-4o-mini, expires')]);
    // The list never shows the key again.
    expect(listed.text).not.toContain(key);
    expect((await t.run(':key add "editor"')).errors).toEqual(['Key "editor" already exists.']);
  });

  it('refuse a bad name, expiry or model before anything is made', async () => {
    const t = await signedUp(server);
    expect((await t.run(':key add "a b"')).errors[0]).toMatch(/^Invalid key name/);
    expect((await t.run(':key add "x" --expires 2y')).errors[0]).toMatch(/^Invalid expiry/);
    expect((await t.run(':key add "x" --expires 400d')).errors[0]).toMatch(/^Invalid expiry/);
    expect((await t.run(':key add "x" --colour red')).errors[0]).toMatch(/^Unknown option --colour/);
    expect((await t.run(':key add "x" --model "nope"')).errors).toEqual(['Model not found.']);
    expect((await t.run(':key ls')).text).toBe('You have no API keys.');
  });

  it('revoke at once: the next call with the key is refused', async () => {
    const t = await signedUp(server);
    const key = await addKey(t, ':key add "ci"');
    expect((await withKey(key, '/api/user/info')).status).toBe(200);
    expect((await t.run(':key rm "ci"')).text).toBe('Key "ci" revoked.');
    const refused = await withKey(key, '/api/user/info');
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ success: false, error: 'This API key was revoked.' });
    expect((await v1(server, '/models', key)).status).toBe(401);
    expect((await t.run(':key rm "ci"')).errors).toEqual(['Key not found.']);
    // Both changes are in the audit trail, by the user, without the key.
    await new Promise((r) => setTimeout(r, 10));
    const mine = audited.filter((r) => r.actor === t.username);
    expect(mine.map((r) => [r.kind, r.target])).toEqual([['key.create', 'key:ci'], ['key.revoke', 'key:ci']]);
    expect(JSON.stringify(mine)).not.toContain(key);
  });
});

describe('a request made with a key', () => {
  it('is its user on the API routes, but may not make keys, change the password or spend money', async () => {
    const t = await signedUp(server);
    const key = await addKey(t, ':key add "script"');
    const info = await (await withKey(key, '/api/user/info')).json();
    expect(info.result.username).toBe(t.username);
    const refusals = [
      ['/api/key/add', { name: 'more' }],
      ['/api/key/delete', { name: 'script' }],
      ['/api/user/update/password', { password: 'newpassword123', old_password: PW }],
      ['/api/user/update/email', { email: 'x@example.org' }],
      ['/api/user/update/role', { username: t.username, role: 'plus_user' }],
      ['/api/payment/order', { amount: 5 }],
      ['/api/user/delete', { username: t.username }],
    ] as const;
    for (const [path, body] of refusals) {
      const res = await withKey(key, path, { method: 'POST', body: JSON.stringify(body) });
      expect([path, res.status]).toEqual([path, 403]);
      expect((await res.json()).error).toBe('This cannot be done with an API key: log in with your password.');
    }
    expect(await keysDb(server).selectFrom('api_keys').select('name').where('user_id', '=', info.result.id).execute()).toEqual([{ name: 'script' }]);
    // The password still works: nothing changed.
    expect((await t.run(`:login ${t.username} ${PW}`)).errors).toEqual([]);
  });

  it('with an unknown or malformed key is refused, and the key is never logged', async () => {
    const t = await signedUp(server);
    const key = await addKey(t, ':key add "quiet"');
    const wrong = `sk-sc-${'A'.repeat(43)}`;
    expect((await withKey(wrong, '/api/user/info')).status).toBe(401);
    expect((await withKey('not-a-key', '/api/user/info')).status).toBe(401);
    await v1(server, '/chat/completions', key, ask('hello there'));
    // Whatever logs a request's headers or a key by name, pino redacts it.
    server.server.log.info({ headers: { authorization: `Bearer ${key}` }, key }, 'a request with a key');
    expect(server.logs()).toContain('a request with a key');
    expect(server.logs()).not.toContain(key);
    expect(server.logs()).not.toContain(key.slice(12));
  });

  it('dies with its user', async () => {
    const t = await signedUp(server);
    const key = await addKey(t, ':key add "gone"');
    const userId = Number((await keyRow(server, key)).user_id);
    expect((await t.run(`:user del ${t.username}`)).errors).toEqual([]);
    expect(await keysDb(server).selectFrom('api_keys').select('id').where('user_id', '=', userId).execute()).toEqual([]);
    expect((await v1(server, '/models', key)).status).toBe(401);
  });
});

describe("root's list", () => {
  it("shows every key's owner and use, never a key", async () => {
    const t = await signedUp(server);
    const key = await addKey(t, ':key add "watched"');
    await v1(server, '/chat/completions', key, ask('count me'));
    const root = await createShellTester({ plugins: ['general', 'user', 'key'], serverUrl: server.url });
    expect((await root.run(':login root root-password-1')).errors).toEqual([]);
    const listed = await root.run(':key ls');
    const table = listed.outputs.find((o) => o.kind === 'table') as { columns: string[]; rows: string[][] };
    expect(table.columns[0]).toBe('Owner');
    const row = table.rows.find((r) => r[0] === t.username && r[1] === 'watched')!;
    expect(Number(row[6])).toBeGreaterThan(0);
    expect(listed.text).not.toContain(key);
  });
});

describe('the rules of :key add', () => {
  it('parse the flags and the expiry', () => {
    expect(parseAddFlags(['--expires', '12h', '--store', 'a', '--store', 'b', '--no-log'])).toEqual({ ok: true, value: { expires: '12h', stores: 'a,b', no_log: true } });
    expect(parseAddFlags(['--role']).ok).toBe(false);
    expect(expiresIn('30d')).toBe(30 * 86_400_000);
    expect(expiresIn('0d')).toBeUndefined();
  });
});
