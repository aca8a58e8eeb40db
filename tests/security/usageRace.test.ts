// Issue 34, item 2: limits beaten by concurrency. With a limit of 3 questions a day, 20
// questions sent at once all reached the provider (the count saw only finished logs). A question
// now counts when it starts: 20 at once, over every route a question takes, reach the provider
// exactly 3 times, and exactly 3 uses are written, on SQLite, PostgreSQL and MariaDB. A question
// that fails before the provider is asked gives its use back; one the provider was asked for
// keeps it, and the Usage page's figures count each question once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UsageRecord } from '../../src/core/index.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fakeOpenAI.ts';
import { engines, startTestServer, type TestServer } from '../server/support.ts';

const LIMIT = /^The usage limitation has been reached\. /;

describe.each(await engines())('questions sent at once, on %s', (engine) => {
  let fake: FakeOpenAI;
  let t: TestServer;
  let n = 0;
  // Each test a new account of its own: its uses are its own.
  const account = async () => {
    const name = `racer${++n}`;
    await t.server.accounts.create({ username: name, email: `${name}@example.org`, password: `${name}-password` });
    const client = t.client();
    await client.post('/api/user/login', { username: name, password: `${name}-password` });
    return { client, user: (await t.server.accounts.byUsername(name))! };
  };
  const chatUses = async (userId: number) =>
    (await t.server.db.db.selectFrom('usage').select(['model', 'input_tokens', 'output_tokens', 'log_id']).where('user_id', '=', userId).where('kind', '=', 'chat').execute()).map((r) => ({
      ...r,
      input_tokens: Number(r.input_tokens),
      output_tokens: Number(r.output_tokens),
    }));
  const session = () => Date.now() - Math.floor(Math.random() * 1_000_000_000);
  /** Sends `count` requests at once through `send`; the statuses, and the errors of those refused. */
  const atOnce = async (count: number, send: (i: number) => Promise<Response>) => {
    const answers = await Promise.all(Array.from({ length: count }, (_, i) => send(i)));
    return Promise.all(answers.map(async (r) => ({ status: r.status, text: await r.text() })));
  };
  const post = (client: ReturnType<TestServer['client']>, path: string, body: unknown) =>
    client.raw(`${t.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  beforeAll(async () => {
    fake = await startFakeOpenAI();
    // Every answer takes a while, so that all 20 are under way together.
    fake.always({ text: 'ok', usage: { prompt_tokens: 10, completion_tokens: 2 }, firstDelayMs: 300 });
    t = await startTestServer(engine, {
      MODEL: 'gpt-4o-mini',
      OPENAI_BASE_URL: fake.url,
      OPENAI_API_KEY: 'sk-test',
      MODEL_PRICE_INPUT: '0.001',
      USAGE_LIMITS: 'user:3,-,-;anonymous:3,-,-',
      // The caps on answers in flight (answerCaps.test.ts) would refuse most of 20 questions at
      // once before the limit is asked: lifted, so that these count the usage limit alone.
      MAX_ANSWERS_PER_USER: '0',
      MAX_ANSWERS_PER_VISITOR: '0',
      MAX_ANSWERS_PER_ADDRESS: '0',
    });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  }, 30_000);

  it('lets 3 of 20 POST /api/generate through to the provider, and writes 3 uses', async () => {
    const { client, user } = await account();
    const before = fake.requests.length;
    const s = session();
    const answers = await atOnce(20, (i) => post(client, '/api/generate', { session: s + i, user_input: `q${i}` }));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(3);
    const refused = answers.filter((a) => a.status !== 200);
    expect(refused).toHaveLength(17);
    for (const r of refused) expect(r.status, r.text).toBe(400), expect(JSON.parse(r.text).error).toMatch(LIMIT);
    expect(fake.requests.length - before).toBe(3);
    // One use per question, completed with its log and tokens, not a second row.
    const uses = await chatUses(user.id);
    expect(uses).toHaveLength(3);
    for (const use of uses) expect(use).toMatchObject({ model: 'gpt-4o-mini', input_tokens: 10, output_tokens: 2, log_id: expect.any(Number) });
    expect(await t.server.db.db.selectFrom('logs').select('id').where('user_id', '=', user.id).execute()).toHaveLength(3);
    // The Usage page counts each question once.
    const record = (await client.get<UsageRecord>('/api/user/usage')).result!;
    expect(record.use_count_frequencies).toMatchObject({ daily: 3, exceeded: true });
    expect(record.model_usage[0]!.token.this_month).toEqual({ input: 30, output: 6 });
    expect(record.model_usage[0]!.fee.this_month).toBe(0.03);
  }, 30_000);

  it('lets 3 of 20 streamed questions (/api/generate_sse) through', async () => {
    const { client, user } = await account();
    const before = fake.requests.length;
    const s = session();
    const answers = await atOnce(20, (i) => post(client, '/api/generate_sse', { session: s + i, user_input: `q${i}` }));
    expect(answers.filter((a) => a.text.includes('event: done'))).toHaveLength(3);
    expect(answers.filter((a) => a.text.includes('The usage limitation has been reached.'))).toHaveLength(17);
    expect(fake.requests.length - before).toBe(3);
    expect(await chatUses(user.id)).toHaveLength(3);
  }, 30_000);

  it('lets 3 of 20 local-model turns (/api/generate_msg) have their messages, and their logs complete those uses', async () => {
    const { client, user } = await account();
    const s = session();
    const answers = await atOnce(20, (i) => post(client, '/api/generate_msg', { session: s + i, user_input: `q${i}`, model: 'llama3' }));
    const served = answers.filter((a) => a.status === 200).map((a) => JSON.parse(a.text).result.msg.session as number);
    expect(served).toHaveLength(3);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(17);
    expect(await chatUses(user.id)).toHaveLength(3);
    // The browser's model answered: each log completes its turn's use instead of adding one.
    for (const id of served) await client.post('/api/log/add', { session: id, input: 'q', output: 'local answer', model: 'llama3' });
    const uses = await chatUses(user.id);
    expect(uses).toHaveLength(3);
    for (const use of uses) expect(use).toMatchObject({ model: 'llama3', log_id: expect.any(Number) });
  }, 30_000);

  it('counts a visitor (one browser) the same way', async () => {
    const visitor = t.client();
    await visitor.get('/api/ping');
    const before = fake.requests.length;
    const s = session();
    const answers = await atOnce(20, (i) => post(visitor, '/api/generate', { session: s + i, user_input: `q${i}` }));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(3);
    expect(fake.requests.length - before).toBe(3);
    const device = visitor.cookies.get('device')!;
    expect(await t.server.db.db.selectFrom('usage').select('id').where('device_id', '=', device).where('kind', '=', 'chat').execute()).toHaveLength(3);
  }, 30_000);

  it('gives the use back when the question fails before the provider is asked, and keeps it when the provider was asked', async () => {
    const { client, user } = await account();
    const before = fake.requests.length;
    const s = session();
    // An unknown model, and a session id from the future: nothing is asked, nothing is counted.
    expect((await post(client, '/api/generate', { session: s, user_input: 'q', model: 'no-such-model' })).status).toBe(400);
    expect((await post(client, '/api/generate', { session: 9_999_999_999_999, user_input: 'q' })).status).toBe(400);
    expect(await chatUses(user.id)).toEqual([]);
    // The provider refuses after it was asked (a 403 is not retried): that question counts.
    fake.reply({ status: 403 });
    expect((await post(client, '/api/generate', { session: s + 1, user_input: 'q' })).status).toBe(400);
    expect(fake.requests.length - before).toBe(1);
    expect(await chatUses(user.id)).toEqual([{ model: 'gpt-4o-mini', input_tokens: 0, output_tokens: 0, log_id: null }]);
    // So 2 of the limit of 3 are left.
    const asked = fake.requests.length;
    const answers = await atOnce(5, (i) => post(client, '/api/generate', { session: s + 10 + i, user_input: `q${i}` }));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(2);
    expect(fake.requests.length - asked).toBe(2);
    expect(await chatUses(user.id)).toHaveLength(3);
  }, 30_000);

  it('counts a question whose tool calls the browser runs once, and a round with results but no question waiting as a new one', async () => {
    const { client, user } = await account();
    const s = session();
    const mcp = [{ name: 'fs_read', description: 'Reads a file.', parameters: { type: 'object', properties: { path: { type: 'string' } } } }];
    fake.reply({ toolCalls: [{ id: 'call_1', name: 'fs_read', arguments: '{"path":"/notes.txt"}' }], usage: { prompt_tokens: 7, completion_tokens: 1 } });
    const first = await post(client, '/api/generate', { session: s, user_input: 'read my notes', mcp_tools: mcp });
    const calls = (JSON.parse(await first.text()) as { result: { tool_calls: { id: string; name: string; args: string }[] } }).result.tool_calls;
    expect(calls).toHaveLength(1);
    const results = [{ ...calls[0]!, result: 'buy milk' }];
    expect((await post(client, '/api/generate', { session: s, user_input: 'read my notes', mcp_tools: mcp, tool_results: results })).status).toBe(200);
    // One use, with both rounds' tokens.
    expect(await chatUses(user.id)).toEqual([{ model: 'gpt-4o-mini', input_tokens: 17, output_tokens: 3, log_id: expect.any(Number) }]);
    // Results sent again, with no question waiting for them: a question of its own.
    expect((await post(client, '/api/generate', { session: s, user_input: 'read my notes', mcp_tools: mcp, tool_results: results })).status).toBe(200);
    expect(await chatUses(user.id)).toHaveLength(2);
    // A third is the limit's last; after it, results without a question waiting are refused.
    expect((await post(client, '/api/generate', { session: s, user_input: 'again', tool_results: results })).status).toBe(200);
    const refused = await post(client, '/api/generate', { session: s, user_input: 'again', tool_results: results });
    expect(JSON.parse(await refused.text()).error).toMatch(LIMIT);
    expect(await chatUses(user.id)).toHaveLength(3);
  }, 30_000);
});
