// The authorization matrix of the search plugin (tests/security/authzSupport.ts): each cell works
// on an unshared session of the owner with two logs. Everybody, root too, finds and opens only
// their own logs; visitors search nothing (spec part 6: search needs a login).
import { expect } from 'vitest';
import { ownerSession, resultOf, type Cases, type Matrix } from '../../tests/security/authzSupport.ts';

// prettier-ignore
export const matrix: Matrix = {
  //                                           scope      anonymous owner other member root
  'GET /api/log/search':                       ['self',   401,      200,  200,  200,   200],
  'GET /api/log/search/open':                  ['owner',  401,      200,  404,  404,   404],
};

export const cases: Cases = {
  'GET /api/log/search': {
    // The owner's two logs turn up for the owner alone.
    prepare: (w) => ownerSession(w),
    query: (w) => ({ text: `needle-${w.owner.username}-end` }),
    effect: async ({ res, allowed, actor }) => {
      if (allowed) expect(resultOf<{ logs: unknown[] }>(res).logs).toHaveLength(actor === 'owner' ? 2 : 0);
    },
  },
  'GET /api/log/search/open': {
    prepare: (w) => ownerSession(w),
    query: (w) => ({ session: w.prepared.session!, time: w.prepared.second! }),
    effect: async ({ w, res, allowed }) => {
      if (allowed) expect(resultOf<{ input: string }>(res).input).toBe(`needle-${w.owner.username}-end 1`);
      else expect(res.text).not.toContain('needle');
    },
  },
};
