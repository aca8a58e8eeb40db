// HTTPS_PROXY / HTTP_PROXY / NO_PROXY for the server's own requests: a system model's stream
// goes through a real forward proxy on loopback (undici's EnvHttpProxyAgent), a host named in
// NO_PROXY is reached directly, and nothing a user supplies ever goes through it.
import { getGlobalDispatcher, setGlobalDispatcher } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useProxyForSystemModels } from '../../src/server/transport/upstream.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fakeOpenAI.ts';
import { startProxy, type FakeProxy } from '../fixtures/proxy.ts';
import { startTestServer, type TestServer } from './support.ts';

const SESSION = 1_800_000_000_000;
let fake: FakeOpenAI;
let proxy: FakeProxy;
const dispatcher = getGlobalDispatcher();
beforeAll(async () => {
  [fake, proxy] = await Promise.all([startFakeOpenAI({ models: ['gpt-demo'] }), startProxy()]);
});
afterAll(async () => {
  // The proxy is process-wide (undici's global dispatcher): put things back for the next file.
  setGlobalDispatcher(dispatcher);
  useProxyForSystemModels(false);
  await Promise.all([fake?.close(), proxy?.close()]);
});

/** The provider by name, so that NO_PROXY=127.0.0.1 (the test's own requests) does not cover it. */
const byName = () => fake.url.replace('127.0.0.1', 'localhost');
const port = () => new URL(fake.url).port;

async function ask(t: TestServer, session: number, stream: boolean): Promise<string> {
  if (!stream) return (await t.client().post<{ text: string }>('/api/generate', { session, user_input: 'through the proxy?' })).result!.text;
  const response = await fetch(`${t.url}/api/generate_sse`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ session, user_input: 'streamed through the proxy?' }) });
  const deltas = [...(await response.text()).matchAll(/^data: (\{"delta".*\})$/gm)].map((m) => (JSON.parse(m[1]!) as { delta: string }).delta);
  return deltas.join('');
}

describe('a proxy for system models', () => {
  let t: TestServer;
  afterAll(async () => t?.close());

  it('carries the system model’s stream and its whole answers, and not what NO_PROXY names', async () => {
    t = await startTestServer('sqlite', { MODEL: 'gpt-demo', OPENAI_BASE_URL: byName(), OPENAI_API_KEY: 'sk-test', HTTP_PROXY: proxy.url, NO_PROXY: '127.0.0.1' });
    fake.reply({ text: 'Streamed via the proxy.' });
    expect(await ask(t, SESSION, true)).toBe('Streamed via the proxy.');
    expect(proxy.targets).toContain(`localhost:${port()}`);
    fake.reply({ text: 'Whole via the proxy.' });
    expect(await ask(t, SESSION + 1, false)).toBe('Whole via the proxy.');
    expect(proxy.targets.every((target) => target === `localhost:${port()}`)).toBe(true);
    await t.close();

    // The same provider named in NO_PROXY: reached directly.
    const before = proxy.targets.length;
    t = await startTestServer('sqlite', { MODEL: 'gpt-demo', OPENAI_BASE_URL: byName(), OPENAI_API_KEY: 'sk-test', HTTP_PROXY: proxy.url, NO_PROXY: '127.0.0.1,localhost' });
    fake.reply({ text: 'Direct, as NO_PROXY says.' });
    expect(await ask(t, SESSION + 2, true)).toBe('Direct, as NO_PROXY says.');
    expect(proxy.targets.length).toBe(before);
  });
});
