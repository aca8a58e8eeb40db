// `:search` through the real plugin host against the real server (SQLite): the spec's messages,
// and a result that is the user's own and runs `:search open` (moved here from the session
// plugin's tests when the substring search left it).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PlatformRef, type GenerateResult, type Output } from '../../src/core/host/index.ts';
import { buildRequest } from '../../src/core/api/generateRequest.ts';
import { createShellTester } from '../../tests/harness/shellTester.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../../tests/fixtures/fakeOpenAI.ts';
import { startTestServer, type TestServer } from '../../tests/server/support.ts';

const PW = 'search-password-1';
let server: TestServer;
let fake: FakeOpenAI;
let lastSession = Date.now() - 100_000_000;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  server = await startTestServer('sqlite', { MODEL: 'gpt-4o-mini', OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'sk-test' });
  for (const name of ['ada', 'bob', 'cyd']) await server.server.accounts.create({ username: name, email: `${name}@example.org`, password: PW });
}, 60_000);

afterAll(async () => {
  await server?.close();
  await fake?.close();
});

async function tester() {
  const session = (lastSession += 1_000);
  const t = await createShellTester({ serverUrl: server.url, settings: { session, time: session } });
  await t.host.activateStartup();
  return t;
}

async function loggedIn(username: string) {
  const t = await tester();
  expect((await t.run(`:login ${username} ${PW}`)).text).toBe(`Logged in as ${username}.`);
  return t;
}

const lists = (outputs: Output[]) => outputs.filter((o): o is Extract<Output, { kind: 'list' }> => o.kind === 'list');

describe(':search in the shell', () => {
  it('needs a login and a quoted text, with the spec\'s messages', async () => {
    expect((await (await tester()).run(':search "x"')).errors).toEqual(['Please login.']);
    const t = await loggedIn('cyd');
    expect((await t.run(':search hello')).errors).toEqual(['Search text must be quoted with double quotes.']);
    expect((await t.run(':sr hello')).errors).toEqual(['Search text must be quoted with double quotes.']);
    expect((await t.run(':search')).errors).toEqual(['Usage: :search "<text>"']);
    expect((await t.run(':search "  "')).errors).toEqual(['Search text is required.']);
    expect((await t.run(':search "nothing like this"')).errors).toEqual(['No log found.']);
  });

  it("says :search open's usage line, from the manifest, in the interface's language", async () => {
    const t = await loggedIn('cyd');
    expect((await t.run(':search open 12 x')).errors).toEqual(['Usage: :search open <session> <time>, as written under each result.']);
    const de = await createShellTester({ serverUrl: server.url, lang: 'de-DE', settings: { session: (lastSession += 1_000) } });
    await de.host.activateStartup();
    await de.run(`:login cyd ${PW}`);
    expect((await de.run(':search open x 12')).errors).toEqual(['Verwendung: :search open <session> <time>, wie unter jedem Treffer angegeben.']);
  });

  it('finds the user\'s own log whatever the case, marks the word, and opens it; never anybody else\'s', async () => {
    const ada = await loggedIn('ada');
    const api = ada.host.services.get(PlatformRef).api;
    const answer = await api.post<GenerateResult>('/api/generate', buildRequest(ada.settings, { text: 'Tell me about Kubernetes pods', images: [], files: [] }));
    const { session, time } = answer.result!.info;
    const found = await ada.run(':search "KUBERNETES"');
    expect(found.errors).toEqual([]);
    const [list] = lists(found.outputs);
    expect(list!.items).toHaveLength(1);
    const item = list!.items[0]!;
    expect(item.run).toBe(`:search open ${session} ${time}`);
    expect((item.marks ?? []).map(([a, b]) => item.text.slice(a, b).toLowerCase())).toContain('kubernetes');
    const opened = await ada.run(item.run!);
    expect(opened.errors).toEqual([]);
    expect(JSON.stringify(opened.outputs)).toContain('Tell me about Kubernetes pods');
    expect((await (await loggedIn('bob')).run(':search "kubernetes"')).errors).toEqual(['No log found.']);
  });
});
