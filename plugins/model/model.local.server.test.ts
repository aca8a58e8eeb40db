// A chat turn with a local model (browser side), through the real server over HTTP (SQLite)
// and a real-wire fake Ollama: the server builds the messages and keeps the log in the own
// session, the browser streams from Ollama; the Ollama errors call nothing; and the server
// messages in the Chat Completions shape. Setup in modelTestSupport.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GenerationEvent } from '../../src/core/index.ts';
import { localGeneration, toChatMessages } from '../../src/shell/chat/local.ts';
import { cookieFetch } from '../../tests/harness/shellTester.ts';
import { answerText, CLOSED, ollama, server, SESSION, startModelServers, stopModelServers } from './modelTestSupport.ts';

beforeAll(startModelServers, 60_000);
afterAll(stopModelServers);

describe('a chat turn with a local model (browser side)', () => {
  const ask = (jar: typeof fetch, options: { session: number; model?: string; ollamaUrl?: string; input?: string; abort?: AbortController; onEvent?: (e: GenerationEvent) => void }) => {
    const events: GenerationEvent[] = [];
    const onEvent = (e: GenerationEvent) => {
      events.push(e);
      options.onEvent?.(e);
    };
    return localGeneration({ session: options.session, user_input: options.input ?? 'hi there', model: options.model ?? 'llama3.2', mcp_tools: [] }, onEvent, {
      signal: (options.abort ?? new AbortController()).signal,
      ollamaUrl: options.ollamaUrl ?? ollama.url,
      baseUrl: server.url,
      fetch: jar,
    }).then(
      () => ({ events, error: undefined as string | undefined }),
      (err: Error) => ({ events, error: err.message }),
    );
  };

  it('builds the messages on the server, streams from Ollama, and saves the log in the own session', async () => {
    const jar = cookieFetch();
    ollama.reply({ chunks: ['Local ', 'answer.'] });
    const first = await ask(jar, { session: SESSION + 10, input: 'first question' });
    expect(first.error).toBeUndefined();
    expect(answerText(first.events)).toBe('Local answer.');
    expect(first.events.find((e) => e.type === 'model')).toEqual({ type: 'model', model: 'llama3.2' });
    const done = first.events.at(-1) as { type: string; session: number; time: number };
    expect(done).toMatchObject({ type: 'done', session: SESSION + 10 });
    const request = ollama.requests.at(-1)!;
    expect(request.path).toBe('/v1/chat/completions');
    expect(request.body).toMatchObject({ model: 'llama3.2', stream: true });
    const log = await server.server.db.db.selectFrom('logs').selectAll().where('session', '=', SESSION + 10).executeTakeFirstOrThrow();
    expect(log).toMatchObject({ input: 'first question', output: 'Local answer.', model: 'llama3.2' });
    expect(Number(log.time)).toBe(done.time);

    // The next turn carries the first as memory.
    ollama.reply({ text: 'Second.' });
    await ask(jar, { session: SESSION + 10, input: 'second question' });
    const messages = ollama.requests.at(-1)!.body.messages as { role: string; content: unknown }[];
    expect(messages.filter((m) => m.role !== 'system')).toEqual([
      { role: 'user', content: 'first question' },
      { role: 'assistant', content: 'Local answer.' },
      { role: 'user', content: 'second question' },
    ]);

    // Another browser cannot add a log to that session.
    const stranger = server.client();
    await expect(stranger.post('/api/log/add', { input: 'x', output: 'injected', model: 'm', session: SESSION + 10 })).rejects.toThrow('You can only add logs to your own sessions.');
  });

  it('a stop mid-answer keeps what was said; a stream Ollama cuts off is reported and kept too', async () => {
    const jar = cookieFetch();
    const logs = (session: number) => server.server.db.db.selectFrom('logs').selectAll().where('session', '=', session).execute();
    // Stopped after the third piece: the log holds what was shown, and no error is raised.
    ollama.reply({ chunks: Array.from({ length: 40 }, (_, i) => `p${i} `), delayMs: 30 });
    const abort = new AbortController();
    let pieces = 0;
    const stopped = await ask(jar, { session: SESSION + 12, abort, onEvent: (e) => e.type === 'text' && ++pieces === 3 && abort.abort() });
    expect(stopped.error).toBeUndefined();
    const shown = answerText(stopped.events);
    expect(shown).toBe('p0 p1 p2 ');
    expect(stopped.events.at(-1)).toMatchObject({ type: 'done', session: SESSION + 12 });
    expect((await logs(SESSION + 12)).map((l) => l.output)).toEqual([shown]);

    // Cut off by the server after two pieces: kept, then reported in words.
    ollama.reply({ chunks: ['c0 ', 'c1 ', 'c2 ', 'c3 '], failAfterChunks: 2 });
    const cut = await ask(jar, { session: SESSION + 13 });
    expect(cut.error).toBe('The Ollama server ended the stream early.');
    expect(answerText(cut.events)).toBe('c0 c1 ');
    expect(cut.events.at(-1)).toMatchObject({ type: 'done', session: SESSION + 13 });
    expect((await logs(SESSION + 13)).map((l) => l.output)).toEqual(['c0 c1 ']);
  });

  it("answers 'Cannot connect to Ollama server.' and 'Ollama model not found.', and calls nothing", async () => {
    const before = ollama.requests.length;
    expect((await ask(cookieFetch(), { session: SESSION + 11, ollamaUrl: CLOSED })).error).toBe('Cannot connect to Ollama server.');
    expect((await ask(cookieFetch(), { session: SESSION + 11, model: 'not-pulled' })).error).toBe('Ollama model not found.');
    expect(ollama.requests.length).toBe(before);
    expect(await server.server.db.db.selectFrom('logs').select('id').where('session', '=', SESSION + 11).execute()).toEqual([]);
  });

  it('turns the server messages into the Chat Completions shape (images, tool calls)', () => {
    expect(
      toChatMessages([
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image', image: 'https://example.org/a.png' }] },
        { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'get_time', input: { timezone: 'UTC' } }] },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'get_time', output: { type: 'text', value: '12:00' } }] },
      ]),
    ).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image_url', image_url: { url: 'https://example.org/a.png' } }] },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_time', arguments: '{"timezone":"UTC"}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: '12:00' },
    ]);
  });
});
