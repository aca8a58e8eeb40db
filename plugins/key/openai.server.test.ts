// The OpenAI-compatible API with a key, through the official `openai` client and the AI SDK's
// OpenAI-compatible provider, against the real server (SQLite) and the fake OpenAI provider over
// HTTP: models, plain and streamed completions with usage, a tool-call round trip with
// tool_choice passed on, an aborted stream closing the provider's request, usage equal to the
// ledger's rows tagged with the key, the key's own session (and none with --no-log).
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, jsonSchema, streamText, tool } from 'ai';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../../tests/fixtures/fakeOpenAI.ts';
import { startTestServer, type TestServer } from '../../tests/server/support.ts';
import { addKey, keyRow, ledgerOf, signedUp, type Tester } from './keySupport.ts';

let fake: FakeOpenAI;
let server: TestServer;
let t: Tester;
let key: string;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  server = await startTestServer('sqlite', { MODEL: 'gpt-4o-mini', OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'sk-system-key' });
  t = await signedUp(server, 'apier');
  key = await addKey(t, ':key add "editor"');
}, 60_000);

afterAll(async () => {
  await Promise.all([server?.close(), fake?.close()]);
});

beforeEach(() => fake.reset());

const client = (apiKey = key) => new OpenAI({ apiKey, baseURL: `${server.url}/v1`, maxRetries: 0 });

describe('the openai client', () => {
  it('lists the models the user may use', async () => {
    const models = await client().models.list();
    expect(models.data.map((m) => m.id)).toContain('gpt-4o-mini');
    expect(models.data[0]).toMatchObject({ object: 'model', owned_by: 'system' });
  });

  it('gets a plain completion, through the page turn, with usage equal to the ledger rows', async () => {
    const before = (await ledgerOf(server, key)).length;
    fake.reply({ text: 'Plain answer.', usage: { prompt_tokens: 11, completion_tokens: 3 } });
    const done = await client().chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Say something' }] });
    expect(done.object).toBe('chat.completion');
    expect(done.choices[0]!.message).toMatchObject({ role: 'assistant', content: 'Plain answer.' });
    expect(done.choices[0]!.finish_reason).toBe('stop');
    expect(done.usage).toEqual({ prompt_tokens: 11, completion_tokens: 3, total_tokens: 14 });
    // The provider got the server's own system prompt first, then the caller's conversation.
    const sent = fake.requests.at(-1)!.body.messages as { role: string; content: string }[];
    expect(sent.slice(-2)).toEqual([{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Say something' }]);
    const rows = (await ledgerOf(server, key)).slice(before);
    expect(rows.map((r) => [r.kind, Number(r.input_tokens), Number(r.output_tokens)])).toEqual([['chat', 11, 3]]);
  });

  it('streams a completion with include_usage, and logs it in the key’s own session', async () => {
    const before = (await ledgerOf(server, key)).length;
    fake.reply({ chunks: ['Stre', 'amed ', 'answer.'], usage: { prompt_tokens: 7, completion_tokens: 5 } });
    const stream = await client().chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Stream it' }], stream: true, stream_options: { include_usage: true } });
    let text = '';
    let usage: OpenAI.CompletionUsage | undefined | null;
    const finishes: (string | null)[] = [];
    for await (const part of stream) {
      text += part.choices[0]?.delta.content ?? '';
      if (part.choices[0]) finishes.push(part.choices[0].finish_reason);
      if (part.usage) usage = part.usage;
    }
    expect(text).toBe('Streamed answer.');
    expect(finishes.at(-1)).toBe('stop');
    expect(usage).toEqual({ prompt_tokens: 7, completion_tokens: 5, total_tokens: 12 });
    const rows = (await ledgerOf(server, key)).slice(before);
    expect(rows.reduce((n, r) => n + Number(r.input_tokens) + Number(r.output_tokens), 0)).toBe(12);
    // `:session ls` lists the key's session, whose last log is this call.
    const session = Number((await keyRow(server, key)).session);
    const listed = await t.run(':session ls');
    expect(listed.text).toContain(String(session));
    const logs = await server.server.db.db.selectFrom('logs').select(['input', 'output']).where('session', '=', session).orderBy('time').execute();
    expect(logs.at(-1)).toEqual({ input: 'Stream it', output: 'Streamed answer.' });
  });

  it('passes tools and tool_choice through, returns tool_calls, and takes the results back', async () => {
    const before = (await ledgerOf(server, key)).length;
    fake.reply({ toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' }], usage: { prompt_tokens: 20, completion_tokens: 4 } });
    const tools: OpenAI.ChatCompletionTool[] = [{ type: 'function', function: { name: 'get_weather', description: 'Weather of a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } }];
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Weather in Paris?' }];
    const first = await client().chat.completions.create({ model: 'gpt-4o-mini', messages, tools, tool_choice: { type: 'function', function: { name: 'get_weather' } } });
    const asked = fake.requests.at(-1)!.body;
    expect(asked.tools[0].function.name).toBe('get_weather');
    expect(asked.tool_choice).toEqual({ type: 'function', function: { name: 'get_weather' } });
    expect(first.choices[0]!.finish_reason).toBe('tool_calls');
    const call = first.choices[0]!.message.tool_calls![0]! as OpenAI.ChatCompletionMessageFunctionToolCall;
    expect(call).toMatchObject({ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } });
    expect(first.usage!.total_tokens).toBe(24);

    fake.reply({ text: 'Sunny in Paris.', usage: { prompt_tokens: 30, completion_tokens: 4 } });
    messages.push(first.choices[0]!.message, { role: 'tool', tool_call_id: call.id, content: '{"sky":"sunny"}' });
    const second = await client().chat.completions.create({ model: 'gpt-4o-mini', messages, tools, stream: true, stream_options: { include_usage: true } });
    let text = '';
    for await (const part of second) text += part.choices[0]?.delta.content ?? '';
    expect(text).toBe('Sunny in Paris.');
    const back = fake.requests.at(-1)!.body.messages as Record<string, unknown>[];
    expect(back.at(-2)).toMatchObject({ role: 'assistant', tool_calls: [{ id: 'call_1', function: { name: 'get_weather' } }] });
    expect(back.at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'call_1', content: '{"sky":"sunny"}' });
    const rows = (await ledgerOf(server, key)).slice(before);
    expect(rows.map((r) => Number(r.input_tokens) + Number(r.output_tokens))).toEqual([24, 34]);
  });

  it('streams tool calls in chunks with the finish reason tool_calls', async () => {
    fake.reply({ toolCalls: [{ id: 'call_s', name: 'lookup', arguments: '{"q":"x"}' }] });
    const stream = await client().chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'look it up' }],
      tools: [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object', properties: { q: { type: 'string' } } } } }],
      stream: true,
    });
    const calls: unknown[] = [];
    let finish: string | null = null;
    for await (const part of stream) {
      calls.push(...(part.choices[0]?.delta.tool_calls ?? []));
      finish = part.choices[0]?.finish_reason ?? finish;
    }
    expect(calls).toEqual([{ index: 0, id: 'call_s', type: 'function', function: { name: 'lookup', arguments: '{"q":"x"}' } }]);
    expect(finish).toBe('tool_calls');
  });

  it("closes the provider's request within 100 ms of an aborted stream", async () => {
    // Five aborts, one after the other: the median is the figure (the test process hosts the
    // server, the provider and the client on a shared machine), and none may be left open.
    const waits: number[] = [];
    for (let i = 0; i < 5; i++) {
      fake.reset();
      fake.reply({ text: 'word '.repeat(400), delayMs: 20 });
      const stream = await client().chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'long' }], stream: true });
      let parts = 0;
      for await (const _ of stream) if (++parts === 3) break;
      const stoppedAt = performance.now();
      while (fake.aborted() < 1 && performance.now() - stoppedAt < 2000) await new Promise((r) => setTimeout(r, 1));
      expect(fake.aborted()).toBe(1);
      waits.push(performance.now() - stoppedAt);
    }
    waits.sort((a, b) => a - b);
    expect(waits[2]).toBeLessThan(100);
    expect(fake.openStreams()).toBe(0);
  });
});

