// The authorization matrix, generation: each cell works on an unshared session of the owner with
// two logs; that nobody else's turns appear in or land in it (see authzSupport.ts).
import { expect } from 'vitest';
import { ownerSession, resultOf, t, type Case, type Cases, type Matrix, type World } from './authzSupport.ts';

// prettier-ignore
export const GENERATION_MATRIX: Matrix = {
  //                                           scope      anonymous owner other member root
  // Generation: no model is configured here, so a turn ends in 'No available model found.';
  // what matters is whose session a request may read or write (the owner's unshared one).
  'GET /api/generate_sse':                     ['owner',  200,      200,  200,  200,   200],
  'POST /api/generate_sse':                    ['owner',  200,      200,  200,  200,   200],
  'POST /api/generate':                        ['owner',  400,      400,  400,  400,   400],
  'POST /api/generate_msg':                    ['owner',  200,      200,  200,  200,   200],
  'POST /api/log/add':                         ['owner',  403,      200,  403,  403,   403],
};

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

export const GENERATION_CASES: Cases = {
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
