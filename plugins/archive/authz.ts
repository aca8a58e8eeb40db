// The authorization matrix of the archive plugin (tests/security/authzSupport.ts): each cell
// works on an unshared session of the owner with two logs. Export gives one's own only (root
// too is a user here: it exports its own); import writes into the caller's account alone.
import { expect } from 'vitest';
import { ownerSession, t, type AuthzServer, type Cases, type Matrix, type World } from '../../tests/security/authzSupport.ts';
import { simple } from './fixtures/exports.ts';

// prettier-ignore
export const matrix: Matrix = {
  //                                           scope      anonymous owner other member root
  'GET /api/archive/export':                   ['owner',  401,      200,  404,  404,   404],
  'POST /api/archive/import':                  ['self',   401,      200,  200,  200,   200],
};

/**
 * A row's cells run side by side: four signed-in imports at once, past the default
 * IMPORT_MAX_RUNNING of 2 an instance (the cap itself: importCap.server.test.ts).
 */
export const server: AuthzServer = {
  start: async () => ({ IMPORT_MAX_RUNNING: '8' }),
  stop: async () => {},
};

const sessionsOf = async (userId: number) =>
  (await t.server.db.db.selectFrom('sessions').select('id').where('user_id', '=', userId).execute()).map((s) => Number(s.id));

export const cases: Cases = {
  'GET /api/archive/export': {
    prepare: (w) => ownerSession(w),
    query: (w) => ({ session: w.prepared.session!, format: 'json' }),
    effect: async ({ w, res, allowed }) => {
      // The owner's logs reach the owner alone.
      expect(res.text.includes(`needle-${w.owner.username}-end`)).toBe(allowed);
    },
  },
  'POST /api/archive/import': {
    prepare: async (w: World) => ({ ...(await ownerSession(w)), n: String(Math.floor(Math.random() * 1e9)) }),
    body: (w) => [simple(Number(w.prepared.n))],
    effect: async ({ w, me, allowed }) => {
      // The conversation is the caller's: the owner's sessions change only when the owner imports.
      const owners = await sessionsOf(w.owner.id);
      expect(owners.length).toBe(me?.id === w.owner.id && allowed ? 2 : 1);
      if (allowed && me) expect((await sessionsOf(me.id)).length).toBeGreaterThanOrEqual(1);
    },
  },
};
