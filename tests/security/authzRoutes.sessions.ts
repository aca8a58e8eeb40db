// The authorization matrix, sessions area: sessions, logs and generation. Each cell works on
// an unshared session of the owner with two logs; whose session a request may read, continue
// or write into, and that nobody else's turns appear in or land in it (see authzSupport.ts).
import { expect } from 'vitest';
import { resultOf, t, type Case, type Cases, type Matrix, type World } from './authzSupport.ts';

// prettier-ignore
export const SESSION_MATRIX: Matrix = {
  //                                           scope      anonymous owner other member root
  // Sessions and logs: the owner's unshared session (anonymous visitors own only their device's).
  'GET /api/session/:id':                      ['owner',  404,      200,  404,  404,   200],
  'GET /api/session/list':                     ['owner',  401,      403,  403,  403,   200],
  'GET /api/session/list/:user':               ['owner',  401,      200,  403,  403,   200],
  'GET /api/session/prev':                     ['self',   401,      200,  404,  404,   200],
  'GET /api/session/next':                     ['self',   401,      200,  404,  404,   200],
  'POST /api/session/share':                   ['owner',  404,      200,  404,  404,   403],
  'GET /api/log/prev':                         ['owner',  404,      200,  404,  404,   200],
  'GET /api/log/next':                         ['owner',  404,      200,  404,  404,   200],
  'GET /api/log/list':                         ['owner',  404,      200,  404,  404,   200],
  'GET /api/log/search':                       ['self',   401,      200,  200,  200,   200],
  // Generation: no model is configured here, so a turn ends in 'No available model found.';
  // what matters is whose session a request may read or write (the owner's unshared one).
  'GET /api/generate_sse':                     ['owner',  200,      200,  200,  200,   200],
  'POST /api/generate_sse':                    ['owner',  200,      200,  200,  200,   200],
  'POST /api/generate':                        ['owner',  400,      400,  400,  400,   400],
  'POST /api/generate_msg':                    ['owner',  200,      200,  200,  200,   200],
  'POST /api/log/add':                         ['owner',  403,      200,  403,  403,   403],
};

/** An unshared session of the owner with two logs, written straight to the database. */
let lastSession = Date.now() - 50_000_000;
async function ownerSession(w: World): Promise<Record<string, string>> {
  const id = (lastSession += 1_000);
  const now = Date.now();
  const db = t.server.db.db;
  await db.insertInto('sessions').values({ id, parent_id: null, branch_time: null, user_id: w.owner.id, device_id: null, shared: 0, created_at: now, updated_at: now }).execute();
  for (const i of [0, 1]) {
    await db
      .insertInto('logs')
      .values({ session: id, time: id + 10 + i, user_id: w.owner.id, device_id: null, model: 'm', input: `needle-${w.owner.username}-end ${i}`, output: 'answer', images: '[]', tools: '[]', input_tokens: 0, output_tokens: 0, created_at: now })
      .execute();
  }
  return { session: String(id), first: String(id + 10), second: String(id + 11) };
}
const sessionRow = (w: World) => t.server.db.db.selectFrom('sessions').selectAll().where('id', '=', Number(w.prepared.session)).executeTakeFirstOrThrow();
type Listed = { sessions: { id: number; user: string }[] };

/** Generation rows: the owner's turns stay in the owner's session, whoever asks (ownerSession has two). */
const turnsIn = async (w: World) => (await t.server.db.db.selectFrom('logs').select('id').where('session', '=', Number(w.prepared.session)).execute()).length;
const ownerTurn = (w: World) => `needle-${w.owner.username}-end`;
const generationCase = (extra: Partial<Case> = {}): Case => ({
  prepare: (w) => ownerSession(w),
  body: (w) => ({ session: Number(w.prepared.session), user_input: 'hello' }),
  effect: async ({ w, res }) => {
    // Everyone reaches the model step: the owner in the session, root in a branch of their own,
    // anybody else in a new session of their own that remembers nothing of this one.
    expect(res.text).toContain('No available model found.');
    expect(res.text).not.toContain(String(w.prepared.session));
    expect(res.text).not.toContain(ownerTurn(w));
    expect(await turnsIn(w)).toBe(2);
  },
  ...extra,
});

