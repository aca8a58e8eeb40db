// The turn client's MCP rounds (src/core/turn) against the real server and a scripted provider:
// the model's call of a client-side tool is run by the client, the turn is sent again with its
// result until plain text arrives, and a model that keeps calling is stopped after
// MAX_TOOL_ROUNDS, streamed or not.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import functionManifest from '../../plugins/function/manifest.ts';
import { createMemorySettings, MAX_TOOL_ROUNDS, SESSION_ID_MIN, SHELL_SETTINGS, type GenerationEvent } from '../../src/core/host/index.ts';
import { serverGeneration } from '../../src/core/turn/generate.ts';
import { runTurn, type TurnTools } from '../../src/core/turn/runTurn.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fakeOpenAI.ts';
import { cookieFetch } from '../harness/shellTester.ts';
import { startTestServer, type TestServer } from './support.ts';

let fake: FakeOpenAI;
let t: TestServer;
beforeAll(async () => {
  fake = await startFakeOpenAI({ models: ['gpt-demo'] });
  t = await startTestServer('sqlite', { MODEL: 'gpt-demo', OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'sk-test' });
}, 60_000);
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

/** The MCP helper as the turn sees it: one tool, `add`, whose calls are counted. */
function helper(): TurnTools & { calls: unknown[] } {
  const calls: unknown[] = [];
  return {
    calls,
    tools: async () => [
      { name: 'add', description: 'Adds two numbers.', parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } } },
      { name: 'not-enabled', description: 'Never offered.' },
    ],
    call: async (_name, args) => {
      calls.push(args);
      const { a, b } = args as { a: number; b: number };
      return String(a + b);
    },
  };
}

function turn(stream: boolean, session: number) {
  const settings = createMemorySettings([...SHELL_SETTINGS, ...(functionManifest.settings ?? [])], { session, functions: 'add', useStream: stream });
  const events: GenerationEvent['type'][] = [];
  const tools = helper();
  const ask = (text: string) =>
    runTurn({ text, images: [], files: [] }, (event) => events.push(event.type), {
      settings,
      generate: serverGeneration({ stream, baseUrl: t.url, fetch: cookieFetch() }),
      signal: new AbortController().signal,
      tools,
    });
  return { settings, events, tools, ask };
}

describe.each([true, false])('the turn client\'s MCP rounds (streamed: %s)', (stream) => {
  it('runs the tool the model calls, sends the turn again with its result, and follows the answer', async () => {
    const { settings, events, tools, ask } = turn(stream, SESSION_ID_MIN + (stream ? 1_001 : 1_002));
    const sent = fake.requests.length;
    fake.reply({ toolCalls: [{ id: 'call_add', name: 'add', arguments: '{"a":2,"b":40}' }] });
    fake.reply((req) => ({ text: `The helper says ${req.body.messages.at(-1).content}.` }));
    const end = await ask('What is 2 + 40?');
    expect(end).toMatchObject({ text: 'The helper says 42.', model: 'gpt-demo', stopped: false });
    expect(end.failure).toBeUndefined();
    expect(tools.calls).toEqual([{ a: 2, b: 40 }]);
    const [first, second] = fake.requests.slice(sent);
    // Only the enabled functions are offered.
    expect(first!.body.tools.map((tool: { function: { name: string } }) => tool.function.name)).toEqual(['add']);
    expect(second!.body.messages.at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'call_add', content: '42' });
    expect(events.filter((type) => type === 'done')).toHaveLength(2);
    // The answer's log is the one the next question follows.
    expect(settings.get<number>('time')).toBeGreaterThan(0);
    expect(settings.get<number>('head')).toBe(settings.get<number>('time'));
    expect(settings.get<number>('session')).toBe(end.session);
  });

  it(`stops a model that keeps calling tools after ${MAX_TOOL_ROUNDS} rounds`, async () => {
    const { tools, ask } = turn(stream, SESSION_ID_MIN + (stream ? 2_001 : 2_002));
    const sent = fake.requests.length;
    for (let i = 0; i < MAX_TOOL_ROUNDS + 1; i++) fake.reply({ toolCalls: [{ id: `call_${i}`, name: 'add', arguments: '{"a":1,"b":1}' }] });
    const end = await ask('Count forever');
    expect(end.failure).toMatchObject({ kind: 'error', key: 'msg.tooManyRounds', params: { rounds: MAX_TOOL_ROUNDS } });
    expect(fake.requests.length - sent).toBe(MAX_TOOL_ROUNDS);
    expect(tools.calls).toHaveLength(MAX_TOOL_ROUNDS - 1);
    fake.reset();
  });
});
