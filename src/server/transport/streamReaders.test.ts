// The server's direct relay and the browser's local-model step read OpenAI-format streams with
// one reader (core/api/chatStream.ts): fed the same bytes, cut into reads of any size, they
// agree on the text, the tool calls and every failure (a malformed event, an error event, a
// stream cut short). Cases follow eventsource-parser's own test corpus where it applies: CR LF
// and CR line ends, comments, `data:` without its space, UTF-8 split across reads, a BOM.
import { describe, expect, it } from 'vitest';
import { MAX_EVENT_BYTES } from '../../core/api/chatStream.ts';
import { ApiError } from '../../core/index.ts';
import { streamStep } from '../../shell/chat/localStep.ts';
import type { ModelEntry } from '../models/systemModels.ts';
import { directChatStream, type RelayPart } from './directStream.ts';
import { chunkedFetch } from './testServers.ts';

const entry: ModelEntry = {
  name: 'm',
  scope: 'system',
  provider: 'openai-compatible',
  model: 'm-1',
  baseUrl: 'http://provider.test/v1',
  apiKey: '',
  priceInput: 0,
  priceOutput: 0,
  capabilities: { vision: false, tools: true, image: false, reasoning: false, context_window: null },
};

const event = (delta: object, finish: string | null = null) => JSON.stringify({ id: 'c', object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] });
const sse = (...events: string[]) => events.map((e) => `data: ${e}\n\n`).join('');

/** A fetch whose answer is `body` cut into reads of `size` bytes. */
const fetchOf = (body: string, size: number) => chunkedFetch([body], size);

type Outcome = { text: string; calls: { name: string; args: string }[]; failure?: string };

async function server(body: string, size: number): Promise<Outcome> {
  const parts: RelayPart[] = [];
  await directChatStream(
    { entry, fetch: fetchOf(body, size), messages: [{ role: 'user', content: 'hi' }], tools: { get_time: { description: 't', parameters: { type: 'object' } } }, temperature: 1, topP: 1, maxSteps: 1, signal: new AbortController().signal },
    (part) => void parts.push(part),
  );
  const failed = parts.find((p) => p.type === 'error');
  return {
    text: parts.map((p) => (p.type === 'text-delta' ? p.text : '')).join(''),
    calls: parts.flatMap((p) => (p.type === 'tool-call' ? [{ name: p.toolName, args: JSON.stringify(p.input) }] : [])),
    ...(failed ? { failure: (failed as { error: Error }).error.message } : {}),
  };
}

async function browser(body: string, size: number): Promise<Outcome> {
  let text = '';
  try {
    const done = await streamStep({ ollamaUrl: 'http://local.test', model: 'm', signal: new AbortController().signal, fetch: fetchOf(body, size) }, [], [{ name: 'get_time', parameters: { type: 'object' } }], (d) => (text += d));
    return { text, calls: done!.calls.map((c) => ({ name: c.name, args: JSON.stringify(JSON.parse(c.args)) })) };
  } catch (err) {
    return { text, calls: [], failure: (err as ApiError).message };
  }
}

const CASES: Record<string, { body: string; text: string; calls?: { name: string; args: string }[]; failure?: string }> = {
  'text with CR LF, CR, comments and `data:` without its space': {
    body: `: keep-alive\r\n\r\ndata:${event({ role: 'assistant', content: '' })}\r\n\r\ndata: ${event({ content: 'héllo — ' })}\r\rdata: ${event({ content: '世界 🌍' })}\n\n: done soon\n${sse(event({}, 'stop'), '[DONE]')}`,
    text: 'héllo — 世界 🌍',
  },
  'a byte order mark, an event name, an id, a bad retry and an unknown field': {
    body: `\ufeffevent: message\nid: 1\nretry: soon\nx-vendor: ignored\ndata: ${event({ content: 'named' })}\n\n${sse('[DONE]')}`,
    text: 'named',
  },
  'tool calls in pieces, two at once': {
    body: sse(
      event({ tool_calls: [{ index: 0, id: 'a', function: { name: 'get_', arguments: '' } }] }),
      event({ tool_calls: [{ index: 0, function: { name: 'time', arguments: '{"timezone":' } }] }),
      event({ tool_calls: [{ index: 1, id: 'b', function: { name: 'get_time', arguments: '{}' } }] }),
      event({ tool_calls: [{ index: 0, function: { arguments: '"UTC"}' } }] }),
      event({}, 'tool_calls'),
      '[DONE]',
    ),
    text: '',
    calls: [
      { name: 'get_time', args: '{"timezone":"UTC"}' },
      { name: 'get_time', args: '{}' },
    ],
  },
  'a malformed event': { body: sse(event({ content: 'so far' }), '{"choices": [', event({ content: 'never read' }), '[DONE]'), text: 'so far', failure: 'The model provider sent a malformed stream.' },
  'an error event': { body: sse(event({ content: 'so far' }), JSON.stringify({ error: { message: 'quota exceeded' } })), text: 'so far', failure: 'The model provider reported: quota exceeded.' },
  'a finish reason without [DONE]': { body: sse(event({ content: 'whole' }), event({}, 'stop')), text: 'whole' },
};

describe('one reader of OpenAI-format streams, on the server and in the browser', () => {
  for (const [name, c] of Object.entries(CASES)) {
    it(`agree on ${name}, whatever the reads cut`, async () => {
      for (const size of [1, 2, 3, 5, 8, 13, 64, c.body.length]) {
        const expected = { text: c.text, calls: c.calls ?? [], ...(c.failure ? { failure: c.failure } : {}) };
        expect(await server(c.body, size), `server, reads of ${size}`).toEqual(expected);
        expect(await browser(c.body, size), `browser, reads of ${size}`).toEqual(expected);
      }
    });
  }

  it('say a stream cut short is cut short (each in its own words: a provider, the local model server)', async () => {
    const body = sse(event({ content: 'half' }));
    expect((await server(body, 4)).failure).toBe('The model provider ended the stream early.');
    expect((await browser(body, 4)).failure).toMatch(/ended|cut|stopped/i);
  });

  it('stop at an event that never ends, with bounded memory', async () => {
    const body = `data: {"choices":[{"delta":{"content":"${'x'.repeat(MAX_EVENT_BYTES + 1024)}`;
    expect((await server(body, 1 << 20)).failure).toBe('The model provider sent a malformed stream.');
    expect((await browser(body, 1 << 20)).failure).toBe('The model provider sent a malformed stream.');
  });
});