describe("the AI SDK's OpenAI-compatible provider", () => {
  const provider = () => createOpenAICompatible({ name: 'shellchat', baseURL: `${server.url}/v1`, apiKey: key, includeUsage: true });

  it('generates and streams text', async () => {
    fake.reply({ text: 'From the SDK.', usage: { prompt_tokens: 5, completion_tokens: 4 } });
    const plain = await generateText({ model: provider()('gpt-4o-mini'), prompt: 'hi', maxRetries: 0 });
    expect(plain.text).toBe('From the SDK.');
    expect(plain.usage).toMatchObject({ inputTokens: 5, outputTokens: 4 });
    fake.reply({ chunks: ['Stre', 'am.'], usage: { prompt_tokens: 5, completion_tokens: 2 } });
    const streamed = streamText({ model: provider()('gpt-4o-mini'), prompt: 'hi', maxRetries: 0 });
    expect(await streamed.text).toBe('Stream.');
    expect(await streamed.usage).toMatchObject({ inputTokens: 5, outputTokens: 2 });
  });

  it('runs a tool-call round trip', async () => {
    fake.reply({ toolCalls: [{ id: 'call_sdk', name: 'add', arguments: '{"a":2,"b":3}' }] });
    fake.reply({ text: 'It is 5.' });
    const result = await generateText({
      model: provider()('gpt-4o-mini'),
      prompt: 'add 2 and 3',
      tools: { add: tool({ description: 'Add', inputSchema: jsonSchema<{ a: number; b: number }>({ type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } }), execute: async ({ a, b }) => String(a + b) }) },
      stopWhen: ({ steps }) => steps.length >= 2,
      maxRetries: 0,
    });
    expect(result.text).toBe('It is 5.');
    const back = fake.requests.at(-1)!.body.messages as Record<string, unknown>[];
    expect(back.at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'call_sdk' });
  });
});

describe('a key made with --no-log', () => {
  it('keeps no log, but the ledger still counts its calls', async () => {
    const quiet = await addKey(t, ':key add "quiet" --no-log');
    fake.reply({ text: 'Unlogged.', usage: { prompt_tokens: 3, completion_tokens: 2 } });
    const done = await client(quiet).chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'secret question' }] });
    expect(done.choices[0]!.message.content).toBe('Unlogged.');
    const rows = await ledgerOf(server, quiet);
    expect(rows.map((r) => [r.log_id, Number(r.input_tokens) + Number(r.output_tokens)])).toEqual([[null, 5]]);
    expect(await server.server.db.db.selectFrom('logs').select('id').where('input', '=', 'secret question').execute()).toEqual([]);
  });
});
