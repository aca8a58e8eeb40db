// Group models through the real plugin host and the real server (SQLite): an owner shares one
// of their models with their own group (`:model set "name" shared "true"`); the members who
// joined with the group password list it and chat with it, their turns reach the owner's base
// URL with the owner's key, and they can neither see the key nor change or delete the model.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GenerationEvent, PublicModel } from '../../src/core/index.ts';
import { streamGeneration } from '../../src/core/api/generationClient.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../../tests/fixtures/fakeOpenAI.ts';
import { createShellTester } from '../../tests/harness/shellTester.ts';
import { startTestServer, type TestServer } from '../../tests/server/support.ts';

const PW = 'hunter2hunter2';
const OWNER_KEY = 'sk-owner-secret-key-0123456789';

let system: FakeOpenAI;
let ownerProvider: FakeOpenAI;
let server: TestServer;

beforeAll(async () => {
  [system, ownerProvider] = await Promise.all([startFakeOpenAI(), startFakeOpenAI()]);
  server = await startTestServer('sqlite', { MODEL: 'gpt-4o-mini', OPENAI_BASE_URL: system.url, OPENAI_API_KEY: 'sk-system', EGRESS_ALLOW_HOSTS: new URL(ownerProvider.url).host });
}, 60_000);

afterAll(async () => {
  await Promise.all([server?.close(), system?.close(), ownerProvider?.close()]);
});

type Tester = Awaited<ReturnType<typeof createShellTester>>;

let seq = 0;
async function signedUp(): Promise<Tester & { username: string }> {
  const username = `sharer${++seq}`;
  const t = await createShellTester({ plugins: ['general', 'user', 'model'], serverUrl: server.url, systemInfo: { ollama_url: 'http://127.0.0.1:9' } });
  expect((await t.run(`:user add ${username} ${username}@example.org ${PW}`)).text).toBe(`User ${username} added.`);
  expect((await t.run(`:login ${username} ${PW}`)).text).toBe(`Logged in as ${username}.`);
  return Object.assign(t, { username });
}

