// The authorization matrix of the session plugin (tests/security/authzSupport.ts): each cell works
// on an unshared session of the owner with two logs; whose session a request may read or share.
import { expect } from 'vitest';
import { ownerSession, resultOf, t, type Cases, type Matrix, type World } from '../../tests/security/authzSupport.ts';

// prettier-ignore
export const matrix: Matrix = {
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
};

const sessionRow = (w: World) => t.server.db.db.selectFrom('sessions').selectAll().where('id', '=', Number(w.prepared.session)).executeTakeFirstOrThrow();
type Listed = { sessions: { id: number; user: string }[] };

export const cases: Cases = {
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
};
