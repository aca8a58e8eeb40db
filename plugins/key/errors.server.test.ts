// Every refusal of the OpenAI-compatible API in OpenAI's shape (`{"error": {message, type,
// code}}`), as the official client reads it: 401 for a missing, unknown, revoked or expired key,
// 403 for a model outside the key's scope, 404 for a model not there, 429 past USAGE_LIMITS with
// Retry-After the wait until the limit lets a question through, and 402 once the fees pass the
// balance (USE_SUBSCRIPTIONS), each before the provider is asked.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../../tests/fixtures/fakeOpenAI.ts';
import { startTestServer, type TestServer } from '../../tests/server/support.ts';
import { addKey, ask, signedUp, v1 } from './keySupport.ts';

let fake: FakeOpenAI;
let server: TestServer;
let limited: TestServer;
let paid: TestServer;
let now = Date.now();

beforeAll(async () => {
  fake = await startFakeOpenAI();
  const env = { MODEL: 'gpt-4o-mini', OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'sk-system-key', MODELS: JSON.stringify([{ name: 'gpt-4o', provider: 'openai-compatible', base_url: fake.url, price_input: 0.01, price_output: 0.01 }]) };
  [server, limited, paid] = await Promise.all([
    startTestServer('sqlite', env, [], { clock: () => now }),
    startTestServer('sqlite', { ...env, USAGE_LIMITS: 'user:2,-,-' }),
    startTestServer('sqlite', { ...env, USE_SUBSCRIPTIONS: 'true' }),
  ]);
}, 60_000);

afterAll(async () => {
  await Promise.all([server?.close(), limited?.close(), paid?.close(), fake?.close()]);
});

/** What the official client threw: its status, the error object it parsed, and the headers. */
async function refusedBy(target: TestServer, apiKey: string, body: OpenAI.ChatCompletionCreateParamsNonStreaming | OpenAI.ChatCompletionCreateParamsStreaming) {
  const openai = new OpenAI({ apiKey, baseURL: `${target.url}/v1`, maxRetries: 0 });
  try {
    await openai.chat.completions.create(body);
  } catch (err) {
    if (err instanceof OpenAI.APIError) return { status: err.status, error: err.error as { message: string; type: string; code: string | null }, headers: err.headers };
    throw err;
  }
  throw new Error('expected the call to be refused');
}

describe('401', () => {
  it('for no key, an unknown one, a revoked one and an expired one', async () => {
    const t = await signedUp(server);
    const revoked = await addKey(t, ':key add "old"');
    await t.run(':key rm "old"');
    const expiring = await addKey(t, ':key add "short" --expires 1h');
    const unknown = `sk-sc-${'B'.repeat(43)}`;
    const missing = await v1(server, '/chat/completions', undefined, ask('hi'));
    expect(missing).toMatchObject({ status: 401, json: { error: { message: 'Invalid API key.', type: 'invalid_request_error', code: 'invalid_api_key' } } });
    expect(await refusedBy(server, unknown, ask('hi') as never)).toMatchObject({ status: 401, error: { message: 'Invalid API key.', code: 'invalid_api_key' } });
    expect(await refusedBy(server, revoked, ask('hi') as never)).toMatchObject({ status: 401, error: { message: 'This API key was revoked.', code: 'invalid_api_key' } });
    expect((await v1(server, '/models', expiring)).status).toBe(200);
    now += 2 * 3_600_000;
    expect(await refusedBy(server, expiring, ask('hi') as never)).toMatchObject({ status: 401, error: { message: 'This API key has expired.', type: 'invalid_request_error' } });
    expect((await v1(server, '/models', expiring)).status).toBe(401);
  });
});