async function chat(t: Tester, model: string, session: number): Promise<GenerationEvent[]> {
  const events: GenerationEvent[] = [];
  const cookie = [...t.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  await streamGeneration({ session, user_input: 'hello team', model }, (e) => events.push(e), {
    signal: new AbortController().signal,
    baseUrl: server.url,
    fetch: ((input: RequestInfo | URL, init: RequestInit = {}) => fetch(input, { ...init, headers: { ...(init.headers as Record<string, string>), cookie } })) as typeof fetch,
  });
  return events;
}

/** The owner's group password, as the owner's account info gives it. */
async function groupPassword(username: string): Promise<string> {
  const api = server.client();
  await api.post('/api/user/login', { username, password: PW });
  return String((await api.get<{ settings: Record<string, unknown> }>('/api/user/info')).result!.settings.groupPassword);
}

/** The message line of a command's answer (its JSON output follows). */
const said = (result: { text: string; errors: string[] }) => {
  expect(result.errors).toEqual([]);
  return result.text.split('\n')[0];
};

const MASKED = `sk-${'*'.repeat(OWNER_KEY.length - 5)}89`;

const shown = (outputs: { kind: string }[]) => (outputs.filter((o) => o.kind === 'json').at(-1) as { value: PublicModel } | undefined)?.value;

describe('group models', () => {
  it('an owner shares a model with their group; members use it without seeing or changing it', async () => {
    const owner = await signedUp();
    const member = await signedUp();
    const outsider = await signedUp();
    expect(said(await owner.run(`:model add "team-gpt" "${ownerProvider.url}" "${OWNER_KEY}"`))).toBe('Model "team-gpt" added.');
    expect((await member.run(`:user join ${owner.username} ${await groupPassword(owner.username)}`)).text).toBe(`Joined group ${owner.username}.`);

    // Not shared yet: the member cannot reach it.
    expect((await member.run(':model ls')).text).toContain('Group models:\n(none)');
    expect((await member.run(':model use "team-gpt"')).errors).toEqual(['Model not found.']);

    expect((await owner.run(':model set "team-gpt" shared "maybe"')).errors).toEqual(['Invalid value. Value must be true or false.']);
    const shared = await owner.run(':model set "team-gpt" shared "true"');
    expect(said(shared)).toBe('Model "team-gpt" is shared with your group: its members can use it, but never see its key.');
    expect(shown(shared.outputs)).toMatchObject({ name: 'team-gpt', scope: 'group', mine: true, api_key: MASKED, base_url: ownerProvider.url });

    // The member lists it under the group's models and sees no key.
    const listed = await member.run(':model ls');
    expect(listed.text).toContain('Group models:\n\\team-gpt');
    const details = shown((await member.run(':model "team-gpt"')).outputs)!;
    expect(details).toMatchObject({ name: 'team-gpt', scope: 'group' });
    // Its URL, like its key, stays the owner's (issue 34): members only use the model.
    expect(details).not.toHaveProperty('base_url');
    expect(details).not.toHaveProperty('api_key');
    expect(details).not.toHaveProperty('mine');

    // A member's turn reaches the owner's base URL with the owner's key; nothing returns it.
    expect((await member.run(':model use "team-gpt"')).text).toBe('Model set to team-gpt.');
    ownerProvider.always({ chunks: ['Shared ', 'answer.'] });
    const before = ownerProvider.requests.length;
    const events = await chat(member, 'team-gpt', 1_800_000_500_000);
    expect(events.filter((e) => e.type === 'text').map((e) => (e as { delta: string }).delta).join('')).toBe('Shared answer.');
    expect(events.find((e) => e.type === 'model')).toEqual({ type: 'model', model: 'team-gpt' });
    expect(ownerProvider.requests.length).toBe(before + 1);
    expect(ownerProvider.requests.at(-1)!.headers.authorization).toBe(`Bearer ${OWNER_KEY}`);
    expect(JSON.stringify(events)).not.toContain(OWNER_KEY);
    for (const line of [':model ls', ':model "team-gpt"', ':model']) expect(JSON.stringify((await member.run(line)).outputs)).not.toContain(OWNER_KEY);

    // Only the owner manages it: a member's change or delete finds nothing of theirs.
    expect((await member.run(`:model set "team-gpt" base_url "https://attacker.example/v1"`)).errors).toEqual(['Model not found.']);
    expect((await member.run(':model set "team-gpt" shared "false"')).errors).toEqual(['Model not found.']);
    expect((await member.run(':model del "team-gpt"')).errors).toEqual(['Model not found.']);
    expect(said(await owner.run(':model set "team-gpt" price_input "0.000002"'))).toBe('Model "team-gpt" updated.');

    // Someone outside the group never sees it.
    expect((await outsider.run(':model ls')).text).toContain('Group models:\n(none)');
    expect((await outsider.run(':model use "team-gpt"')).errors).toEqual(['Model not found.']);

    // Taken back: the member loses it, the owner keeps it as their own.
    expect(said(await owner.run(':model set "team-gpt" shared "false"'))).toBe('Model "team-gpt" is yours alone again.');
    expect((await member.run(':model ls')).text).toContain('Group models:\n(none)');
    const refused = await chat(member, 'team-gpt', 1_800_000_500_001);
    expect(refused.at(-1)).toEqual({ type: 'error', error: 'Model not found.', message: { code: 'core.modelNotFound', params: {}, text: 'Model not found.' } });
    expect(shown((await owner.run(':model "team-gpt"')).outputs)).toMatchObject({ scope: 'user', mine: true, api_key: MASKED });
  });

  it('a shared model keeps its name unique among the owner’s models, and goes with the account', async () => {
    const owner = await signedUp();
    const member = await signedUp();
    await member.run(`:user join ${owner.username} ${await groupPassword(owner.username)}`);
    await owner.run(`:model add "dup" "${ownerProvider.url}" "${OWNER_KEY}"`);
    await owner.run(':model set "dup" shared "true"');
    expect((await owner.run(`:model add "dup" "${ownerProvider.url}"`)).errors).toEqual(['Model "dup" already exists.']);
    expect((await owner.run(':model del "dup"')).text).toBe('Model "dup" deleted.');
    expect((await member.run(':model ls')).text).toContain('Group models:\n(none)');

    await owner.run(`:model add "gone" "${ownerProvider.url}" "${OWNER_KEY}"`);
    await owner.run(':model set "gone" shared "true"');
    expect((await member.run(':model ls')).text).toContain('\\gone');
    expect((await owner.run(`:user del ${owner.username}`)).text).toBe('User removed.');
    expect((await member.run(':model ls')).text).toContain('Group models:\n(none)');
  });
});
