// Usage over real HTTP (spec parts 3, 7, 8 and 9): `GET /api/user/usage` counts questions,
// tokens and fees from the ledger the turns write, by calendar month and rolling window, and a
// role's USAGE_LIMITS refuse the next question once one is reached, for server turns and local
// (generate_msg) turns alike; root has none; anonymous visitors count per browser.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseUsageLimits, type UsageRecord } from '../../src/core/index.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fakeOpenAI.ts';
import { engines, failure, startTestServer, type TestServer } from './support.ts';

// The spec's sentence, then what one can do next (issue 33): the 3 uses of a moment ago hold the
// daily limit for 24 hours; a visitor is also told how to sign up or log in, as :help writes it.
const LIMIT = 'The usage limitation has been reached. You can ask again in 24 hours.';
const VISITOR_LIMIT =
  'The usage limitation has been reached. Sign up with :user add <username> <email> [<password>] or log in with :login <username> <password> [--save|-s [Nh|Nd]], or ask again in 24 hours.';

describe('USAGE_LIMITS', () => {
  it('reads role:daily,weekly,monthly, with - or nothing for no limit, and says which part is wrong', () => {
    expect(parseUsageLimits('user:540,3780,16740; plus_user:4320,-,;anonymous:5,,')).toEqual({
      user: { daily: 540, weekly: 3780, monthly: 16740 },
      plus_user: { daily: 4320, weekly: null, monthly: null },
      anonymous: { daily: 5, weekly: null, monthly: null },
    });
    expect(parseUsageLimits('')).toEqual({});
    expect(() => parseUsageLimits('user:1,2')).toThrow('USAGE_LIMITS: "user:1,2" is not role:daily,weekly,monthly');
    expect(() => parseUsageLimits('user:1,x,3')).toThrow('"user:1,x,3"');
  });
});

