// The session and log API over real HTTP on every database engine, with real logs written by
// chatting against the fake OpenAI-compatible provider: reading by id, lists, session and log
// navigation across a branch, sharing, and the privacy rules (owner, root, shared,
// anonymous visitors through their device cookie).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient, GenerateResult } from '../../src/core/index.ts';
import type { PublicLog, SessionDetail, SessionSummary } from '../../plugins/session/common/api.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fakeOpenAI.ts';
import { engines, failure, startTestServer, type TestServer } from './support.ts';

type Client = ReturnType<TestServer['client']>;

let fake: FakeOpenAI;
beforeAll(async () => {
  fake = await startFakeOpenAI();
});
afterAll(async () => {
  await fake?.close();
});

describe.each(await engines())('sessions and logs on %s', (engine) => {
  let t: TestServer;
  let ada: Client;
  let bob: Client;
  let root: Client;
  // Session ids are millisecond timestamps from the recent past, as a browser makes them: logs
  // and branches (stamped with the time they are written) come after them.
  const base = Date.now() - 10_000_000;
  const S1 = base + 1_000;
  const S2 = base + 2_000;

  beforeAll(async () => {
    t = await startTestServer(engine, { MODEL: 'gpt-4o-mini', OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'sk-test' });
    const login = async (username: string, password: string) => {
      const client = t.client();
      await client.post('/api/user/login', { username, password });
      return client;
    };
    for (const name of ['ada', 'bob']) await t.server.accounts.create({ username: name, email: `${name}@example.org`, password: `${name}-password-1` });
    [ada, bob, root] = await Promise.all([login('ada', 'ada-password-1'), login('bob', 'bob-password-1'), login('root', 'root-password-1')]);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  /** One chat turn through POST /api/generate; the fake answers "You said: <input>". */
  async function say(client: ApiClient, session: number, input: string, time?: number) {
    const answer = await client.post<GenerateResult>('/api/generate', { session, user_input: input, ...(time ? { time } : {}) });
    return answer.result!.info;
  }
  const detail = async (client: ApiClient, id: number) => (await client.get<SessionDetail>(`/api/session/${id}`)).result!;
  const logAt = async (client: ApiClient, direction: 'prev' | 'next', session: number, time: number) =>
    (await client.get<{ log: PublicLog }>(`/api/log/${direction}`, { session: String(session), time: String(time) })).result!.log;

  let t1 = 0;
  let t2 = 0;

  it('reads a session with its logs, oldest first, for its owner and root only', async () => {
    t1 = (await say(ada, S1, 'Hello there, first question')).time;
    t2 = (await say(ada, S1, 'Second question')).time;
    await say(ada, S2, 'Another session');
    const mine = await detail(ada, S1);
    expect(mine).toMatchObject({ id: S1, parent: null, shared: false, creator: 'ada', length: 2, time: t2 });
    expect(mine.logs.map((l) => [l.input, l.output, l.model])).toEqual([
      ['Hello there, first question', 'You said: Hello there, first question', 'gpt-4o-mini'],
      ['Second question', 'You said: Second question', 'gpt-4o-mini'],
    ]);
    // Nothing about the owner but the username, and only to the owner and root.
    expect(JSON.stringify(mine)).not.toMatch(/user_id|device_id|password/);
    expect((await detail(root, S1)).creator).toBe('ada');
    expect(await failure(bob.get(`/api/session/${S1}`))).toEqual({ status: 404, error: 'No session found.' });
    expect(await failure(t.client().get(`/api/session/${S1}`))).toEqual({ status: 404, error: 'No session found.' });
    expect(await failure(ada.get('/api/session/12ab'))).toEqual({ status: 400, error: 'Session must be a number.' });
    expect(await failure(ada.get('/api/session/1669766400000'))).toEqual({ status: 400, error: 'Time traveler detected.' });
    expect(await failure(ada.get(`/api/session/${base + 999}`))).toEqual({ status: 404, error: 'No session found.' });
  });

  it('lists everybody\'s sessions to root only, and a user\'s own to that user', async () => {
    expect(await failure(t.client().get('/api/session/list'))).toEqual({ status: 401, error: 'Please login.' });
    expect((await failure(ada.get('/api/session/list'))).status).toBe(403);
    const all = (await root.get<{ sessions: SessionSummary[] }>('/api/session/list')).result!.sessions;
    expect(all.find((s) => s.id === S1)).toMatchObject({ user: 'ada', input: 'Hello there, first question', length: 2 });
    // Newest first.
    expect(all.map((s) => s.id)).toEqual([...all.map((s) => s.id)].sort((a, b) => b - a));

    const own = (await ada.get<{ sessions: SessionSummary[] }>('/api/session/list/ada')).result!.sessions;
    expect(own.map((s) => s.id)).toEqual([S2, S1]);
    expect((await failure(bob.get('/api/session/list/ada'))).status).toBe(403);
    expect((await bob.get<{ sessions: SessionSummary[] }>('/api/session/list/bob')).result!.sessions).toEqual([]);
    expect((await root.get<{ sessions: SessionSummary[] }>('/api/session/list/ada')).result!.sessions.map((s) => s.id)).toEqual([S2, S1]);
    expect(await failure(root.get('/api/session/list/nobody'))).toEqual({ status: 404, error: 'User not found.' });
    expect((await failure(t.client().get('/api/session/list/ada'))).status).toBe(401);
  });

  it('walks the owner\'s sessions by id with prev and next; root walks everybody\'s', async () => {
    const adjacent = async (client: ApiClient, direction: 'prev' | 'next', from: number) =>
      (await client.get<SessionDetail>(`/api/session/${direction}`, { session: String(from) })).result!;
    expect((await adjacent(ada, 'prev', S2)).id).toBe(S1);
    expect((await adjacent(ada, 'prev', S2)).logs).toHaveLength(2);
    expect((await adjacent(ada, 'next', S1)).id).toBe(S2);
    expect((await adjacent(ada, 'prev', base + 5_000)).id).toBe(S2);
    expect(await failure(ada.get('/api/session/prev', { session: String(S1) }))).toEqual({ status: 404, error: 'No previous session.' });
    expect(await failure(ada.get('/api/session/next', { session: String(S2) }))).toEqual({ status: 404, error: 'No next session.' });
    // Bob has no sessions: he never reaches Ada's.
    expect(await failure(bob.get('/api/session/prev', { session: String(S2 + 1) }))).toEqual({ status: 404, error: 'No previous session.' });
    expect((await failure(t.client().get('/api/session/prev', { session: String(S2) }))).status).toBe(401);
    expect((await adjacent(root, 'prev', S1 + 1)).id).toBe(S1);
  });

  it('moves between logs with prev and next, and follows a branch to its parent', async () => {
    expect((await logAt(ada, 'prev', S1, t2)).time).toBe(t1);
    expect((await logAt(ada, 'next', S1, t1)).input).toBe('Second question');
    expect(await failure(ada.get('/api/log/prev', { session: String(S1), time: String(t1) }))).toEqual({ status: 404, error: 'No log found.' });
    expect(await failure(ada.get('/api/log/next', { session: String(S1), time: String(t2) }))).toEqual({ status: 404, error: 'No log found.' });
    expect(await failure(bob.get('/api/log/prev', { session: String(S1), time: String(t2) }))).toEqual({ status: 404, error: 'No session found.' });

    // Sending while looking at the first log branches into a sub-session.
    const branch = await say(ada, S1, 'A different second question', t1);
    expect(branch.session).not.toBe(S1);
    const sub = await detail(ada, branch.session);
    expect(sub).toMatchObject({ parent: S1, branch_time: t1, length: 1 });
    // The branch's timeline: the parent's first log, then its own; never the parent's second.
    expect((await logAt(ada, 'prev', branch.session, branch.time)).time).toBe(t1);
    expect(await failure(ada.get('/api/log/prev', { session: String(branch.session), time: String(t1) }))).toEqual({ status: 404, error: 'No log found.' });
    expect((await logAt(ada, 'next', branch.session, t1)).input).toBe('A different second question');
    const list = (await ada.get<{ logs: PublicLog[] }>('/api/log/list', { session: String(branch.session) })).result!.logs;
    expect(list.map((l) => l.input)).toEqual(['Hello there, first question', 'A different second question']);
    expect(await failure(bob.get('/api/log/list', { session: String(branch.session) }))).toEqual({ status: 404, error: 'No session found.' });
    expect((await root.get<{ logs: PublicLog[] }>('/api/log/list', { session: String(S1) })).result!.logs).toHaveLength(2);
  });

  it('a branch of a branch sees its ancestors only up to the earliest branch point, in memory and navigation', async () => {
    const S = base + 6_000;
    const a = await say(ada, S, 'alpha');
    const b = await say(ada, S, 'beta');
    await say(ada, S, 'gamma');
    const B = await say(ada, S, 'delta', b.time);
    // In B, go back to the inherited first log and send again.
    const C = await say(ada, B.session, 'epsilon', a.time);
    expect(C.session).not.toBe(B.session);
    expect(await detail(ada, C.session)).toMatchObject({ parent: B.session, branch_time: a.time });
    const users = (fake.requests.at(-1)!.body.messages as { role: string; content: unknown }[]).filter((m) => m.role === 'user').map((m) => m.content);
    expect(users).toEqual(['alpha', 'epsilon']);
    expect((await logAt(ada, 'prev', C.session, C.time)).input).toBe('alpha');
    expect(await failure(ada.get('/api/log/prev', { session: String(C.session), time: String(a.time) }))).toEqual({ status: 404, error: 'No log found.' });
    const list = (await ada.get<{ logs: PublicLog[] }>('/api/log/list', { session: String(C.session) })).result!.logs;
    expect(list.map((l) => l.input)).toEqual(['alpha', 'epsilon']);
  });

  it('shares a session (owner only); a reader of a shared session sees it and branches into their own', async () => {
    expect(await failure(bob.post('/api/session/share', { session: S1 }))).toEqual({ status: 404, error: 'No session found.' });
    expect(await failure(root.post('/api/session/share', { session: S1 }))).toEqual({ status: 403, error: 'You can only share your own sessions.' });
    expect(await failure(ada.post('/api/session/share', { session: base + 999 }))).toEqual({ status: 404, error: 'No session found.' });
    expect((await ada.post('/api/session/share', { session: S1 })).result).toEqual({ session: S1, shared: true });
    const seen = await detail(bob, S1);
    expect(seen).toMatchObject({ id: S1, shared: true, length: 2 });
    expect(seen.creator).toBeUndefined();
    expect((await logAt(bob, 'prev', S1, t2)).time).toBe(t1);
    // Bob's message goes into a session of his own, a branch of Ada's.
    const reply = await say(bob, S1, 'Bob joins in');
    expect(reply.session).not.toBe(S1);
    expect(await detail(bob, reply.session)).toMatchObject({ parent: S1, creator: 'bob', length: 1 });
    expect((await detail(ada, S1)).length).toBe(2);
    // Ada cannot read Bob's branch, nor share it.
    expect(await failure(ada.get(`/api/session/${reply.session}`))).toEqual({ status: 404, error: 'No session found.' });
    expect(await failure(ada.post('/api/session/share', { session: reply.session }))).toEqual({ status: 404, error: 'No session found.' });
    // Sharing twice is fine.
    expect((await ada.post('/api/session/share', { session: S1 })).success).toBe(true);
  });

  it('lets anonymous visitors read their own sessions through the device cookie, and nothing more', async () => {
    const visitor = t.client();
    const S5 = base + 5_000;
    const first = await say(visitor, S5, 'anonymous question');
    await say(visitor, S5, 'anonymous follow-up');
    expect(visitor.cookies.get('device')).toBeTruthy();
    expect(await detail(visitor, S5)).toMatchObject({ id: S5, creator: '', length: 2 });
    expect((await logAt(visitor, 'next', S5, first.time)).input).toBe('anonymous follow-up');
    expect((await visitor.get<{ logs: PublicLog[] }>('/api/log/list', { session: String(S5) })).result!.logs).toHaveLength(2);
    // Another browser, a logged-in user, or the same person once logged in: not the owner.
    expect((await failure(t.client().get(`/api/session/${S5}`))).status).toBe(404);
    expect((await failure(ada.get(`/api/session/${S5}`))).status).toBe(404);
    expect((await detail(root, S5)).creator).toBe('');
    expect((await failure(visitor.get('/api/session/prev', { session: String(S5 + 1) }))).status).toBe(401);
    expect((await failure(visitor.get('/api/session/list/ada'))).status).toBe(401);
    // It can share its own session.
    expect((await visitor.post('/api/session/share', { session: S5 })).success).toBe(true);
    expect((await detail(ada, S5)).shared).toBe(true);
  });
});
