// The tool-call loop (spec part 4) with a tool the fake provider calls: server tools run on the
// server and the request goes back with the results until plain text arrives; tools the
// browser runs (MCP) end the turn with a `call` event; a model that never stops calling tools
// meets the round limit with a clear error.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GenerationEvent, ServerPluginModule } from '../../src/core/index.ts';
import { MAX_TOOL_ROUNDS } from '../../src/server/turn/run.ts';
import { streamGeneration } from '../../src/core/api/generationClient.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fakeOpenAI.ts';
import { startTestServer, type TestServer } from './support.ts';

const SESSION = 1_810_000_000_000;

/** A test plugin with one server tool that reverses its text argument. */
const reverseTool: ServerPluginModule = {
  register(ctx) {
    ctx.generation.addTool('reverse', {
      description: 'Reverses a text.',
      parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      execute: async (args) => ({ result: [...String((args as { text: string }).text)].reverse().join('') }),
    });
  },
};

// Twice: over the direct relay and over the AI SDK (STREAM_RELAY).
describe.each(['direct', 'sdk'])('tool-call loop (STREAM_RELAY=%s)', (relay) => {
  let fake: FakeOpenAI;
  let t: TestServer;
  beforeAll(async () => {
    fake = await startFakeOpenAI();
    t = await startTestServer('sqlite', { MODEL: 'gpt-4o-mini', OPENAI_BASE_URL: fake.url, STREAM_RELAY: relay }, [reverseTool]);
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  async function ask(body: Record<string, unknown>, client = t.client()) {
    const events: GenerationEvent[] = [];
    await streamGeneration({ user_input: 'q', ...body } as never, (e) => events.push(e), {
      signal: new AbortController().signal,
      baseUrl: t.url,
      fetch: client.raw,
    });
    return events;
  }

  it('runs a server tool the model calls, then answers with its result', async () => {
    fake.reply({ toolCalls: [{ name: 'reverse', arguments: '{"text":"stressed"}' }] });
    fake.reply((req) => ({ text: `The tool said ${JSON.stringify(req.body.messages.at(-1).content)}` }));
    const events = await ask({ session: SESSION + 1, functions: 'reverse', use_stats: true });
    const text = events.filter((e) => e.type === 'text').map((e) => (e as { delta: string }).delta).join('');
    expect(text).toBe('The tool said "desserts"');
    const second = fake.requests.at(-1)!.body;
    expect(second.messages.at(-2)).toMatchObject({ role: 'assistant', tool_calls: [{ function: { name: 'reverse' } }] });
    expect(second.tools.map((tool: { function: { name: string } }) => tool.function.name)).toEqual(['reverse']);
    const stats = events.filter((e) => e.type === 'stats').at(-1) as { stats: { func: string } };
    expect(stats.stats.func).toBe('reverse');
    const log = await t.server.db.db.selectFrom('logs').selectAll().where('session', '=', SESSION + 1).executeTakeFirstOrThrow();
    expect(JSON.parse(log.tools)).toEqual([expect.objectContaining({ name: 'reverse', args: '{"text":"stressed"}', result: 'desserts' })]);
  });

  it('counts each tool call as a unit of memory', async () => {
    const client = t.client();
    const session = SESSION + 5;
    fake.reply({ toolCalls: [{ name: 'reverse', arguments: '{"text":"ab"}' }] });
    fake.reply({ text: 'first answer' });
    await ask({ session, user_input: 'first', functions: 'reverse' }, client);
    fake.reply({ text: 'second answer' });
    await ask({ session, user_input: 'second' }, client);
    // mem_length 2: the second turn (1 unit) fits; the first (1 turn + 1 call) does not.
    fake.reply({ text: 'third answer' });
    const events = await ask({ session, user_input: 'third', mem_length: 2, use_stats: true }, client);
    const users = fake.requests.at(-1)!.body.messages.filter((m: { role: string }) => m.role === 'user').map((m: { content: string }) => m.content);
    expect(users).toEqual(['second', 'third']);
    expect((events.find((e) => e.type === 'stats') as { stats: { mem: string } }).stats.mem).toBe('1/2');
  });

  it('offers only enabled functions', async () => {
    fake.reply({ text: 'no tools here' });
    await ask({ session: SESSION + 2 });
    expect(fake.requests.at(-1)!.body.tools).toBeUndefined();
  });

  it('hands browser (MCP) tool calls to the client, and the resent request completes the turn', async () => {
    const mcp = [{ name: 'fs_read', description: 'Reads a file.', parameters: { type: 'object', properties: { path: { type: 'string' } } } }];
    fake.reply({ toolCalls: [{ id: 'call_1', name: 'fs_read', arguments: '{"path":"/notes.txt"}' }] });
    const browser = t.client();
    const first = await ask({ session: SESSION + 3, user_input: 'read my notes', mcp_tools: mcp }, browser);
    const call = first.find((e) => e.type === 'call') as { calls: { id: string; name: string; args: string }[] };
    expect(call.calls).toEqual([{ id: 'call_1', name: 'fs_read', args: '{"path":"/notes.txt"}' }]);
    expect(first.at(-1)).toMatchObject({ type: 'done', tool_calls: call.calls });
    fake.reply({ text: 'Your notes say: buy milk.' });
    const second = await ask({
      session: SESSION + 3,
      user_input: 'read my notes',
      mcp_tools: mcp,
      tool_results: [{ ...call.calls[0]!, result: 'buy milk' }],
    }, browser);
    expect(second.filter((e) => e.type === 'text').map((e) => (e as { delta: string }).delta).join('')).toBe('Your notes say: buy milk.');
    const body = fake.requests.at(-1)!.body;
    expect(body.messages.at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'call_1', content: 'buy milk' });
    const logs = await t.server.db.db.selectFrom('logs').selectAll().where('session', '=', SESSION + 3).execute();
    expect(logs).toHaveLength(1);
  });

  it(`stops after ${MAX_TOOL_ROUNDS} rounds with a clear error`, async () => {
    fake.always({ toolCalls: [{ name: 'reverse', arguments: '{"text":"again"}' }] });
    try {
      const events = await ask({ session: SESSION + 4, functions: 'reverse' });
      expect(events.at(-1)).toEqual({ type: 'error', error: `The model kept calling tools; stopped after ${MAX_TOOL_ROUNDS} rounds.`, message: { code: 'core.toolRounds', params: { rounds: MAX_TOOL_ROUNDS }, text: `The model kept calling tools; stopped after ${MAX_TOOL_ROUNDS} rounds.` } });
    } finally {
      fake.reset();
    }
  });
});
