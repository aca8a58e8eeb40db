// A `+web[query]` question that cannot have its search, through the real server over HTTP: the
// web usage limit and the per-question limit refuse it before anything is searched, counted or
// asked of the model; a search backend answering 500 refuses it before the model is asked, and
// the pages it names still wait for it. Each refusal is one line with its code (the page and
// the terminal show it in the interface's language), and the question may be sent again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GenerationEvent } from '../../src/core/index.ts';
import { streamGeneration } from '../../src/core/api/generationClient.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../../tests/fixtures/fakeOpenAI.ts';
import { startTestServer, type TestServer } from '../../tests/server/support.ts';
import { startFakeWeb, type FakeWeb } from './fixtures/site.ts';
import { pageMarker } from './common/marker.ts';

let site: FakeWeb;
let fake: FakeOpenAI;
/** Its backend answers 500; visitors may make no web use at all (WEB_USAGE_LIMITS 0). */
let broken: TestServer;
/** Visitors may make no search or read per question (WEB_VISITOR_TURN_MAX_CALLS 0). */
let noTurn: TestServer;
let session = 1_840_000_000_000;

beforeAll(async () => {
  [site, fake] = await Promise.all([startFakeWeb(), startFakeOpenAI()]);
  const common = { MODEL: 'gpt-4o-mini', OPENAI_BASE_URL: fake.url, EGRESS_ALLOW_HOSTS: `localhost:${site.port}` };
  [broken, noTurn] = await Promise.all([
    startTestServer('sqlite', { ...common, SEARXNG_URL: `${site.origin}/broken`, WEB_USAGE_LIMITS: 'anonymous:0,-,-;user:-,-,-' }),
    startTestServer('sqlite', { ...common, SEARXNG_URL: site.searxngUrl, WEB_VISITOR_TURN_MAX_CALLS: '0' }),
  ]);
}, 60_000);

afterAll(async () => {
  await Promise.all([broken?.close(), noTurn?.close()]);
  await Promise.all([fake?.close(), site?.close()]);
});

type Api = ReturnType<TestServer['client']>;

async function ask(server: TestServer, client: Api, user_input: string): Promise<GenerationEvent[]> {
  const events: GenerationEvent[] = [];
  await streamGeneration({ user_input, session: ++session } as never, (e) => events.push(e), { signal: new AbortController().signal, baseUrl: server.url, fetch: client.raw });
  return events;
}

/** What the client was told: the error events (text and code), and whether anything was answered. */
const told = (events: GenerationEvent[]) => ({
  errors: events.flatMap((e) => (e.type === 'error' ? [{ error: e.error, code: e.message?.code }] : [])),
  answered: events.some((e) => e.type === 'text' || e.type === 'done'),
});

/** The web uses and questions counted in the usage ledger, read through the server's own database. */
async function uses(server: TestServer): Promise<string[]> {
  const rows = await server.server.db.db.selectFrom('usage').select('kind').orderBy('id').execute();
  return rows.map((r) => r.kind);
}

describe('+web[query] refused in one line', () => {
  it('past the web usage limit (0): before a search, a count or the model', async () => {
    const [searches, asked] = [site.searches.length, fake.requests.length];
    const events = await ask(broken, broken.client(), 'What is new? +web[rust]');
    expect(told(events)).toEqual({ errors: [{ error: 'Web search and page reads limit reached: 0 of 0 this day.', code: 'web.limit' }], answered: false });
    expect(site.searches.length).toBe(searches);
    expect(fake.requests.length).toBe(asked);
    expect(await uses(broken)).toEqual([]);
  });

  it('past the per-question limit (0): before a search, a count or the model', async () => {
    const [searches, asked] = [site.searches.length, fake.requests.length];
    const client = noTurn.client();
    const events = await ask(noTurn, client, 'What is new? +web[rust]');
    expect(told(events)).toEqual({ errors: [{ error: 'At most 0 web searches and page reads per question.', code: 'web.turnLimit' }], answered: false });
    expect(site.searches.length).toBe(searches);
    expect(fake.requests.length).toBe(asked);
    expect(await uses(noTurn)).toEqual([]);
    // The same question without `+web[...]` is answered.
    fake.reply({ text: 'ok' });
    expect(told(await ask(noTurn, client, 'What is new?'))).toEqual({ errors: [], answered: true });
  });

  it('when the backend answers 500: before the model is asked, and the pages it names still wait for it', async () => {
    const root = broken.client();
    await root.post('/api/user/login', { username: 'root', password: 'root-password-1' });
    await root.post('/api/web/open', { url: `${site.origin}/article/rust` });
    const [searches, asked] = [site.searches.length, fake.requests.length];
    const events = await ask(broken, root, `What changed? ${pageMarker(`${site.origin}/article/rust`)} +web[rust 1.75]`);
    expect(told(events)).toEqual({ errors: [{ error: 'The search service did not answer (status 500).', code: 'web.backendFailed' }], answered: false });
    expect(site.searches.slice(searches).map((s) => s.path)).toEqual(['/broken/search']);
    expect(fake.requests.length).toBe(asked);
    const { result } = await root.get<{ reads: { url: string; pending: boolean }[] }>('/api/web/reads');
    expect(result!.reads[0]).toMatchObject({ url: `${site.origin}/article/rust`, pending: true });
    // Sent again without the search, it gets the page.
    fake.reply({ text: 'ok' });
    expect(told(await ask(broken, root, `What changed? ${pageMarker(`${site.origin}/article/rust`)}`))).toEqual({ errors: [], answered: true });
    expect(JSON.stringify(fake.requests.at(-1)!.body.messages)).toContain('Async functions in traits were stabilized');
  });
});