describe.each(await engines())('usage on %s', (engine) => {
  let fake: FakeOpenAI;
  let t: TestServer;
  const session = () => Date.now() - Math.floor(Math.random() * 1_000_000_000);
  beforeAll(async () => {
    fake = await startFakeOpenAI();
    t = await startTestServer(engine, {
      MODEL: 'gpt-4o-mini',
      OPENAI_BASE_URL: fake.url,
      OPENAI_API_KEY: 'sk-test',
      MODEL_PRICE_INPUT: '0.000001',
      MODEL_PRICE_OUTPUT: '0.000002',
      USAGE_LIMITS: 'user:3,-,-;anonymous:1,-,-',
    });
    for (const name of ['uma', 'ursula']) await t.server.accounts.create({ username: name, email: `${name}@example.org`, password: `${name}-password-1` });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  const login = async (username: string, password: string) => {
    const client = t.client();
    await client.post('/api/user/login', { username, password });
    return client;
  };

  it('counts questions, tokens and fees per model, and refuses the question past the daily limit', async () => {
    const uma = await login('uma', 'uma-password-1');
    const s = session();
    for (let i = 0; i < 3; i++) {
      fake.reply({ text: 'ok', usage: { prompt_tokens: 100, completion_tokens: 10 } });
      await uma.post('/api/generate', { session: s, user_input: `question ${i}` });
    }
    const record = (await uma.get<UsageRecord>('/api/user/usage')).result!;
    expect(record.use_count_monthly.this_month).toBe(3);
    expect(record.use_count_frequencies).toEqual({ daily: 3, weekly: 3, monthly: 3, daily_limit: 3, weekly_limit: null, monthly_limit: null, exceeded: true });
    expect(record.model_usage).toEqual([
      {
        model: 'gpt-4o-mini',
        token: { this_month: { input: 300, output: 30 }, last_month: { input: 0, output: 0 } },
        fee: { this_month: 0.00036, last_month: 0 },
        token_frequencies: { daily: { input: 300, output: 30 }, weekly: { input: 300, output: 30 }, monthly: { input: 300, output: 30 } },
      },
    ]);
    // The fourth question: refused before the model is asked or anything is written.
    const asked = fake.requests.length;
    expect(await failure(uma.post('/api/generate', { session: s, user_input: 'one more' }))).toEqual({ status: 400, error: LIMIT });
    const streamed = await uma.raw(`${t.url}/api/generate_sse`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ session: s, user_input: 'one more' }) });
    const wait = { code: 'user.waitHours', params: { n: 24 }, text: '24 hours' };
    expect(await streamed.text()).toContain(`event: error\ndata: ${JSON.stringify({ error: LIMIT, message: { code: 'user.usageLimitUser', params: { wait }, text: LIMIT } })}`);
    // A local model's turn is a use too.
    expect(await failure(uma.post('/api/generate_msg', { session: s, user_input: 'one more' }))).toEqual({ status: 429, error: LIMIT });
    expect(fake.requests.length).toBe(asked);
    const logs = await t.server.db.db.selectFrom('logs').select('input').where('session', '=', s).execute();
    expect(logs.map((l) => l.input)).toEqual(['question 0', 'question 1', 'question 2']);
    // What the account has spent so far, as :user shows it (spec part 3's `usage`).
    expect((await uma.get<{ usage: number }>('/api/user/info')).result!.usage).toBe(0.00036);
    // Another user's count is their own.
    const ursula = await login('ursula', 'ursula-password-1');
    fake.reply({ text: 'ok' });
    expect((await ursula.post<{ text: string }>('/api/generate', { session: session(), user_input: 'hi' })).result!.text).toBe('ok');
  });

  it('counts by month and by rolling window: a question of last month is in the 30 days but not this month', async () => {
    const uma = await login('uma', 'uma-password-1');
    const user = (await t.server.accounts.byUsername('uma'))!;
    // Written as the ledger writes it, 20 days ago, before the first of this month when that is so.
    const now = Date.now();
    const twentyDaysAgo = now - 20 * 86_400_000;
    await t.server.db.db
      .insertInto('usage')
      .values({ user_id: user.id, device_id: null, log_id: null, kind: 'chat', model: 'older-model', input_tokens: 7, output_tokens: 3, cost: 0.5, created_at: twentyDaysAgo })
      .execute();
    const record = (await uma.get<UsageRecord>('/api/user/usage')).result!;
    const older = record.model_usage.find((m) => m.model === 'older-model')!;
    expect(older.token_frequencies).toEqual({ daily: { input: 0, output: 0 }, weekly: { input: 0, output: 0 }, monthly: { input: 7, output: 3 } });
    const sameMonth = new Date(twentyDaysAgo).getUTCMonth() === new Date(now).getUTCMonth();
    expect(record.use_count_monthly.this_month).toBe(sameMonth ? 4 : 3);
    expect(record.use_count_monthly.last_month).toBe(sameMonth ? 0 : 1);
    expect(older.fee).toEqual(sameMonth ? { this_month: 0.5, last_month: 0 } : { this_month: 0, last_month: 0.5 });
    expect(record.use_count_frequencies).toMatchObject({ daily: 3, weekly: 3, monthly: 4 });
  });

  it('gives root no limits, and an anonymous visitor the anonymous ones, per browser', async () => {
    const root = await login('root', 'root-password-1');
    const s = session();
    for (let i = 0; i < 4; i++) {
      fake.reply({ text: 'ok' });
      await root.post('/api/generate', { session: s, user_input: `q${i}` });
    }
    const rootRecord = (await root.get<UsageRecord>('/api/user/usage')).result!;
    expect(rootRecord.use_count_frequencies).toMatchObject({ daily: 4, daily_limit: null, exceeded: false });
    // Root (rank 4) also sees the whole service: uma's 3 questions, ursula's 1 and root's 4.
    const service = rootRecord.services_usage!.find((m) => m.model === 'gpt-4o-mini')!;
    expect(service.uses).toEqual({ this_month: 8, last_month: 0 });
    expect(service.token.this_month.input).toBeGreaterThanOrEqual(300);
    expect(service.fee.this_month).toBeGreaterThanOrEqual(0.00036);
    // A user (rank 1) sees only their own.
    const uma = await login('uma', 'uma-password-1');
    expect((await uma.get<UsageRecord>('/api/user/usage')).result!.services_usage).toBeUndefined();
    const visitor = t.client();
    fake.reply({ text: 'ok' });
    await visitor.post('/api/generate', { session: session(), user_input: 'first' });
    expect(await failure(visitor.post('/api/generate', { session: session(), user_input: 'second' }))).toEqual({ status: 400, error: VISITOR_LIMIT });
    // Another browser has its own count; the usage page itself needs a login.
    fake.reply({ text: 'ok' });
    expect((await t.client().post<{ text: string }>('/api/generate', { session: session(), user_input: 'first' })).result!.text).toBe('ok');
    expect(await failure(visitor.get('/api/user/usage'))).toEqual({ status: 401, error: 'Please login.' });
  });
});

describe('without USAGE_LIMITS', () => {
  it('counts, and refuses nothing', async () => {
    const fake = await startFakeOpenAI();
    const t = await startTestServer('sqlite', { MODEL: 'gpt-4o-mini', OPENAI_BASE_URL: fake.url });
    try {
      await t.server.accounts.create({ username: 'free', email: 'free@example.org', password: 'free-password-1' });
      const client = t.client();
      await client.post('/api/user/login', { username: 'free', password: 'free-password-1' });
      for (let i = 0; i < 5; i++) {
        fake.reply({ text: 'ok' });
        await client.post('/api/generate', { session: Date.now() - 100_000 - i, user_input: `q${i}` });
      }
      expect((await client.get<UsageRecord>('/api/user/usage')).result!.use_count_frequencies).toEqual({
        daily: 5,
        weekly: 5,
        monthly: 5,
        daily_limit: null,
        weekly_limit: null,
        monthly_limit: null,
        exceeded: false,
      });
    } finally {
      await t.close();
      await fake.close();
    }
  });
});
