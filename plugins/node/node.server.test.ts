// The node commands through the real plugin host, against the real server over HTTP (SQLite),
// a fake plain-HTTP node and a fake OpenAI-compatible node: every command and message of the
// Node help group, the name rule, reset resetting the session, ownership transfer, group
// members' access, and the egress policy (a private address is refused without the allow-list).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Output } from '../../src/core/index.ts';
import { startFakeNode, type FakeNode } from '../../tests/fixtures/fakeNode.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../../tests/fixtures/fakeOpenAI.ts';
import { createShellTester } from '../../tests/harness/shellTester.ts';
import { startTestServer, type TestServer } from '../../tests/server/support.ts';

const PW = 'hunter2hunter2';
const NODE_KEY = 'sk-node-secret-0123456789';

let fakeNode: FakeNode;
let openai: FakeOpenAI;
let server: TestServer;
/** The same server without EGRESS_ALLOW_HOSTS: private addresses are refused. */
let strict: TestServer;

beforeAll(async () => {
  [fakeNode, openai] = await Promise.all([startFakeNode(), startFakeOpenAI()]);
  [server, strict] = await Promise.all([startTestServer('sqlite', { EGRESS_ALLOW_HOSTS: '127.0.0.1' }), startTestServer('sqlite')]);
}, 60_000);

afterAll(async () => {
  await Promise.all([server?.close(), strict?.close(), fakeNode?.close(), openai?.close()]);
});

type Tester = Awaited<ReturnType<typeof createShellTester>>;
const tester = (target = server) => createShellTester({ plugins: ['general', 'user', 'node'], serverUrl: target.url });

let seq = 0;
async function signedUp(target = server): Promise<Tester & { username: string }> {
  const username = `noder${++seq}`;
  const t = await tester(target);
  expect((await t.run(`:user add ${username} ${username}@example.org ${PW}`)).text).toBe(`User ${username} added.`);
  expect((await t.run(`:login ${username} ${PW}`)).text).toBe(`Logged in as ${username}.`);
  return Object.assign(t, { username });
}

const lastJson = <T,>(outputs: Output[]) => (outputs.filter((o) => o.kind === 'json').at(-1) as { value: T } | undefined)?.value;
type Shown = { name: string; owner: string; owner_name: string; settings: Record<string, unknown>; manageable: boolean };

/** A logged-in user with an http node pointing at the fake node. */
async function withNode(name: string, key = NODE_KEY): Promise<Tester & { username: string }> {
  const t = await signedUp();
  expect((await t.run(`:node add "${name}"`)).errors).toEqual([]);
  for (const line of [`:node set kind "http"`, `:node set base_url "${fakeNode.url}"`, `:node set api_key "${key}"`]) expect((await t.run(line)).errors).toEqual([]);
  return t;
}

