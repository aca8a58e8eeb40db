// The direct relay's SSE parsing and tool loop, fed byte streams cut at awkward places: the
// wire details real OpenAI-compatible servers differ in (CRLF, `data:` without a space,
// comments, multi-line data, UTF-8 split across reads, usage in its own chunk).
import { describe, expect, it } from 'vitest';
import type { ModelEntry } from '../models/systemModels.ts';
import { chunkedFetch as fetchOf } from './testServers.ts';
import { directChatStream, ProviderError, toWireMessages, type DirectStreamOptions, type RelayPart } from './directStream.ts';

const entry: ModelEntry = {
  name: 'm',
  scope: 'user',
  provider: 'openai-compatible',
  model: 'm-1',
  baseUrl: 'http://provider.test/v1',
  apiKey: 'sk-user',
  priceInput: 0,
  priceOutput: 0,
  capabilities: { vision: true, tools: true, image: false, reasoning: false, context_window: null },
};

const chunk = (delta: object, finish: string | null = null) => `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;


async function collect(options: Partial<DirectStreamOptions> & { fetch: typeof fetch }): Promise<RelayPart[]> {
  const parts: RelayPart[] = [];
  await directChatStream(
    {
      entry,
      messages: [{ role: 'user', content: 'hi' }],
      tools: {},
      temperature: 1,
      topP: 1,
      maxSteps: 5,
      signal: new AbortController().signal,
      ...options,
    },
    (part) => void parts.push(part),
  );
  return parts;
}

const textOf = (parts: RelayPart[]) => parts.map((p) => (p.type === 'text-delta' ? p.text : '')).join('');

describe('direct relay', () => {
  const body =
    ': keep-alive comment\r\n\r\n' +
    chunk({ role: 'assistant', content: 'Grüße, ' }).replace(/\n/g, '\r\n') +
    'data:' + JSON.stringify({ choices: [{ index: 0, delta: { content: '世界 ' } }] }) + '\n\n' +
    // One event's JSON split over two data lines is joined with a newline (valid JSON whitespace).
    'data: {"choices":[{"index":0,\ndata: "delta":{"content":"👋"},"finish_reason":"stop"}]}\n\n' +
    'data: {"choices":[],"usage":{"prompt_tokens":7,"completion_tokens":3}}\n\n' +
    'data: [DONE]\n\n';

  for (const size of [1, 2, 3, 7, 64, 100_000]) {
    it(`reads the same answer whatever the read size (${size} bytes)`, async () => {
      const parts = await collect({ fetch: fetchOf([body], size) });
      expect(textOf(parts)).toBe('Grüße, 世界 👋');
      expect(parts.at(-1)).toEqual({ type: 'finish', totalUsage: { inputTokens: 7, outputTokens: 3 } });
      expect(parts.some((p) => p.type === 'error')).toBe(false);
    });
  }

  it('sends the model, the messages, the tools and the key in the chat-completions format', async () => {
    const seen: { url: string; body: Record<string, unknown>; headers: Record<string, string> }[] = [];
    await collect({
      fetch: fetchOf([chunk({ content: 'ok' }, 'stop')], 1000, seen),
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: [{ type: 'text', text: 'Look' }, { type: 'image', image: new URL('https://img.test/a.png') }] },
        { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 't1', toolName: 'get_time', input: { zone: 'UTC' } }] },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: 't1', toolName: 'get_time', output: { type: 'text', value: '12:00' } }] },
      ],
      tools: { get_time: { description: 'Time', parameters: { type: 'object' } } },
    });
    expect(seen[0]!.url).toBe('http://provider.test/v1/chat/completions');
    expect(seen[0]!.headers.authorization).toBe('Bearer sk-user');
    expect(seen[0]!.body).toMatchObject({
      model: 'm-1',
      stream: true,
      stream_options: { include_usage: true },
      tools: [{ type: 'function', function: { name: 'get_time', description: 'Time', parameters: { type: 'object' } } }],
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: [{ type: 'text', text: 'Look' }, { type: 'image_url', image_url: { url: 'https://img.test/a.png' } }] },
        { role: 'assistant', content: null, tool_calls: [{ id: 't1', type: 'function', function: { name: 'get_time', arguments: '{"zone":"UTC"}' } }] },
        { role: 'tool', tool_call_id: 't1', content: '12:00' },
      ],
    });
  });

  it('assembles tool calls from deltas, runs server tools, and asks again with their results', async () => {
    const seen: { url: string; body: { messages: unknown[] }; headers: Record<string, string> }[] = [];
    const first =
      chunk({ tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'rev', arguments: '{"te' } }] }) +
      chunk({ tool_calls: [{ index: 0, function: { arguments: 'xt":"ab"}' } }] }) +
      chunk({}, 'tool_calls');
    const parts = await collect({
      fetch: fetchOf([first, chunk({ content: 'ba it is' }, 'stop')], 5, seen as never),
      tools: { rev: { description: 'Reverse', parameters: { type: 'object' }, execute: async (input) => [...(input as { text: string }).text].reverse().join('') } },
    });
    expect(parts.filter((p) => p.type !== 'text-delta').map((p) => p.type)).toEqual(['start-step', 'tool-call', 'tool-result', 'start-step', 'finish']);
    expect(parts.find((p) => p.type === 'tool-call')).toEqual({ type: 'tool-call', toolCallId: 'call_a', toolName: 'rev', input: { text: 'ab' } });
    expect(textOf(parts)).toBe('ba it is');
    expect(seen[1]!.body.messages.slice(-2)).toEqual([
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_a', type: 'function', function: { name: 'rev', arguments: '{"text":"ab"}' } }] },
      { role: 'tool', tool_call_id: 'call_a', content: 'ba' },
    ]);
  });

  it('ends the turn at a tool the browser runs, and stops at the step limit', async () => {
    const call = chunk({ tool_calls: [{ index: 0, id: 'c1', function: { name: 'mcp_tool', arguments: '{}' } }] }) + chunk({}, 'tool_calls');
    const browser = await collect({ fetch: fetchOf([call], 1000), tools: { mcp_tool: { description: 'x', parameters: {} } } });
    expect(browser.map((p) => p.type)).toEqual(['start-step', 'tool-call', 'finish']);
    const loop = chunk({ tool_calls: [{ index: 0, id: 'c', function: { name: 'again', arguments: '{}' } }] }) + chunk({}, 'tool_calls');
    const parts = await collect({ fetch: fetchOf([loop, loop, loop], 1000), maxSteps: 3, tools: { again: { description: 'x', parameters: {}, execute: async () => 'more' } } });
    expect(parts.filter((p) => p.type === 'start-step')).toHaveLength(3);
    expect(parts.at(-1)!.type).toBe('finish');
  });

  it('reports a tool that fails, and arguments that are not JSON, as tool errors', async () => {
    const bad = chunk({ tool_calls: [{ index: 0, id: 'c1', function: { name: 't', arguments: '{oops' } }] }) + chunk({}, 'tool_calls');
    const parts = await collect({
      fetch: fetchOf([bad, chunk({ content: 'sorry' }, 'stop')], 1000),
      tools: { t: { description: 'x', parameters: {}, execute: async () => 'never' } },
    });
    expect(parts.find((p) => p.type === 'tool-error')).toMatchObject({ toolCallId: 'c1' });
  });

  it('turns an error chunk, a malformed chunk and a stream cut short into errors', async () => {
    const errorChunk = await collect({ fetch: fetchOf([chunk({ content: 'a' }) + 'data: {"error":{"message":"overloaded"}}\n\n'], 1000) });
    expect((errorChunk.at(-1) as { error: Error }).error.message).toBe('The model provider reported: overloaded.');
    const malformed = await collect({ fetch: fetchOf(['data: {nope\n\n'], 1000) });
    expect((malformed.at(-1) as { error: Error }).error.message).toBe('The model provider sent a malformed stream.');
    const cut = await collect({ fetch: fetchOf([chunk({ content: 'half' })], 1000) });
    expect(textOf(cut)).toBe('half');
    expect((cut.at(-1) as { error: Error }).error.message).toBe('The model provider ended the stream early.');
  });

  it('reports an HTTP error with its status, headers and body (for retries and messages)', async () => {
    const failing = (async () => new Response('{"error":{"message":"slow down"}}', { status: 429, headers: { 'retry-after': '2' } })) as unknown as typeof fetch;
    const parts = await collect({ fetch: failing });
    const error = (parts.at(-1) as { error: ProviderError }).error;
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ statusCode: 429, responseHeaders: { 'retry-after': '2' }, responseBody: '{"error":{"message":"slow down"}}' });
  });

  it('names the cause when the provider cannot be reached', async () => {
    const refused = (async () => {
      throw new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:9') });
    }) as unknown as typeof fetch;
    const parts = await collect({ fetch: refused });
    expect((parts.at(-1) as { error: Error }).error.message).toBe('Cannot connect to API: connect ECONNREFUSED 127.0.0.1:9');
  });

  it('converts tool results that are JSON', () => {
    expect(toWireMessages([{ role: 'tool', content: [{ type: 'tool-result', toolCallId: 'x', toolName: 'n', output: { type: 'json', value: { a: 1 } } }] }])).toEqual([
      { role: 'tool', tool_call_id: 'x', content: '{"a":1}' },
    ]);
  });
});
