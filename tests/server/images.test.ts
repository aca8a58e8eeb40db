// Image models over real HTTP against the fake provider's images API (spec parts 4 and 7): a
// question to a model marked `image` is a prompt; the picture comes back as an upload of the
// asker, in the log, costed; the next turn edits the last picture, or the ones attached.
import { png } from '../fixtures/png.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GenerationEvent } from '../../src/core/index.ts';
import type { PresignedUpload } from '../../src/core/uploads.ts';
import { streamGeneration } from '../../src/core/api/generationClient.ts';
import { ONE_PIXEL_PNG, startFakeOpenAI, type FakeOpenAI } from '../fixtures/fakeOpenAI.ts';
import { startTestServer, type TestServer } from './support.ts';

const SESSION = Date.now() - 7_000_000;
// Another picture, so that an edit's source is told apart from the default answer.
const BLUE_PNG = png(2, 2, () => [0, 0, 255]).toString('base64');

describe('image models', () => {
  let fake: FakeOpenAI;
  let t: TestServer;
  beforeAll(async () => {
    fake = await startFakeOpenAI();
    t = await startTestServer('sqlite', {
      MODEL: 'gpt-4o-mini',
      OPENAI_BASE_URL: fake.url,
      OPENAI_API_KEY: 'sk-test',
      MODELS: JSON.stringify([
        { name: 'painter', provider: 'openai-compatible', model: 'gpt-image-1', base_url: fake.url, api_key: 'sk-paint', price_input: 0.00001, price_output: 0.00004, capabilities: { image: true } },
        { name: 'poet', provider: 'anthropic', model: 'claude-x', base_url: 'https://8.8.8.8/v1', api_key: 'x', capabilities: { image: true } },
      ]),
    });
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  const lastRequest = () => fake.requests.at(-1)!;

  it('answers a prompt with a picture kept as the asker’s upload, logged and costed', async () => {
    const client = t.client();
    fake.reply({ usage: { prompt_tokens: 10, completion_tokens: 272 } });
    const answer = await client.post<{ images: string[]; text: string; info: { model: string; time: number } }>('/api/generate', {
      session: SESSION,
      user_input: 'A red square',
      model: 'painter',
      use_stats: true,
    });
    expect(lastRequest()).toMatchObject({ path: '/v1/images/generations', body: { model: 'gpt-image-1', prompt: 'A red square', n: 1 } });
    expect(lastRequest().headers.authorization).toBe('Bearer sk-paint');
    const { images, text, info } = answer.result!;
    expect(text).toBe('');
    expect(info.model).toBe('painter');
    expect(images).toHaveLength(1);
    expect(images[0]).toMatch(new RegExp(`^${t.url}/api/file/[0-9a-f-]{36}/image-${SESSION}-\\d+\\.png$`));
    const served = await fetch(images[0]!);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await served.arrayBuffer()).toString('base64')).toBe(ONE_PIXEL_PNG);
    const log = await t.server.db.db.selectFrom('logs').selectAll().where('session', '=', SESSION).executeTakeFirstOrThrow();
    expect(log).toMatchObject({ input: 'A red square', output: '', model: 'painter', images: JSON.stringify(images) });
    const usage = await t.server.db.db.selectFrom('usage').selectAll().where('log_id', '=', log.id).executeTakeFirstOrThrow();
    expect(usage).toMatchObject({ input_tokens: 10, output_tokens: 272 });
    expect(usage.cost).toBeCloseTo(10 * 0.00001 + 272 * 0.00004, 10);
    // The picture is the asker's: it goes with their uploads.
    const row = await t.server.db.db.selectFrom('uploads').select(['device_id', 'user_id']).where('id', '=', images[0]!.split('/')[5]!).executeTakeFirstOrThrow();
    expect(row.user_id).toBeNull();
    expect(row.device_id).toBe(client.cookies.get('device'));
  });

  it('edits the last picture of the session when the next turn attaches none, over the event stream too', async () => {
    const client = t.client();
    fake.reply({ images: [BLUE_PNG] });
    const first = await client.post<{ images: string[] }>('/api/generate', { session: SESSION + 1, user_input: 'A square', model: 'painter' });
    fake.reply({});
    const events: GenerationEvent[] = [];
    await streamGeneration({ session: SESSION + 1, user_input: 'Now make it red', model: 'painter', use_stats: true } as never, (e) => events.push(e), {
      signal: new AbortController().signal,
      baseUrl: t.url,
      fetch: client.raw,
    });
    // Multipart: the picture to edit as an `image` file, the prompt beside it.
    expect(lastRequest().path).toBe('/v1/images/edits');
    expect(lastRequest().body).toMatchObject({ model: 'gpt-image-1', prompt: 'Now make it red', image: { base64: BLUE_PNG } });
    const types = events.map((e) => e.type);
    expect(types).toEqual(['status', 'status', 'model', 'image', 'stats', 'done']);
    const image = events.find((e) => e.type === 'image') as { url: string };
    expect(image.url).not.toBe(first.result!.images[0]);
    expect(Buffer.from(await (await fetch(image.url)).arrayBuffer()).toString('base64')).toBe(ONE_PIXEL_PNG);
  });

  it('edits the pictures attached to the question (an upload, read from the database)', async () => {
    const client = t.client();
    const query = new URLSearchParams({ fileName: 'photo.png', contentType: 'image/png' });
    const signed = (await client.get<PresignedUpload>(`/api/file/generate-presigned-url?${query}`)).result!;
    const put = await client.raw(signed.url, { method: 'PUT', headers: { 'content-type': 'image/png' }, body: new Uint8Array(Buffer.from(BLUE_PNG, 'base64')) });
    expect(put.status).toBe(200);
    fake.reply({});
    const answer = await client.post<{ images: string[] }>('/api/generate', { session: SESSION + 2, user_input: 'Add a hat', model: 'painter', images: [signed.object_url] });
    expect(lastRequest()).toMatchObject({ path: '/v1/images/edits', body: { prompt: 'Add a hat', image: { base64: BLUE_PNG } } });
    // The answer shows the question's picture and the new one.
    expect(answer.result!.images[0]).toBe(signed.object_url);
    expect(answer.result!.images).toHaveLength(2);
  });

  it('says what the provider answered, and refuses an image model whose provider has no images API', async () => {
    const client = t.client();
    fake.reply({ status: 400, text: 'Your request was rejected by the safety system.' });
    const refused = await client.raw(`${t.url}/api/generate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ session: SESSION + 3, user_input: 'Something odd', model: 'painter' }),
    });
    expect(await refused.json()).toEqual({ success: false, error: 'The model provider answered 400: Your request was rejected by the safety system..', code: 'core.providerStatusDetail', params: { status: 400, detail: 'Your request was rejected by the safety system.' } });
    const wrong = await client.raw(`${t.url}/api/generate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ session: SESSION + 4, user_input: 'x', model: 'poet' }),
    });
    expect(await wrong.json()).toEqual({ success: false, error: 'The model poet is marked as making images, but anthropic has no images API.', code: 'core.noImageModel', params: { model: 'poet', provider: 'anthropic' } });
    // Nothing was logged for either.
    expect(await t.server.db.db.selectFrom('logs').selectAll().where('session', 'in', [SESSION + 3, SESSION + 4]).execute()).toEqual([]);
  });
});
