// A page built to make the parser crawl (24,000 nested elements: minutes of Readability on
// linkedom) is read in a worker thread: the real server answers other requests meanwhile, the
// read stops at WEB_EXTRACT_TIMEOUT_MS with a clear reason, and the next page is read by a new worker.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, startTestServer, type TestServer } from '../../tests/server/support.ts';
import { startFakeWeb, type FakeWeb } from './fixtures/site.ts';

let site: FakeWeb;
let t: TestServer;

beforeAll(async () => {
  site = await startFakeWeb();
  t = await startTestServer('sqlite', {
    SEARXNG_URL: site.searxngUrl,
    EGRESS_ALLOW_HOSTS: `localhost:${site.port}`,
    WEB_EXTRACT_WORKERS: '1',
    WEB_EXTRACT_TIMEOUT_MS: '4000',
  });
}, 60_000);

afterAll(async () => {
  await t?.close();
  await site?.close();
});

describe('reading pages in worker threads', () => {
  it('answers others while a pathological page is parsed, stops it at the time cap, then reads the next page', async () => {
    const reader = t.client();
    let settled = false;
    const slow = failure(reader.post('/api/web/open', { url: `${site.origin}/nested` })).finally(() => (settled = true));
    // Its HTML has arrived and is being parsed well before this (a local fetch of 120 KB).
    await new Promise((r) => setTimeout(r, 500));
    const others = t.client();
    for (let i = 0; i < 5; i++) {
      const { result } = await others.post<{ results: unknown[] }>('/api/web/search', { query: `meanwhile ${i}` });
      expect(result?.results.length).toBeGreaterThan(0);
      expect((await others.get<{ reads: unknown[] }>('/api/web/reads')).result?.reads).toEqual([]);
    }
    // Ten requests answered while the page was still being parsed: the server's thread was free.
    expect(settled).toBe(false);
    expect(await slow).toEqual({ status: 502, error: 'The page could not be read: its text took too long to extract.' });
    // The ended worker is replaced: the next page reads as usual.
    const { result } = await reader.post<{ title: string }>('/api/web/open', { url: `${site.origin}/article/rust` });
    expect(result?.title).toBe('Async fn in traits');
  }, 60_000);
});
