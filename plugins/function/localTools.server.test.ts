// Tool calls of a local model (the local model server, called from the browser), through the
// real plugin host, the real server (SQLite) and the fake Ollama's OpenAI-compatible API: the
// function plugin's Toolbox offers the enabled built-ins (run on the server, logged in) and
// the MCP helper's tools (run in the browser); the turn goes round until plain text arrives,
// is saved with its tool calls, falls back to no tools for a model without them, and a stop
// keeps what was said.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpRef, ToolboxRef, type GenerationEvent, type McpClient, type Toolbox } from '../../src/core/index.ts';
import { localGeneration } from '../../src/shell/chat/local.ts';
import { startFakeOllama, type FakeOllama } from '../../tests/fixtures/fakeOllama.ts';
import { builtinPlugin, createShellTester } from '../../tests/harness/shellTester.ts';
import { startTestServer, type TestServer } from '../../tests/server/support.ts';
import { activateFunction } from './common/index.ts';

const PW = 'hunter2hunter2';
const SESSION = 1_810_000_000_000;
let server: TestServer;
let ollama: FakeOllama;

beforeAll(async () => {
  [server, ollama] = await Promise.all([startTestServer('sqlite'), startFakeOllama()]);
}, 60_000);
afterAll(async () => {
  await Promise.all([server?.close(), ollama?.close()]);
});

const mcpCalls: unknown[] = [];
const fakeMcp: McpClient = {
  available: async () => true,
  tools: async () => [{ name: 'fs_read', description: 'Reads a file.', parameters: { type: 'object', properties: { path: { type: 'string' } } } }],
  call: async (tool, args) => {
    mcpCalls.push({ tool, args });
    return `${tool} read ${(args as { path: string }).path}: hi`;
  },
};