describe('node commands', () => {
  it('need a login', async () => {
    const t = await tester();
    for (const line of [':node', ':node ls', ':node use "a"', ':node add "a"', ':node del', ':generate "hi"', ':node set owner x', ':node set model "m"']) {
      expect((await t.run(line)).errors).toEqual(['Please login.']);
    }
  });

  it('answer the empty-state messages', async () => {
    const t = await signedUp();
    expect((await t.run(':node ls')).errors).toEqual(['No available node found.']);
    expect((await t.run(':node list')).errors).toEqual(['No available node found.']);
    expect((await t.run(':node')).errors).toEqual(['No node is set...']);
    expect((await t.run(':node "nope"')).errors).toEqual(['Node not found.']);
    expect((await t.run(':node use "nope"')).errors).toEqual(['Node not found.']);
    expect((await t.run(':node unuse "nope"')).errors).toEqual(['No node selected.']);
    expect((await t.run(':node del')).errors).toEqual(['No node selected.']);
    expect((await t.run(':generate "hi"')).errors).toEqual(['No node selected.']);
    expect((await t.run(':node set model "m"')).errors).toEqual(['No node selected.']);
    expect((await t.run(':node set owner root')).errors).toEqual(['No node selected.']);
  });

  it('apply the name rule and the quoting rules', async () => {
    const t = await signedUp();
    expect((await t.run(':node add alpha')).errors).toEqual(['Name must be quoted with double quotes.']);
    expect((await t.run(':node use alpha')).errors).toEqual(['Name must be quoted with double quotes.']);
    expect((await t.run(':generate hi')).errors).toEqual(['Prompt must be quoted with double quotes.']);
    expect((await t.run(':node set model m')).errors).toEqual(['Setting value must be quoted with double quotes.']);
    const invalid = 'Invalid node name. A node name is 1 to 32 letters, digits, underscores and hyphens.';
    for (const bad of ['bad name', 'dot.ted', 'slash/x', 'é', 'a'.repeat(33)]) expect((await t.run(`:node add "${bad}"`)).errors).toEqual([invalid]);
    // The server applies the same rule.
    const api = server.client();
    await api.post('/api/user/login', { username: t.username, password: PW });
    await expect(api.post('/api/node/add', { name: 'a'.repeat(33) })).rejects.toThrow(invalid);
    const longest = `A_b-9${'x'.repeat(27)}`;
    expect((await t.run(`:node add "${longest}"`)).text).toContain(`Node "${longest}" added.`);
    expect((await t.run(`:node add "${longest}"`)).errors).toEqual([`Node "${longest}" already exists.`]);
  });

  it('add, ls, use, unuse, show, set, generate and del', async () => {
    const t = await signedUp();
    const added = await t.run(':node add "alpha"');
    expect(added.text).toContain('Node "alpha" added.');
    expect(lastJson<Shown>(added.outputs)).toMatchObject({ name: 'alpha', owner: 'user', owner_name: t.username, settings: { kind: 'http', base_url: '', api_key: '' } });
    // A node created by add becomes active.
    expect(t.settings.get('node')).toBe('alpha');
    expect((await t.run(':node add "beta"')).errors).toEqual([]);
    expect((await t.run(':node ls')).text).toBe(['User nodes:\n\\alpha *\\beta', 'Group nodes:\n(none)', 'System nodes:\n(none)'].join('\n'));
    expect((await t.run(':node use "alpha"')).text).toBe('Node set to alpha.');
    expect((await t.run(':node ls')).text).toContain('User nodes:\n*\\alpha \\beta');

    expect((await t.run(':node set colour "red"')).errors).toEqual(['Unknown key. Key must be one of: kind, base_url, api_key, model, prompt_template, timeout_ms, description']);
    expect((await t.run(':node set kind "grpc"')).errors).toEqual(['Invalid kind. Valid kinds are: openai, ollama, http.']);
    expect((await t.run(':node set timeout_ms "5"')).errors).toEqual(['Invalid value. timeout_ms is a whole number from 1000 to 120000.']);
    expect((await t.run(':node set base_url "ftp://x"')).errors).toEqual(['URL must start with http or https.']);
    expect((await t.run(':generate "hi"')).errors).toEqual(['The node has no base_url. Set one with :node set base_url "https://...".']);

    expect((await t.run(`:node set base_url "${fakeNode.url}/"`)).text).toContain('Node "alpha" updated.');
    const keyed = await t.run(`:node set api_key "${NODE_KEY}"`);
    expect(keyed.text).not.toContain(NODE_KEY);
    expect(lastJson<Shown>(keyed.outputs)!.settings).toMatchObject({ base_url: fakeNode.url, api_key: 'sk-********************89' });
    expect((await t.run(':node set description "A picture node"')).errors).toEqual([]);
    expect((await t.run(':node set timeout_ms "5000"')).errors).toEqual([]);

    const shown = await t.run(':node');
    expect(lastJson<Shown>(shown.outputs)).toMatchObject({ name: 'alpha', settings: { description: 'A picture node', timeout_ms: 5000 } });
    expect(shown.text).not.toContain(NODE_KEY);
    expect(lastJson<Shown>((await t.run(':node "beta"')).outputs)).toMatchObject({ name: 'beta' });

    const before = fakeNode.requests.length;
    const generated = await t.run(':generate "a lighthouse"');
    expect(generated.errors).toEqual([]);
    expect(generated.outputs).toContainEqual({ kind: 'markdown', text: 'node says: a lighthouse' });
    expect(generated.outputs).toContainEqual({ kind: 'effect', effect: { type: 'result', previews: [fakeNode.image], info: null } });
    const request = fakeNode.requests[before]!;
    expect(request.body).toEqual({ input: 'a lighthouse' });
    expect(request.headers.authorization).toBe(`Bearer ${NODE_KEY}`);
    expect((await t.run(':g "again"')).text).toContain('node says: again');

    // A node that fails: its status, then its time limit.
    fakeNode.reply({ status: 500, body: { error: 'boom' } });
    expect((await t.run(':generate "x"')).errors).toEqual(['The node did not answer: status 500.']);
    expect((await t.run(':node set timeout_ms "1000"')).errors).toEqual([]);
    fakeNode.reply({ delayMs: 2500, body: { text: 'late' } });
    expect((await t.run(':generate "x"')).errors).toEqual(['The node did not answer: no answer within 1000 ms.']);
    // The original's {result: ...} shape is read too.
    fakeNode.reply({ body: { result: 'plain result' } });
    expect((await t.run(':generate "x"')).outputs).toContainEqual({ kind: 'markdown', text: 'plain result' });

    expect((await t.run(':node unuse "beta"')).errors).toEqual(['Node not exists.']);
    expect((await t.run(':node unuse "alpha"')).text).toBe('Node alpha unset.');
    expect(t.settings.get('node')).toBe('');
    expect((await t.run(':node use "alpha"')).errors).toEqual([]);
    expect((await t.run(':node delete')).text).toBe('Node "alpha" deleted.');
    expect(t.settings.get('node')).toBe('');
    expect((await t.run(':node "alpha"')).errors).toEqual(['Node not found.']);
    expect((await t.run(':node use "beta"')).errors).toEqual([]);
    expect((await t.run(':node del')).text).toBe('Node "beta" deleted.');
    expect((await t.run(':node ls')).errors).toEqual(['No available node found.']);
  });

  it(':node reset clears the node and resets the session', async () => {
    const t = await withNode('resetme');
    t.settings.set('session', 1_700_000_000_000);
    t.settings.set('time', 1_700_000_000_000);
    t.settings.set('head', 1_700_000_000_500);
    const result = await t.run(':node reset');
    expect(result.text).toBe('Node reset; a new session has started.');
    expect(t.settings.get('node')).toBe('');
    expect(t.settings.get<number>('session')).toBeGreaterThan(1_700_000_000_000);
    expect(t.settings.get('head')).toBe(0);
  });

  it('calls an OpenAI-compatible node with its model, key and prompt template', async () => {
    const t = await signedUp();
    expect((await t.run(':node add "oai"')).errors).toEqual([]);
    for (const line of [
      ':node set kind "openai"',
      `:node set base_url "${openai.url}"`,
      ':node set model "gpt-4o-mini"',
      `:node set api_key "${NODE_KEY}"`,
      ':node set prompt_template "Describe: {input}"',
    ]) {
      expect((await t.run(line)).errors).toEqual([]);
    }
    openai.reply({ text: 'A tall tower of light.' });
    const before = openai.requests.length;
    const result = await t.run(':generate "lighthouse"');
    expect(result.errors).toEqual([]);
    expect(result.outputs).toContainEqual({ kind: 'markdown', text: 'A tall tower of light.' });
    const sent = openai.requests[before]!;
    expect(JSON.stringify(sent)).toContain('Describe: lighthouse');
    expect(JSON.stringify(sent)).toContain('gpt-4o-mini');
  });

  it(':node set owner gives the node to a member of one of your groups', async () => {
    const a = await withNode('gift');
    const b = await signedUp();
    expect((await a.run(':node set owner nobody-here')).errors).toEqual(['Owner not found. Use a username, "group:<name>" for a group you belong to, or "system".']);
    expect((await a.run(':node set owner system')).errors).toEqual(['Only root can give to the system.']);
    expect((await a.run(':node set owner root')).errors).toEqual(['Only root can give to the system.']);
    expect((await b.run(':node "gift"')).errors).toEqual(['Node not found.']);
    expect((await a.run(`:node set owner ${b.username}`)).errors).toEqual([`You can only give to a member of a group you belong to; ${b.username} is not in any of yours.`]);
    // b joins a's group: now they share one, and a may give b the node.
    const api = server.client();
    await api.post('/api/user/login', { username: a.username, password: PW });
    const groupPassword = (await api.get<{ settings: { groupPassword: string } }>('/api/user/info')).result!.settings.groupPassword;
    expect((await b.run(`:user join ${a.username} ${groupPassword}`)).errors).toEqual([]);
    expect((await a.run(`:node set owner ${b.username}`)).text).toBe(`Node "gift" now belongs to ${b.username}.`);
    expect((await a.run(':node "gift"')).errors).toEqual(['Node not found.']);
    expect((await a.run(':generate "x"')).errors).toEqual(['Node not found.']);
    expect((await b.run(':node use "gift"')).errors).toEqual([]);
    const shown = lastJson<Shown>((await b.run(':node')).outputs)!;
    expect(shown).toMatchObject({ owner: 'user', owner_name: b.username, manageable: true, settings: { api_key: 'sk-********************89' } });
    expect((await b.run(':generate "for b"')).text).toContain('node says: for b');
    expect((await b.run(':node ls')).text).toContain('User nodes:\n*\\gift');
  });

  it('group members use the group nodes; only the group owner changes them', async () => {
    const a = await withNode('team');
    const b = await signedUp();
    const api = server.client();
    await api.post('/api/user/login', { username: a.username, password: PW });
    const groupPassword = (await api.get<{ settings: { groupPassword: string } }>('/api/user/info')).result!.settings.groupPassword;
    expect((await a.run(`:node set owner group:${a.username}`)).text).toBe(`Node "team" now belongs to group:${a.username}.`);
    expect((await b.run(':node use "team"')).errors).toEqual(['Node not found.']);
    expect((await b.run(`:user join ${a.username} ${groupPassword}`)).errors).toEqual([]);
    expect((await b.run(':node ls')).text).toBe(['User nodes:\n(none)', 'Group nodes:\n\\team', 'System nodes:\n(none)'].join('\n'));
    expect((await b.run(':node use "team"')).text).toBe('Node set to team.');
    const shown = lastJson<Shown>((await b.run(':node')).outputs)!;
    expect(shown).toMatchObject({ owner: 'group', owner_name: `group:${a.username}`, manageable: false });
    expect(shown.settings).not.toHaveProperty('api_key');
    expect((await b.run(':generate "team work"')).text).toContain('node says: team work');
    expect((await b.run(':node set description "mine now"')).errors).toEqual(['Only the owner of a node can change it.']);
    expect((await b.run(':node set owner ' + b.username)).errors).toEqual(['Only the owner of a node can change it.']);
    expect((await b.run(':node del')).errors).toEqual(['Only the owner of a node can change it.']);
    // The group's owner still manages it, and a member who leaves loses it.
    expect((await a.run(':node set description "team node"')).errors).toEqual([]);
    expect((await b.run(`:user leave ${a.username}`)).errors).toEqual([]);
    expect((await b.run(':node "team"')).errors).toEqual(['Node not found.']);
  });

  it('refuses private addresses without the allow-list, when saved and when called', async () => {
    const t = await signedUp(strict);
    expect((await t.run(':node add "inside"')).errors).toEqual([]);
    const refused = await t.run(`:node set base_url "${fakeNode.url}"`);
    expect(refused.errors).toHaveLength(1);
    expect(refused.errors[0]).not.toContain('updated');
    // A node row that points inside anyway (written before a policy change) is refused at call time.
    const db = strict.server.db.db as never as { updateTable(t: string): any };
    await db
      .updateTable('nodes')
      .set({ settings: JSON.stringify({ kind: 'http', base_url: fakeNode.url, api_key: '', model: '', prompt_template: '', timeout_ms: 5000, description: '' }) })
      .where('name', '=', 'inside')
      .execute();
    const before = fakeNode.requests.length;
    const result = await t.run(':generate "x"');
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]).toMatch(/^The node did not answer: /);
    expect(fakeNode.requests.length).toBe(before);
  });
});
