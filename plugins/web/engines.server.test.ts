// The web plugin's table and ledger rows on every engine the server runs on (SQLite, and
// PostgreSQL and MySQL/MariaDB where they answer): a page read waits for the next question,
// which takes it once; `:web`'s list is the reader's own; the role's limit counts the rows,
// under the asker's locks (searches sent at once), per browser and per address (issue 34).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GenerationEvent } from '../../src/core/index.ts';
import { streamGeneration } from '../../src/core/api/generationClient.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../../tests/fixtures/fakeOpenAI.ts';
import { engines, failure, startTestServer, type TestServer } from '../../tests/server/support.ts';
import { startFakeWeb, type FakeWeb } from './fixtures/site.ts';
import { pageMarker } from './common/marker.ts';

let site: FakeWeb;
let fake: FakeOpenAI;
beforeAll(async () => {
  [site, fake] = await Promise.all([startFakeWeb(), startFakeOpenAI()]);
});
afterAll(async () => {
  await Promise.all([site?.close(), fake?.close()]);
});

describe.each(await engines())('web on %s', (engine) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(engine, {
      MODEL: 'gpt-4o-mini',
      OPENAI_BASE_URL: fake.url,
      SEARXNG_URL: site.searxngUrl,
      EGRESS_ALLOW_HOSTS: `localhost:${site.port}`,
      WEB_USAGE_LIMITS: 'anonymous:3,-,-',
    });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('keeps a read for the next question only, per reader, and counts reads and searches together', async () => {
    const reader = t.client();
    const other = t.client();
    await reader.post('/api/web/open', { url: `${site.origin}/article/rust` });
    expect((await other.get<{ reads: unknown[] }>('/api/web/reads')).result?.reads).toEqual([]);
    fake.reply({ text: 'ok' });
    const events: GenerationEvent[] = [];
    await streamGeneration({ user_input: `q ${pageMarker(`${site.origin}/article/rust`)}`, session: Date.now() } as never, (e) => events.push(e), { signal: new AbortController().signal, baseUrl: t.url, fetch: reader.raw });
    const system = (fake.requests.at(-1)!.body.messages as { role: string; content: string }[]).filter((m) => m.role === 'system').map((m) => m.content).join('\n');
    expect(system).toContain('Async functions in traits were stabilized');
    const reads = (await reader.get<{ reads: { pending: boolean; url: string }[] }>('/api/web/reads')).result?.reads;
    expect(reads).toEqual([expect.objectContaining({ url: `${site.origin}/article/rust`, pending: false })]);
    await reader.post('/api/web/search', { query: 'a' });
    await reader.post('/api/web/search', { query: 'b' });
    expect(await failure(reader.post('/api/web/search', { query: 'c' }))).toEqual({ status: 429, error: 'Web search and page reads limit reached: 3 of 3 this day.' });
  });

  it('counts searches sent at once one after the other: 20 at once pass a limit of 3 three times', async () => {
    const visitor = t.client();
    // One browser: its device cookie first (requests without one would each be a new visitor).
    await visitor.get('/api/web/reads');
    const asked = site.searches.length;
    const answers = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => visitor.post('/api/web/search', { query: `at once ${i}` })));
    expect(answers.filter((a) => a.status === 'fulfilled').length).toBe(3);
    expect(site.searches.length - asked).toBe(3);
  });

  it("counts a visitor by address too: fresh cookies share VISITORS_PER_ADDRESS (5) times the visitor's limit", async () => {
    // This file's visitors so far all came from 127.0.0.1: 3 uses each in the two tests above.
    let used = 6;
    let browsers = 0;
    for (; browsers < 10; browsers++) {
      const fresh = t.client();
      const answers = await Promise.allSettled([0, 1, 2].map((i) => fresh.post('/api/web/search', { query: `fresh ${browsers} ${i}` })));
      const passed = answers.filter((a) => a.status === 'fulfilled').length;
      used += passed;
      if (passed < 3) break;
    }
    expect(used).toBe(15);
    expect(browsers).toBe(3);
    expect(await failure(t.client().post('/api/web/search', { query: 'one more' }))).toEqual({ status: 429, error: 'Web search and page reads limit reached: 15 of 15 this day.' });
  });
});
