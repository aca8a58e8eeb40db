// Nodes over real HTTP on every database engine: the routes of spec part 7 (list, details,
// add, delete, settings, owner, generate) with their ownership rules, and a chat turn with an
// active node under USE_NODE_AI: the node's output reaches the model as a system message and
// its images show in the stream's image events. Every node call goes through the egress-safe fetch.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient, GenerationEvent } from '../../src/core/index.ts';
import { streamGeneration } from '../../src/core/api/generationClient.ts';
import type { NodeLists, NodeOutput, PublicNode } from '../../plugins/node/common/index.ts';
import { startFakeNode, type FakeNode } from '../fixtures/fakeNode.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fakeOpenAI.ts';
import { engines, failure, startTestServer, type TestServer } from './support.ts';

const PW = 'correct-horse-1';
const KEY = 'sk-node-route-key-0123456789';

let fakeNode: FakeNode;
let openai: FakeOpenAI;
beforeAll(async () => {
  [fakeNode, openai] = await Promise.all([startFakeNode(), startFakeOpenAI()]);
});
afterAll(async () => {
  await Promise.all([fakeNode?.close(), openai?.close()]);
});

async function signup(t: TestServer, username: string): Promise<ApiClient & { cookies: Map<string, string>; raw: typeof fetch }> {
  const api = t.client();
  await api.post('/api/user/add', { username, email: `${username}@example.org`, password: PW });
  await api.post('/api/user/login', { username, password: PW });
  return api;
}

describe.each(await engines())('node routes on %s', (engine) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(engine, { EGRESS_ALLOW_HOSTS: '127.0.0.1' });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it("never shows the operator's address of a system node to those who use it (issue 34)", async () => {
    const root = t.client();
    await root.post('/api/user/login', { username: 'root', password: 'root-password-1' });
    await root.post('/api/node/add', { name: 'internal' });
    await root.post('/api/node/update/internal/settings', { key: 'base_url', value: fakeNode.url });
    await root.post('/api/node/update/internal/settings', { key: 'api_key', value: KEY });
    expect((await root.post('/api/node/update/internal/owner', { owner: 'system' })).message).toBe('Node "internal" now belongs to system.');
    const cy = await signup(t, 'cy');
    const seen = (await cy.get<NodeLists>('/api/node/list')).result!.system_nodes;
    expect(seen.map((n) => [n.name, n.manageable])).toEqual([['internal', false]]);
    expect(seen[0]!.settings).not.toHaveProperty('base_url');
    expect(seen[0]!.settings).not.toHaveProperty('api_key');
    const one = await cy.get<PublicNode>('/api/node/internal');
    expect(JSON.stringify(one)).not.toContain(fakeNode.url);
    // Its manager (root) still sees where it points.
    expect((await root.get<PublicNode>('/api/node/internal')).result!.settings.base_url).toBe(fakeNode.url);
    await root.post('/api/node/delete', { name: 'internal' });
  });

  it('adds, lists, shows, changes, calls, transfers and deletes nodes', async () => {
    const ada = await signup(t, 'ada');
    const bob = await signup(t, 'bob');
    expect(await failure(t.client().get('/api/node/list'))).toEqual({ status: 401, error: 'Please login.' });
    expect((await ada.get<NodeLists>('/api/node/list')).result).toEqual({ user_nodes: [], group_nodes: [], system_nodes: [] });

    const added = await ada.post<PublicNode>('/api/node/add', { name: 'painter' });
    expect(added.message).toBe('Node "painter" added.');
    expect(added.result).toMatchObject({ name: 'painter', owner: 'user', owner_name: 'ada', manageable: true });
    expect(await failure(ada.post('/api/node/add', { name: 'painter' }))).toEqual({ status: 409, error: 'Node "painter" already exists.' });
    expect((await failure(ada.post('/api/node/add', { name: 'bad name' }))).status).toBe(400);
    // Another user may use the same name for their own node.
    expect((await bob.post('/api/node/add', { name: 'painter' })).message).toBe('Node "painter" added.');
    await bob.post('/api/node/delete', { name: 'painter' });

    const set = (key: string, value: string) => ada.post<PublicNode>('/api/node/update/painter/settings', { key, value });
    expect(await failure(set('colour', 'red'))).toMatchObject({ status: 400 });
    await set('base_url', fakeNode.url);
    const keyed = await set('api_key', KEY);
    expect(JSON.stringify(keyed)).not.toContain(KEY);
    expect(keyed.result!.settings.api_key).toBe('sk-***********************89');
    // The key is sealed at rest.
    const row = await (t.server.db.db as never as { selectFrom(t: string): any }).selectFrom('nodes').selectAll().where('name', '=', 'painter').executeTakeFirstOrThrow();
    expect(row.settings).not.toContain(KEY);

    expect((await ada.get<PublicNode>('/api/node/painter')).result).toMatchObject({ name: 'painter', settings: { base_url: fakeNode.url } });
    expect(await failure(bob.get('/api/node/painter'))).toEqual({ status: 404, error: 'Node not found.' });
    expect(await failure(bob.post('/api/node/update/painter/settings', { key: 'model', value: 'x' }))).toEqual({ status: 404, error: 'Node not found.' });
    expect(await failure(bob.post('/api/node/generate', { input: 'x', node: 'painter' }))).toEqual({ status: 404, error: 'Node not found.' });

    const out = (await ada.post<NodeOutput>('/api/node/generate', { input: 'a cat', node: 'painter' })).result!;
    expect(out).toEqual({ node: 'painter', text: 'node says: a cat', images: [fakeNode.image] });
    expect(fakeNode.requests.at(-1)!.headers.authorization).toBe(`Bearer ${KEY}`);

    // Transfer to bob: refused while bob shares no group with ada (nothing lands in a stranger's
    // account); once ada joins bob's group, ada loses it and bob manages it.
    expect(await failure(bob.post('/api/node/update/painter/owner', { owner: 'bob' }))).toEqual({ status: 404, error: 'Node not found.' });
    expect(await failure(ada.post('/api/node/update/painter/owner', { owner: 'bob' }))).toEqual({
      status: 403,
      error: 'You can only give to a member of a group you belong to; bob is not in any of yours.',
    });
    expect(await failure(ada.post('/api/node/update/painter/owner', { owner: 'system' }))).toEqual({ status: 403, error: 'Only root can give to the system.' });
    const info = (await bob.get<{ settings: { groupPassword: string } }>('/api/user/info')).result!;
    await ada.post('/api/user/group/join', { group: 'bob', password: info.settings.groupPassword });
    expect((await ada.post('/api/node/update/painter/owner', { owner: 'bob' })).message).toBe('Node "painter" now belongs to bob.');
    expect(await failure(ada.get('/api/node/painter'))).toEqual({ status: 404, error: 'Node not found.' });
    expect((await bob.get<NodeLists>('/api/node/list')).result!.user_nodes.map((n) => n.name)).toEqual(['painter']);

    // To bob's group: ada, a member, may use the node, not change it.
    expect((await bob.post('/api/node/update/painter/owner', { owner: 'group:bob' })).message).toBe('Node "painter" now belongs to group:bob.');
    const lists = (await ada.get<NodeLists>('/api/node/list')).result!;
    expect(lists.group_nodes.map((n) => [n.name, n.owner_name, n.manageable])).toEqual([['painter', 'group:bob', false]]);
    expect(lists.group_nodes[0]!.settings).not.toHaveProperty('api_key');
    // A group node's address is its owner's: a member uses it without seeing it (issue 34).
    expect(lists.group_nodes[0]!.settings).not.toHaveProperty('base_url');
    expect((await ada.post<NodeOutput>('/api/node/generate', { input: 'a dog', node: 'painter' })).result!.text).toBe('node says: a dog');
    expect(await failure(ada.post('/api/node/update/painter/settings', { key: 'model', value: 'x' }))).toEqual({ status: 403, error: 'Only the owner of a node can change it.' });
    expect(await failure(ada.post('/api/node/delete', { name: 'painter' }))).toEqual({ status: 403, error: 'Only the owner of a node can change it.' });
    expect(await failure(ada.post('/api/node/update/painter/owner', { owner: 'ada' }))).toMatchObject({ status: 403 });
    expect((await bob.post('/api/node/delete', { name: 'painter' })).message).toBe('Node "painter" deleted.');
    expect((await ada.get<NodeLists>('/api/node/list')).result!.group_nodes).toEqual([]);
  });

  it('limits a user to 10 nodes', async () => {
    const api = await signup(t, 'many');
    for (let i = 0; i < 10; i++) await api.post('/api/node/add', { name: `n${i}` });
    expect(await failure(api.post('/api/node/add', { name: 'n10' }))).toEqual({ status: 400, error: 'You can have at most 10 nodes. Please delete one first.' });
  });
});

