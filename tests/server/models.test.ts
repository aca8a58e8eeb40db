// The model API over real HTTP on every database engine: system models from the environment
// (MODEL / OPENAI_*, MODELS) and from DATA_DIR/models.json, the lists by scope (user, group,
// system), one model's details, and a user's own models: add, update, delete, ownership,
// limits, masking, and removal with the account.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublicModel } from '../../src/core/index.ts';
import { engines, failure, startTestServer, type TestServer } from './support.ts';
import type { ModelsDb } from '../../plugins/model/server/table.ts';

const PW = 'hunter2hunter2';
const SYSTEM_KEY = 'sk-system-secret-0123456789';
const FILE_KEY = 'sk-ant-file-secret-0123456789';
const USER_KEY = 'sk-user-route-secret-0123456789';

interface Lists {
  user_models: PublicModel[];
  group_models: PublicModel[];
  system_models: PublicModel[];
}

const names = (list: PublicModel[]) => list.map((m) => m.name);

describe.each(await engines())('models on %s', (engine) => {
  let t: TestServer;
  let seq = 0;
  beforeAll(async () => {
    t = await startTestServer(engine, {
      MODEL: 'default-model',
      OPENAI_BASE_URL: 'https://8.8.8.8/v1/',
      OPENAI_API_KEY: SYSTEM_KEY,
      MODELS: JSON.stringify([
        { name: 'file-model', provider: 'anthropic', base_url: 'https://8.8.4.4/v1', api_key: FILE_KEY, price_input: 0.000003, capabilities: { vision: true } },
        { name: 'org/slashed', model: 'org/slashed-1' },
      ]),
    });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  async function user(): Promise<ReturnType<TestServer['client']> & { username: string; id: number }> {
    const username = `routes${++seq}`;
    const api = t.client();
    await api.post('/api/user/add', { username, email: `${username}@example.org`, password: PW });
    await api.post('/api/user/login', { username, password: PW });
    return Object.assign(api, { username, id: (await t.server.accounts.byUsername(username))!.id });
  }

  it('lists the system models to anyone, the default first, without a key or the base URL', async () => {
    const anonymous = t.client();
    const { result } = await anonymous.get<Lists>('/api/model/list');
    expect(names(result!.system_models)).toEqual(['default-model', 'file-model', 'org/slashed']);
    expect(result!.user_models).toEqual([]);
    expect(result!.group_models).toEqual([]);
    expect(result!.system_models[0]).toEqual({
      name: 'default-model',
      scope: 'system',
      provider: 'openai-compatible',
      model: 'default-model',
      price_input: 0,
      price_output: 0,
      capabilities: { vision: false, tools: true, image: false, reasoning: false, context_window: null },
    });
    expect(result!.system_models[1]).toMatchObject({ provider: 'anthropic', price_input: 0.000003, capabilities: { vision: true } });
    const text = JSON.stringify(result);
    expect(text).not.toContain(SYSTEM_KEY);
    expect(text).not.toContain(FILE_KEY);
    expect(text).not.toContain('api_key');
    // The operator's URLs (often internal addresses) are nobody's business, root's neither.
    expect(text).not.toContain('base_url');
    expect(text).not.toContain('8.8.8.8');
    const root = t.client();
    await root.post('/api/user/login', { username: 'root', password: 'root-password-1' });
    expect(JSON.stringify((await root.get<Lists>('/api/model/list')).result)).not.toContain('base_url');
    expect(JSON.stringify((await root.get<PublicModel>('/api/model/default-model')).result)).not.toContain('8.8.8.8');
  });

  it('shows one model by name (percent-encoded), or 404 "Model not found."', async () => {
    const anonymous = t.client();
    expect((await anonymous.get<PublicModel>('/api/model/file-model')).result).toMatchObject({ name: 'file-model', scope: 'system' });
    expect((await anonymous.get<PublicModel>(`/api/model/${encodeURIComponent('org/slashed')}`)).result).toMatchObject({ model: 'org/slashed-1' });
    expect(await failure(anonymous.get('/api/model/nope'))).toEqual({ status: 404, error: 'Model not found.' });
  });

  it('refuses anonymous changes with 401 "Please login."', async () => {
    const anonymous = t.client();
    for (const [path, body] of [
      ['/api/model/add', { name: 'x', base_url: 'https://8.8.8.8/v1' }],
      ['/api/model/update', { name: 'x', key: 'vision', value: 'true' }],
      ['/api/model/delete', { name: 'x' }],
    ] as const) {
      expect(await failure(anonymous.post(path, body))).toEqual({ status: 401, error: 'Please login.' });
    }
  });

  it("adds, updates and deletes the user's own model, masked to its owner and invisible to others", async () => {
    const owner = await user();
    const added = await owner.post<PublicModel>('/api/model/add', { name: 'mine', base_url: 'https://8.8.8.8/v1/', api_key: USER_KEY });
    expect(added.message).toBe('Model "mine" added.');
    expect(added.result).toMatchObject({ name: 'mine', scope: 'user', provider: 'openai-compatible', model: 'mine', base_url: 'https://8.8.8.8/v1' });
    expect(added.result!.api_key).toMatch(/^sk-\*+89$/);
    expect(JSON.stringify(added)).not.toContain(USER_KEY);

    const withProvider = await owner.post<PublicModel>('/api/model/add', { name: 'claude', base_url: 'https://8.8.4.4', provider: 'anthropic', model: 'claude-x' });
    expect(withProvider.result).toMatchObject({ provider: 'anthropic', model: 'claude-x', api_key: '' });

    const lists = (await owner.get<Lists>('/api/model/list')).result!;
    expect(names(lists.user_models)).toEqual(['claude', 'mine']);
    expect(JSON.stringify(lists)).not.toContain(USER_KEY);

    expect(await failure(owner.post('/api/model/add', { name: 'mine', base_url: 'https://8.8.8.8/v1' }))).toEqual({ status: 409, error: 'Model "mine" already exists.' });
    expect(await failure(owner.post('/api/model/add', { name: 'Mine', base_url: 'https://8.8.8.8/v1' }))).toEqual({ status: 409, error: 'Model "Mine" already exists.' });
    expect((await failure(owner.post('/api/model/add', { name: '', base_url: 'https://8.8.8.8/v1' }))).error).toMatch(/^Invalid model name\./);
    expect((await failure(owner.post('/api/model/add', { name: 'p', base_url: 'https://8.8.8.8/v1', provider: 'acme' }))).error).toMatch(/^Invalid provider\./);
    expect(await failure(owner.post('/api/model/add', { name: 'lo', base_url: 'http://127.0.0.1:11434/v1' }))).toEqual({ status: 400, error: 'Refused to connect to 127.0.0.1 (loopback address).' });
    expect(await failure(owner.post('/api/model/add', { name: 'v6', base_url: 'http://[::1]:8080/v1' }))).toEqual({ status: 400, error: 'Refused to connect to ::1 (loopback address).' });
    expect(await failure(owner.post('/api/model/add', { name: 'cred', base_url: 'https://user:pw@8.8.8.8/v1' }))).toEqual({ status: 400, error: 'The URL must not contain a username or password.' });
    expect(await failure(owner.post('/api/model/add', { name: 'long', base_url: `https://8.8.8.8/${'a'.repeat(300)}` }))).toEqual({ status: 400, error: 'The URL is too long (at most 255 characters).' });

    const updated = await owner.post<PublicModel>('/api/model/update', { name: 'mine', key: 'context_window', value: '8192' });
    expect(updated.message).toBe('Model "mine" updated.');
    expect(updated.result!.capabilities.context_window).toBe(8192);
    expect((await owner.post<PublicModel>('/api/model/update', { name: 'mine', key: 'context_window', value: '' })).result!.capabilities.context_window).toBeNull();
    expect((await owner.post<PublicModel>('/api/model/update', { name: 'mine', key: 'PRICE_OUTPUT', value: '0.5' })).result!.price_output).toBe(0.5);
    expect((await owner.post<PublicModel>('/api/model/update', { name: 'mine', key: 'base_url', value: 'https://8.8.4.4/v2/' })).result!.base_url).toBe('https://8.8.4.4/v2');
    expect(await failure(owner.post('/api/model/update', { name: 'mine', key: 'base_url', value: 'http://192.168.1.1/' }))).toEqual({ status: 400, error: 'Refused to connect to 192.168.1.1 (private address).' });
    expect(await failure(owner.post('/api/model/update', { name: 'mine', key: 'owner_id', value: '1' }))).toMatchObject({ status: 400, error: expect.stringMatching(/^Unknown key\./) });
    expect(await failure(owner.post('/api/model/update', { name: 'MINE', key: 'vision', value: 'true' }))).toEqual({ status: 404, error: 'Model not found.' });
    // A system model is not the user's to change.
    expect(await failure(owner.post('/api/model/update', { name: 'default-model', key: 'base_url', value: 'https://8.8.4.4' }))).toEqual({ status: 404, error: 'Model not found.' });

    const other = await user();
    expect(names((await other.get<Lists>('/api/model/list')).result!.user_models)).toEqual([]);
    expect(await failure(other.get('/api/model/mine'))).toEqual({ status: 404, error: 'Model not found.' });
    expect(await failure(other.post('/api/model/update', { name: 'mine', key: 'api_key', value: 'stolen' }))).toEqual({ status: 404, error: 'Model not found.' });
    expect(await failure(other.post('/api/model/delete', { name: 'mine' }))).toEqual({ status: 404, error: 'Model not found.' });
    // A model of the same name is the other user's own.
    expect((await other.post('/api/model/add', { name: 'mine', base_url: 'https://8.8.8.8/v1' })).message).toBe('Model "mine" added.');
    expect((await other.get<PublicModel>('/api/model/mine')).result!.api_key).toBe('');

    expect((await owner.post('/api/model/delete', { name: 'mine' })).message).toBe('Model "mine" deleted.');
    expect(await failure(owner.post('/api/model/delete', { name: 'mine' }))).toEqual({ status: 404, error: 'Model not found.' });
    expect(await failure(owner.post('/api/model/delete', { name: 'default-model' }))).toEqual({ status: 404, error: 'Model not found.' });
    expect(names((await other.get<Lists>('/api/model/list')).result!.user_models)).toEqual(['mine']);
  });

  it('a user model of the same name shadows the system one for its owner only', async () => {
    const owner = await user();
    await owner.post('/api/model/add', { name: 'file-model', base_url: 'https://8.8.8.8/v1' });
    expect((await owner.get<PublicModel>('/api/model/file-model')).result).toMatchObject({ scope: 'user' });
    expect((await t.client().get<PublicModel>('/api/model/file-model')).result).toMatchObject({ scope: 'system' });
  });

  it('limits a user to 50 models', async () => {
    const owner = await user();
    const now = Date.now();
    await (t.server.db.db as ModelsDb)
      .insertInto('models')
      .values(Array.from({ length: 50 }, (_, i) => ({ name: `bulk${i}`, scope: 'user', owner_id: owner.id, provider: 'openai-compatible', model: `bulk${i}`, base_url: 'https://8.8.8.8', api_key: '', price_input: 0, price_output: 0, capabilities: '{}', created_at: now, updated_at: now })))
      .execute();
    expect(await failure(owner.post('/api/model/add', { name: 'one-more', base_url: 'https://8.8.8.8/v1' }))).toEqual({ status: 400, error: 'You can have at most 50 models. Please delete one first.' });
  });

  it("shows a group's models to its members, never with a key; they go with the account", async () => {
    const owner = await user();
    const member = await user();
    const outsider = await user();
    const info = (await owner.get<{ settings: { groupPassword: string } }>('/api/user/info')).result!;
    await member.post('/api/user/group/join', { group: owner.username, password: info.settings.groupPassword });
    const group = await t.server.db.db.selectFrom('groups').select('id').where('name', '=', owner.username).executeTakeFirstOrThrow();
    const now = Date.now();
    await (t.server.db.db as ModelsDb)
      .insertInto('models')
      .values({ name: 'team', scope: 'group', owner_id: group.id, provider: 'openai-compatible', model: 'team-1', base_url: 'https://8.8.8.8/v1', api_key: t.server.models.sealKey(USER_KEY), price_input: 0, price_output: 0, capabilities: '{}', created_at: now, updated_at: now })
      .execute();
    await owner.post('/api/model/add', { name: 'private', base_url: 'https://8.8.8.8/v1', api_key: USER_KEY });

    for (const api of [owner, member]) {
      const lists = (await api.get<Lists>('/api/model/list')).result!;
      expect(names(lists.group_models)).toEqual(['team']);
      expect(JSON.stringify(lists)).not.toContain(USER_KEY);
      // The group's owner manages its models and sees the key masked; members only use them.
      const shown = (await api.get<PublicModel>('/api/model/team')).result!;
      if (api === owner) {
        expect(lists.group_models[0]).toMatchObject({ api_key: expect.stringMatching(/^sk-\*+/), base_url: 'https://8.8.8.8/v1', mine: true });
        expect(shown).toMatchObject({ api_key: expect.stringMatching(/^sk-\*+/), base_url: 'https://8.8.8.8/v1', mine: true });
      } else {
        // A member uses the model; its URL and key stay its owner's.
        expect(lists.group_models[0]).not.toHaveProperty('api_key');
        expect(lists.group_models[0]).not.toHaveProperty('base_url');
        expect(shown).not.toHaveProperty('api_key');
        expect(shown).not.toHaveProperty('base_url');
        expect(shown).not.toHaveProperty('mine');
      }
    }
    expect(names((await member.get<Lists>('/api/model/list')).result!.user_models)).toEqual([]);
    expect(await failure(member.post('/api/model/delete', { name: 'team' }))).toEqual({ status: 404, error: 'Model not found.' });
    expect((await outsider.get<Lists>('/api/model/list')).result!.group_models).toEqual([]);
    expect(await failure(outsider.get('/api/model/team'))).toEqual({ status: 404, error: 'Model not found.' });

    await owner.post('/api/user/delete', { username: owner.username });
    expect(await (t.server.db.db as ModelsDb).selectFrom('models').select('name').where('owner_id', 'in', [owner.id, group.id]).where('name', 'in', ['team', 'private']).execute()).toEqual([]);
  });

  it('never writes a key to the log', () => {
    for (const secret of [SYSTEM_KEY, FILE_KEY, USER_KEY]) expect(t.logs()).not.toContain(secret);
  });
});

describe('system models from DATA_DIR/models.json', () => {
  let t: TestServer;
  beforeAll(async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'shellchat-models-'));
    writeFileSync(
      path.join(dataDir, 'models.json'),
      JSON.stringify([
        { name: 'from-file', provider: 'google', api_key_env: 'FILE_MODEL_KEY' },
        { name: 'local-llama', provider: 'ollama', model: 'llama3.2' },
      ]),
    );
    t = await startTestServer('sqlite', { DATA_DIR: dataDir, FILE_MODEL_KEY: FILE_KEY });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('lists them (no MODEL: the first file model is the default) with provider defaults, never a key', async () => {
    const { result } = await t.client().get<Lists>('/api/model/list');
    expect(result!.system_models.map((m) => [m.name, m.provider, m.model, m.base_url])).toEqual([
      ['from-file', 'google', 'from-file', undefined],
      ['local-llama', 'ollama', 'llama3.2', undefined],
    ]);
    // The provider defaults are kept, on the server.
    expect(t.server.models.system().map((m) => m.baseUrl)).toEqual(['https://generativelanguage.googleapis.com/v1beta', 'http://127.0.0.1:11434/api']);
    expect(JSON.stringify(result)).not.toContain(FILE_KEY);
    expect((await t.client().get<{ model: string }>('/api/system/info')).result!.model).toBe('from-file');
    expect(t.server.models.system()[0]!.apiKey).toBe(FILE_KEY);
  });
});