let seq = 0;
async function browser(login = true): Promise<{ toolbox: Toolbox; fetch: typeof fetch }> {
  const fn = await builtinPlugin('function', {
    activate: (ctx) => {
      ctx.services.provide(McpRef, fakeMcp);
      activateFunction(ctx);
    },
  });
  const t = await createShellTester({ plugins: ['general', 'user', fn], serverUrl: server.url });
  if (login) {
    const username = `local${++seq}`;
    expect((await t.run(`:user add ${username} ${username}@example.org ${PW}`)).text).toBe(`User ${username} added.`);
    expect((await t.run(`:login ${username} ${PW}`)).text).toBe(`Logged in as ${username}.`);
  }
  await t.host.ensureActive('function');
  // The browser's own requests carry its cookies (the local model server's never do).
  const withCookies = ((input: RequestInfo | URL, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    if (String(input).startsWith(server.url)) headers.set('cookie', [...t.cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    return fetch(input, { ...init, headers });
  }) as typeof fetch;
  return { toolbox: t.host.services.get(ToolboxRef), fetch: withCookies };
}

async function turn(b: { toolbox: Toolbox; fetch: typeof fetch }, session: number, functions: string, signal = new AbortController().signal, onEvent?: (e: GenerationEvent) => void) {
  const events: GenerationEvent[] = [];
  let error: string | undefined;
  await localGeneration({ session, user_input: 'what now?', model: 'llama3.2', functions, mcp_tools: [] }, (e) => {
    events.push(e);
    onEvent?.(e);
  }, { signal, ollamaUrl: ollama.url, baseUrl: server.url, fetch: b.fetch, toolbox: b.toolbox }).catch((err: Error) => (error = err.message));
  return { events, error, text: events.flatMap((e) => (e.type === 'text' ? [e.delta] : [])).join('') };
}

const toolNames = (body: Record<string, unknown>) => ((body.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name);

describe('a local model with tools', () => {
  it('runs the built-ins on the server and the helper’s tools here, then asks again with the results', async () => {
    const b = await browser();
    ollama.reply({ toolCalls: [{ id: 'c1', name: 'get_time', arguments: '{"timezone":"UTC"}' }, { id: 'c2', name: 'fs_read', arguments: '{"path":"/notes.txt"}' }] });
    ollama.reply({ chunks: ['It is time, ', 'and the notes say hi.'] });
    const before = ollama.requests.length;
    const { events, error, text } = await turn(b, SESSION + 1, 'get_time,fs_read');
    expect(error).toBeUndefined();
    expect(text).toBe('It is time, and the notes say hi.');
    expect(events.find((e) => e.type === 'call')).toEqual({ type: 'call', calls: [{ id: 'c1', name: 'get_time', args: '{"timezone":"UTC"}' }, { id: 'c2', name: 'fs_read', args: '{"path":"/notes.txt"}' }] });

    const [first, second] = ollama.requests.slice(before);
    expect(toolNames(first!.body)).toEqual(['get_time', 'fs_read']);
    const messages = second!.body.messages as { role: string; content: string | null; tool_call_id?: string; tool_calls?: unknown[] }[];
    const tail = messages.slice(-3);
    expect(tail[0]).toMatchObject({ role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function' }, { id: 'c2', type: 'function' }] });
    // get_time ran on the server (a real time), fs_read in the browser through the helper.
    expect(tail[1]).toMatchObject({ role: 'tool', tool_call_id: 'c1' });
    expect(tail[1]!.content).toMatch(/\d{1,2}:\d{2}/);
    expect(tail[2]).toEqual({ role: 'tool', tool_call_id: 'c2', content: 'fs_read read /notes.txt: hi' });
    expect(mcpCalls.at(-1)).toEqual({ tool: 'fs_read', args: { path: '/notes.txt' } });

    // Saved with its tool calls, which count in memory like a server turn's.
    const log = await server.server.db.db.selectFrom('logs').selectAll().where('session', '=', SESSION + 1).executeTakeFirstOrThrow();
    expect(log.output).toBe(text);
    expect((JSON.parse(log.tools) as { name: string }[]).map((t) => t.name)).toEqual(['get_time', 'fs_read']);
    expect(events.at(-1)).toMatchObject({ type: 'done', session: SESSION + 1, time: Number(log.time) });
  });

  it('offers only the enabled tools, and no built-ins to an anonymous visitor', async () => {
    const anonymous = await browser(false);
    ollama.reply({ text: 'plain' });
    const before = ollama.requests.length;
    expect((await turn(anonymous, SESSION + 2, 'get_time,fs_read')).text).toBe('plain');
    expect(toolNames(ollama.requests[before]!.body)).toEqual(['fs_read']);
    ollama.reply({ text: 'plain' });
    await turn(anonymous, SESSION + 3, '');
    expect(ollama.requests.at(-1)!.body).not.toHaveProperty('tools');
  });

  it('asks again without tools when the model does not support them', async () => {
    const b = await browser();
    ollama.reply({ status: 400, text: 'registry.ollama.ai/library/llama3.2:latest does not support tools' });
    ollama.reply({ text: 'No tools needed.' });
    const before = ollama.requests.length;
    const { text, error } = await turn(b, SESSION + 4, 'get_time');
    expect(error).toBeUndefined();
    expect(text).toBe('No tools needed.');
    const [withTools, without] = ollama.requests.slice(before);
    expect(toolNames(withTools!.body)).toEqual(['get_time']);
    expect(without!.body).not.toHaveProperty('tools');
  });

  it('reports arguments that are not JSON to the model, and stops after too many rounds', async () => {
    const b = await browser();
    ollama.reply({ toolCalls: [{ id: 'bad', name: 'fs_read', arguments: '{oops' }] });
    ollama.reply({ text: 'Sorry.' });
    const before = ollama.requests.length;
    expect((await turn(b, SESSION + 5, 'fs_read')).text).toBe('Sorry.');
    expect((ollama.requests[before + 1]!.body.messages as { content: string }[]).at(-1)!.content).toBe('Error: Invalid arguments for fs_read: not JSON.');

    ollama.always({ toolCalls: [{ name: 'fs_read', arguments: '{"path":"/again"}' }] });
    const looping = await turn(b, SESSION + 6, 'fs_read');
    ollama.always({ text: 'ok' });
    expect(looping.error).toBe('The model kept calling tools; stopped after 5 rounds.');
  });

  it('a stop keeps what was said as the turn’s log', async () => {
    const b = await browser();
    ollama.reply({ chunks: Array.from({ length: 40 }, (_, i) => `w${i} `), delayMs: 30 });
    const abort = new AbortController();
    let seen = 0;
    const { text } = await turn(b, SESSION + 7, '', abort.signal, (e) => {
      if (e.type === 'text' && ++seen === 3) abort.abort();
    });
    const log = await server.server.db.db.selectFrom('logs').selectAll().where('session', '=', SESSION + 7).executeTakeFirstOrThrow();
    expect(log.output).toBe(text);
    expect(text.startsWith('w0 w1 w2 ')).toBe(true);
    expect(text).not.toContain('w39');
  });
});
