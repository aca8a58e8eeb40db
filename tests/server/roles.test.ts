// The role API over real HTTP on every database engine: system roles (shipped, and the
// operator's ROLES_FILE or DATA_DIR/roles.json), one role by name (the user's own first), a
// user's own roles (add, update, delete; login; own roles only; limits), removal with the
// account, and the context provider: a chat turn with an active role sends its prompt to the
// model as a system message.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GenerationEvent } from '../../src/core/index.ts';
import { streamGeneration } from '../../src/core/api/generationClient.ts';
import { loadConfig, type ServerConfig } from '../../src/server/config.ts';
import { MAX_USER_ROLES } from '../../plugins/role/common/limits.ts';
import { type PublicRole, type RoleLists } from '../../plugins/role/common/rules.ts';
import systemRoles from '../../plugins/role/data/system-roles.json' with { type: 'json' };
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fakeOpenAI.ts';
import { engines, failure, startTestServer, type TestServer } from './support.ts';

/** The roles file the role plugin's configuration names (plugins/role/server/env.ts). */
const rolesFileOf = (config: ServerConfig) => (config.plugins.role as { rolesFile: string }).rolesFile;

const PW = 'hunter2hunter2';
const OPERATOR_PROMPT = 'You are the operator-defined release manager.';
const SESSION = 1_810_000_000_000;

const operatorFile = (roles: unknown): string => {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'shellchat-roles-')), 'roles.json');
  writeFileSync(file, JSON.stringify(roles));
  return file;
};

describe('ROLES_FILE configuration', () => {
  it('defaults to roles.json in DATA_DIR', () => {
    expect(rolesFileOf(loadConfig({ DATA_DIR: '/srv/shellchat' }, '/'))).toBe(path.join('/srv/shellchat', 'roles.json'));
    const named = operatorFile([]);
    expect(rolesFileOf(loadConfig({ DATA_DIR: '/srv/shellchat', ROLES_FILE: named }, '/'))).toBe(named);
  });

  it('refuses to start when ROLES_FILE names a file that does not exist', () => {
    expect(() => loadConfig({ DATA_DIR: '/srv/shellchat', ROLES_FILE: '/etc/no-such-roles.json' }, '/')).toThrow('ROLES_FILE /etc/no-such-roles.json does not exist');
  });

  it('refuses to start with an invalid roles file, naming it', async () => {
    const bad = operatorFile([{ name: 'x' }]);
    await expect(startTestServer('sqlite', { ROLES_FILE: bad })).rejects.toThrow(bad);
    const long = operatorFile([{ name: 'x', prompt: 'p'.repeat(8001) }]);
    await expect(startTestServer('sqlite', { ROLES_FILE: long })).rejects.toThrow('prompts are 1 to 8,000 characters');
  });

  it('reads DATA_DIR/roles.json when ROLES_FILE is unset', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'shellchat-data-'));
    writeFileSync(path.join(dataDir, 'roles.json'), JSON.stringify([{ name: 'from-data-dir', prompt: 'Data dir role.' }]));
    const t = await startTestServer('sqlite', { DATA_DIR: dataDir });
    try {
      expect((await t.client().get<PublicRole>('/api/role/from-data-dir')).result).toEqual({ name: 'from-data-dir', prompt: 'Data dir role.' });
    } finally {
      await t.close();
    }
  });
});