describe('a chat turn with an active node', () => {
  let on: TestServer;
  let off: TestServer;
  beforeAll(async () => {
    const env = { MODEL: 'gpt-4o-mini', OPENAI_BASE_URL: openai.url, OPENAI_API_KEY: 'sk-system-key-0123456789', EGRESS_ALLOW_HOSTS: '127.0.0.1' };
    [on, off] = await Promise.all([startTestServer('sqlite', { ...env, USE_NODE_AI: 'true' }), startTestServer('sqlite', env)]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([on?.close(), off?.close()]);
  });

  async function turn(t: TestServer) {
    const api = await signup(t, 'chatter');
    await api.post('/api/node/add', { name: 'seer' });
    await api.post('/api/node/update/seer/settings', { key: 'base_url', value: fakeNode.url });
    const events: GenerationEvent[] = [];
    const before = openai.requests.length;
    openai.always({ text: 'The answer.' });
    await streamGeneration({ session: 1_800_000_000_000, user_input: 'what do you see?', node: 'seer' }, (e) => events.push(e), {
      signal: new AbortController().signal,
      baseUrl: t.url,
      fetch: api.raw,
    });
    const sent = openai.requests.slice(before);
    return { events, sent };
  }

  it('sends the node output as a system message and shows its images (USE_NODE_AI=true)', async () => {
    const { events, sent } = await turn(on);
    expect(events.filter((e) => e.type === 'error')).toEqual([]);
    expect(sent).toHaveLength(1);
    const messages = (sent[0]!.body as { messages: { role: string; content: unknown }[] }).messages;
    const system = messages.filter((m) => m.role === 'system').map((m) => JSON.stringify(m.content));
    expect(system.some((s) => s.includes('node says: what do you see?'))).toBe(true);
    expect(events).toContainEqual({ type: 'image', url: fakeNode.image });
    expect(events.some((e) => e.type === 'status' && e.text.startsWith('Node AI querying'))).toBe(true);
    expect(events.flatMap((e) => (e.type === 'text' ? [e.delta] : [])).join('')).toBe('The answer.');
  });

  it('leaves the node out when USE_NODE_AI is off', async () => {
    const calls = fakeNode.requests.length;
    const { events, sent } = await turn(off);
    expect(events.filter((e) => e.type === 'error')).toEqual([]);
    expect(JSON.stringify(sent[0]!.body)).not.toContain('node says');
    expect(events.some((e) => e.type === 'image')).toBe(false);
    expect(fakeNode.requests.length).toBe(calls);
  });
});
