// web_search and web_fetch wherever functions are chosen: the Settings page's choices of the
// `functions` setting, and the toolbox a local model (called from the browser) gets, which runs
// them on the real server (SQLite) against the fake SearXNG, through the fake Ollama.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolboxRef } from '../../src/core/index.ts';
import { localGeneration } from '../../src/shell/chat/local.ts';
import { startFakeOllama, type FakeOllama } from '../../tests/fixtures/fakeOllama.ts';
import { createShellTester } from '../../tests/harness/shellTester.ts';
import { startTestServer, type TestServer } from '../../tests/server/support.ts';
import { startFakeWeb, type FakeWeb } from './fixtures/site.ts';

const PW = 'hunter2hunter2';
let server: TestServer;
let ollama: FakeOllama;
let site: FakeWeb;

beforeAll(async () => {
  site = await startFakeWeb();
  [server, ollama] = await Promise.all([startTestServer('sqlite', { SEARXNG_URL: site.searxngUrl }), startFakeOllama()]);
}, 60_000);
afterAll(async () => {
  await Promise.all([server?.close(), ollama?.close(), site?.close()]);
});

async function browser(username: string) {
  const t = await createShellTester({ plugins: ['general', 'user', 'function', 'web'], serverUrl: server.url });
  expect((await t.run(`:user add ${username} ${username}@example.org ${PW}`)).text).toBe(`User ${username} added.`);
  expect((await t.run(`:login ${username} ${PW}`)).text).toBe(`Logged in as ${username}.`);
  return t;
}

describe('the web functions where functions are chosen', () => {
  it("are among the Settings page's system functions", async () => {
    const t = await browser('chooser');
    const groups = await t.host.choicesFor('functions');
    const system = groups?.[0]?.values ?? [];
    expect(system).toEqual(expect.arrayContaining(['get_time', 'web_search', 'web_fetch']));
    // Picked there (the setting's setter checks each name), they are in use.
    await t.run(':set functions "web_search,web_fetch"');
    expect((await t.run(':function ls')).outputs).toContainEqual(expect.objectContaining({ items: expect.arrayContaining([{ text: 'web_search', active: true }]) }));
  });

  it("are in a local model's toolbox, and web_search runs on the server when the model calls it", async () => {
    const t = await browser('localweb');
    await t.host.ensureActive('function');
    const toolbox = t.host.services.get(ToolboxRef);
    expect((await toolbox.tools(['web_search', 'web_fetch'])).map((f) => f.name)).toEqual(['web_search', 'web_fetch']);

    const withCookies = ((input: RequestInfo | URL, init: RequestInit = {}) => {
      const headers = new Headers(init.headers);
      if (String(input).startsWith(server.url)) headers.set('cookie', [...t.cookies].map(([k, v]) => `${k}=${v}`).join('; '));
      return fetch(input, { ...init, headers });
    }) as typeof fetch;
    ollama.reply({ toolCalls: [{ id: 'w1', name: 'web_search', arguments: '{"query":"rust async traits"}' }] });
    ollama.reply({ text: 'Traits got async [1].' });
    const before = ollama.requests.length;
    const searches = site.searches.length;
    let error: string | undefined;
    await localGeneration({ session: 1_840_000_000_001, user_input: 'news?', model: 'llama3.2', functions: 'web_search', mcp_tools: [] }, () => {}, {
      signal: new AbortController().signal,
      ollamaUrl: ollama.url,
      baseUrl: server.url,
      fetch: withCookies,
      toolbox,
    }).catch((err: Error) => (error = err.message));
    expect(error).toBeUndefined();
    const [first, second] = ollama.requests.slice(before);
    expect(((first!.body.tools ?? []) as { function: { name: string } }[]).map((f) => f.function.name)).toEqual(['web_search']);
    expect(site.searches.slice(searches)).toEqual([expect.objectContaining({ query: 'rust async traits' })]);
    const tool = (second!.body.messages as { role: string; content: string }[]).find((m) => m.role === 'tool');
    expect(tool?.content).toContain('Async fn in traits stabilized');
  });
});