describe.each(await engines())('roles on %s', (engine) => {
  let t: TestServer;
  let fake: FakeOpenAI;
  let seq = 0;
  beforeAll(async () => {
    fake = await startFakeOpenAI();
    t = await startTestServer(engine, {
      MODEL: 'gpt-4o-mini',
      OPENAI_BASE_URL: fake.url,
      OPENAI_API_KEY: 'sk-system-key',
      // The operator adds a role and replaces the shipped 'translator'.
      ROLES_FILE: operatorFile([
        { name: 'release-manager', prompt: OPERATOR_PROMPT },
        { name: 'translator', prompt: 'Translate into French only.' },
      ]),
    });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  async function user(): Promise<ReturnType<TestServer['client']> & { username: string; id: number }> {
    const username = `roles${++seq}`;
    const api = t.client();
    await api.post('/api/user/add', { username, email: `${username}@example.org`, password: PW });
    await api.post('/api/user/login', { username, password: PW });
    return Object.assign(api, { username, id: (await t.server.accounts.byUsername(username))!.id });
  }

  const names = (roles: PublicRole[]) => roles.map((r) => r.name);

  it('lists the system roles to anyone: the shipped ones, then the operator\'s', async () => {
    const { result } = await t.client().get<RoleLists>('/api/role/list');
    expect(result!.user_roles).toEqual([]);
    const listed = names(result!.system_roles);
    expect(listed.length).toBe(systemRoles.length + 1);
    expect(listed.slice(0, systemRoles.length)).toEqual(systemRoles.map((r) => r.name));
    expect(listed.at(-1)).toBe('release-manager');
    expect(result!.system_roles.find((r) => r.name === 'translator')!.prompt).toBe('Translate into French only.');
  });

  it('shows one role by name (percent-encoded), or 404 \'Role "x" does not exist.\'', async () => {
    const anonymous = t.client();
    expect((await anonymous.get<PublicRole>('/api/role/release-manager')).result).toEqual({ name: 'release-manager', prompt: OPERATOR_PROMPT });
    expect(await failure(anonymous.get('/api/role/nope'))).toEqual({ status: 404, error: 'Role "nope" does not exist.' });
    const owner = await user();
    await owner.post('/api/role/add', { roleName: 'a/b c', prompt: 'slashed' });
    expect((await owner.get<PublicRole>(`/api/role/${encodeURIComponent('a/b c')}`)).result).toEqual({ name: 'a/b c', prompt: 'slashed' });
  });

  it('requires a login to add, update and delete', async () => {
    const anonymous = t.client();
    for (const [route, body] of [
      ['/api/role/add', { roleName: 'x', prompt: 'p' }],
      ['/api/role/update', { roleName: 'x', prompt: 'p' }],
      ['/api/role/delete', { roleName: 'x' }],
    ] as const) {
      expect(await failure(anonymous.post(route, body))).toEqual({ status: 401, error: 'Please login.' });
    }
  });

  it("adds, updates and deletes the user's own roles, invisible to others", async () => {
    const [owner, other] = [await user(), await user()];
    const added = await owner.post<PublicRole>('/api/role/add', { roleName: 'mine', prompt: 'first' });
    expect(added.message).toBe('Role "mine" added.');
    expect(added.result).toEqual({ name: 'mine', prompt: 'first' });
    expect(await failure(owner.post('/api/role/add', { roleName: 'mine', prompt: 'again' }))).toEqual({ status: 409, error: 'Role "mine" already exists.' });
    expect(await failure(owner.post('/api/role/add', { roleName: 'MINE', prompt: 'again' }))).toEqual({ status: 409, error: 'Role "MINE" already exists.' });
    expect(names((await owner.get<RoleLists>('/api/role/list')).result!.user_roles)).toEqual(['mine']);
    expect((await other.get<RoleLists>('/api/role/list')).result!.user_roles).toEqual([]);
    expect(await failure(other.get('/api/role/mine'))).toEqual({ status: 404, error: 'Role "mine" does not exist.' });
    expect(await failure(other.post('/api/role/update', { roleName: 'mine', prompt: 'x' }))).toEqual({ status: 404, error: 'Role "mine" does not exist.' });
    expect(await failure(other.post('/api/role/delete', { roleName: 'mine' }))).toEqual({ status: 404, error: 'Role "mine" does not exist.' });

    expect((await owner.post('/api/role/update', { roleName: 'mine', prompt: 'second' })).message).toBe('Role "mine" updated.');
    expect((await owner.get<PublicRole>('/api/role/mine')).result!.prompt).toBe('second');
    // System roles are nobody's to change or delete.
    expect(await failure(owner.post('/api/role/update', { roleName: 'coder', prompt: 'x' }))).toEqual({ status: 404, error: 'Role "coder" does not exist.' });
    expect(await failure(owner.post('/api/role/delete', { roleName: 'coder' }))).toEqual({ status: 404, error: 'Role "coder" does not exist.' });

    expect((await owner.post('/api/role/delete', { roleName: 'mine' })).message).toBe('Role "mine" deleted.');
    expect(await failure(owner.post('/api/role/delete', { roleName: 'mine' }))).toEqual({ status: 404, error: 'Role "mine" does not exist.' });
  });

  it('a user role wins over a system role of the same name, for its owner only', async () => {
    const [owner, other] = [await user(), await user()];
    await owner.post('/api/role/add', { roleName: 'coder', prompt: 'My coder.' });
    expect((await owner.get<PublicRole>('/api/role/coder')).result!.prompt).toBe('My coder.');
    expect((await other.get<PublicRole>('/api/role/coder')).result!.prompt).toBe(systemRoles.find((r) => r.name === 'coder')!.prompt);
  });

  it('checks names (up to 64 characters) and prompts (up to 8,000), and the number of roles', async () => {
    const owner = await user();
    const refused = (body: unknown) => failure(owner.post('/api/role/add', body));
    expect(await refused({ roleName: ' ', prompt: 'p' })).toEqual({ status: 400, error: 'Invalid role name.' });
    expect(await refused({ roleName: 'n'.repeat(65), prompt: 'p' })).toEqual({ status: 400, error: 'Role name must be at most 64 characters.' });
    expect(await refused({ roleName: 'long', prompt: 'p'.repeat(8001) })).toEqual({ status: 400, error: 'Prompt must be at most 8,000 characters.' });
    expect(await refused({ roleName: 'empty', prompt: '' })).toEqual({ status: 400, error: 'Prompt must not be empty.' });
    expect((await refused({ roleName: 'x', prompt: 'p'.repeat(100_000) })).status).toBe(400);
    expect((await refused({ roleName: 'x' })).status).toBe(400);
    // Multi-byte names and prompts count characters.
    expect((await owner.post('/api/role/add', { roleName: '角'.repeat(64), prompt: '提'.repeat(8000) })).message).toBe(`Role "${'角'.repeat(64)}" added.`);
    expect((await owner.get<PublicRole>(`/api/role/${encodeURIComponent('角'.repeat(64))}`)).result!.prompt).toBe('提'.repeat(8000));
    const now = Date.now();
    const db = t.server.db.db as unknown as import('kysely').Kysely<{ roles: { user_id: number; name: string; prompt: string; created_at: number; updated_at: number } }>;
    await db
      .insertInto('roles')
      .values(Array.from({ length: MAX_USER_ROLES - 1 }, (_, i) => ({ user_id: owner.id, name: `bulk${i}`, prompt: 'p', created_at: now, updated_at: now })))
      .execute();
    expect(await refused({ roleName: 'one-more', prompt: 'p' })).toEqual({ status: 400, error: `You can keep at most ${MAX_USER_ROLES} roles.` });
  });

  it("deletes a user's roles with the account", async () => {
    const owner = await user();
    await owner.post('/api/role/add', { roleName: 'doomed', prompt: 'p' });
    await owner.post('/api/user/delete', { username: owner.username });
    const db = t.server.db.db as unknown as import('kysely').Kysely<{ roles: { user_id: number } }>;
    expect(await db.selectFrom('roles').selectAll().where('user_id', '=', owner.id).execute()).toEqual([]);
  });

  async function chat(client: ReturnType<TestServer['client']>, body: Record<string, unknown>): Promise<GenerationEvent[]> {
    const events: GenerationEvent[] = [];
    await streamGeneration({ session: SESSION + ++seq, user_input: 'hello', ...body } as never, (e) => events.push(e), {
      signal: new AbortController().signal,
      baseUrl: t.url,
      fetch: client.raw,
    });
    return events;
  }
  const systemMessages = () =>
    (fake.requests.at(-1)!.body.messages as { role: string; content: unknown }[]).filter((m) => m.role === 'system').map((m) => String(m.content));

  it("a chat turn with an active role sends the role's prompt as a system message", async () => {
    await chat(t.client(), { role: 'release-manager' });
    expect(systemMessages().some((m) => m.includes(OPERATOR_PROMPT))).toBe(true);

    const owner = await user();
    await owner.post('/api/role/add', { roleName: 'coder', prompt: 'OWN-CODER-PROMPT' });
    await chat(owner, { role: 'coder' });
    expect(systemMessages().some((m) => m.includes('OWN-CODER-PROMPT'))).toBe(true);
    // Another user (and an anonymous visitor) with the same role name gets the system role.
    await chat(t.client(), { role: 'coder' });
    expect(systemMessages().some((m) => m.includes('OWN-CODER-PROMPT'))).toBe(false);
    expect(systemMessages().some((m) => m.includes(systemRoles.find((r) => r.name === 'coder')!.prompt))).toBe(true);

    // No role, or an unknown one: no role prompt.
    await chat(t.client(), {});
    expect(systemMessages().some((m) => m.includes(OPERATOR_PROMPT) || m.includes('OWN-CODER-PROMPT'))).toBe(false);
    const events = await chat(t.client(), { role: 'nope' });
    expect(events.at(-1)!.type).toBe('done');
  });
});