export const SESSION_CASES: Cases = {
  'GET /api/session/:id': {
    prepare: (w) => ownerSession(w),
    path: (w) => `/api/session/${w.prepared.session}`,
    effect: async ({ w, res, allowed }) => {
      if (allowed) expect(resultOf<{ id: number; logs: unknown[] }>(res)).toMatchObject({ id: Number(w.prepared.session), logs: [{}, {}] });
      expect(res.text).not.toMatch(/user_id|device_id/);
    },
  },
  'GET /api/session/list': {
    prepare: (w) => ownerSession(w),
    effect: async ({ w, res, allowed }) => {
      if (allowed) expect(resultOf<Listed>(res).sessions).toContainEqual(expect.objectContaining({ id: Number(w.prepared.session), user: w.owner.username }));
    },
  },
  'GET /api/session/list/:user': {
    prepare: (w) => ownerSession(w),
    path: (w) => `/api/session/list/${w.owner.username}`,
    effect: async ({ w, res, allowed }) => {
      if (allowed) expect(resultOf<Listed>(res).sessions.map((s) => s.id)).toEqual([Number(w.prepared.session)]);
    },
  },
  'GET /api/session/prev': {
    // Other users and group members own no session below: they never reach the owner's.
    prepare: (w) => ownerSession(w),
    query: (w) => ({ session: String(Number(w.prepared.session) + 1) }),
    effect: async ({ w, res, allowed }) => {
      if (allowed) expect(resultOf<{ id: number }>(res).id).toBe(Number(w.prepared.session));
    },
  },
  'GET /api/session/next': {
    prepare: (w) => ownerSession(w),
    query: (w) => ({ session: String(Number(w.prepared.session) - 1) }),
    effect: async ({ w, res, allowed }) => {
      if (allowed) expect(resultOf<{ id: number }>(res).id).toBe(Number(w.prepared.session));
    },
  },
  'POST /api/session/share': {
    // Only the owner shares; root reads every session but shares none of others.
    prepare: (w) => ownerSession(w),
    body: (w) => ({ session: Number(w.prepared.session) }),
    effect: async ({ w, allowed }) => expect(Number((await sessionRow(w)).shared)).toBe(allowed ? 1 : 0),
  },
  'GET /api/log/prev': {
    prepare: (w) => ownerSession(w),
    query: (w) => ({ session: w.prepared.session!, time: w.prepared.second! }),
    effect: async ({ w, res, allowed }) => {
      if (allowed) expect(resultOf<{ log: { time: number } }>(res).log.time).toBe(Number(w.prepared.first));
    },
  },
  'GET /api/log/next': {
    prepare: (w) => ownerSession(w),
    query: (w) => ({ session: w.prepared.session!, time: w.prepared.first! }),
    effect: async ({ w, res, allowed }) => {
      if (allowed) expect(resultOf<{ log: { time: number } }>(res).log.time).toBe(Number(w.prepared.second));
    },
  },
  'GET /api/log/list': {
    prepare: (w) => ownerSession(w),
    query: (w) => ({ session: w.prepared.session! }),
    effect: async ({ res, allowed }) => {
      if (allowed) expect(resultOf<{ logs: unknown[] }>(res).logs).toHaveLength(2);
    },
  },
  'GET /api/log/search': {
    // Everybody searches their own logs only: the owner's turn up for the owner alone.
    prepare: (w) => ownerSession(w),
    query: (w) => ({ text: `needle-${w.owner.username}-end` }),
    effect: async ({ res, allowed, actor }) => {
      if (allowed) expect(resultOf<{ logs: unknown[] }>(res).logs).toHaveLength(actor === 'owner' ? 2 : 0);
    },
  },
  'GET /api/generate_sse': generationCase({ query: (w) => ({ session: w.prepared.session!, user_input: 'hello' }) }),
  'POST /api/generate_sse': generationCase(),
  'POST /api/generate': generationCase(),
  'POST /api/generate_msg': {
    prepare: (w) => ownerSession(w),
    body: (w) => ({ session: Number(w.prepared.session), user_input: 'hello' }),
    // The owner continues the session and root reads it into a branch; anybody else is given a
    // new session of their own that remembers nothing of it.
    effect: async ({ w, actor, res }) => {
      const reads = actor === 'owner' || actor === 'root';
      if (reads) expect(res.text).toContain(ownerTurn(w));
      else expect(res.text).not.toContain(ownerTurn(w));
      const session = resultOf<{ msg: { session: number } }>(res).msg.session;
      expect(session === Number(w.prepared.session)).toBe(actor === 'owner');
      expect(await turnsIn(w)).toBe(2);
    },
  },
  'POST /api/log/add': {
    // Anonymous visitors, other users, members and root cannot write into the owner's session.
    prepare: (w) => ownerSession(w),
    body: (w) => ({ input: 'injected', output: 'injected', model: 'm', session: Number(w.prepared.session) }),
    effect: async ({ w, allowed }) => expect(await turnsIn(w)).toBe(allowed ? 3 : 2),
  },
};