describe('403 and 404', () => {
  it('for a model outside the key’s scope, which /v1/models does not list; 404 for a model not there', async () => {
    const t = await signedUp(server);
    const scoped = await addKey(t, ':key add "mini" --model "gpt-4o-mini"');
    const models = await v1(server, '/models', scoped);
    expect(models.json.data.map((m: { id: string }) => m.id)).toEqual(['gpt-4o-mini']);
    const asked = fake.requests.length;
    expect(await refusedBy(server, scoped, { ...ask('hi'), model: 'gpt-4o' } as never)).toMatchObject({
      status: 403,
      error: { message: 'This API key may only use the model gpt-4o-mini.', type: 'permission_error', code: 'model_not_allowed' },
    });
    const open = await addKey(t, ':key add "any"');
    expect(await refusedBy(server, open, { ...ask('hi'), model: 'no-such-model' } as never)).toMatchObject({ status: 404, error: { code: 'model_not_found' } });
    expect(fake.requests.length).toBe(asked);
    // Without a model in the request, the key's model answers.
    fake.reply({ text: 'scoped' });
    const done = await v1(server, '/chat/completions', scoped, { messages: [{ role: 'user', content: 'hi' }] });
    expect(done.json.model).toBe('gpt-4o-mini');
  });

  it('400 for a body that is not a chat request; 413 past 4 MB, sent whole or chunked, before the provider is asked', async () => {
    const t = await signedUp(server);
    const k = await addKey(t, ':key add "bad"');
    expect(await v1(server, '/chat/completions', k, { model: 'gpt-4o-mini' })).toMatchObject({ status: 400, json: { error: { type: 'invalid_request_error' } } });
    expect(await v1(server, '/chat/completions', k, { ...ask('hi'), messages: Array.from({ length: 2001 }, () => ({ role: 'user', content: 'x' })) })).toMatchObject({ status: 400 });
    const asked = fake.requests.length;
    const huge = JSON.stringify(ask('x'.repeat(5 * 1024 * 1024)));
    expect(await v1(server, '/chat/completions', k, JSON.parse(huge))).toMatchObject({ status: 413, json: { error: { type: 'invalid_request_error' } } });
    const encoder = new TextEncoder();
    const chunked = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < huge.length; i += 1024 * 1024) controller.enqueue(encoder.encode(huge.slice(i, i + 1024 * 1024)));
        controller.close();
      },
    });
    const res = await fetch(`${server.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${k}`, 'content-type': 'application/json' }, body: chunked, duplex: 'half' } as RequestInit);
    expect(res.status).toBe(413);
    expect(fake.requests.length).toBe(asked);
    // A small chunked body is read as any other.
    const small = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode(JSON.stringify(ask('chunked but small'))));
        controller.close();
      },
    });
    const fine = await fetch(`${server.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${k}`, 'content-type': 'application/json' }, body: small, duplex: 'half' } as RequestInit);
    expect(fine.status).toBe(200);
  });
});

describe('429', () => {
  it('with Retry-After once USAGE_LIMITS is reached, streamed or not, counted with the page’s questions', async () => {
    const t = await signedUp(limited);
    const k = await addKey(t, ':key add "busy"');
    const first = Date.now();
    expect((await v1(limited, '/chat/completions', k, ask('one'))).status).toBe(200);
    expect((await v1(limited, '/chat/completions', k, ask('two'))).status).toBe(200);
    const refused = await refusedBy(limited, k, ask('three') as never);
    expect(refused).toMatchObject({ status: 429, error: { type: 'rate_limit_exceeded', code: 'rate_limit_exceeded' } });
    expect(refused.error.message).toMatch(/^The usage limitation has been reached/);
    // The real wait: until the first question leaves the daily window, not a fixed minute.
    const day = 86_400;
    const waited = Math.ceil((Date.now() - first) / 1000);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(day - waited);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(day);
    const streamed = await refusedBy(limited, k, { ...ask('four'), stream: true } as never);
    expect(streamed.status).toBe(429);
    expect(Number(streamed.headers.get('retry-after'))).toBeGreaterThanOrEqual(day - Math.ceil((Date.now() - first) / 1000));
  });
});

describe('402', () => {
  it('once the fees pass the balance, in the spec’s words', async () => {
    const t = await signedUp(paid);
    const k = await addKey(t, ':key add "spender"');
    fake.reply({ text: 'costly', usage: { prompt_tokens: 100, completion_tokens: 100 } });
    expect((await v1(paid, '/chat/completions', k, { ...ask('spend'), model: 'gpt-4o' })).status).toBe(200);
    const refused = await refusedBy(paid, k, { ...ask('more'), model: 'gpt-4o' } as never);
    expect(refused).toMatchObject({ status: 402, error: { type: 'insufficient_quota', code: 'insufficient_quota' } });
    expect(refused.error.message).toMatch(/^Your fees \(\$2\.00\) are more than your balance \(\$0\.00\)/);
  });
});
