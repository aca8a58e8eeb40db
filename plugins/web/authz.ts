// The authorization matrix of the web plugin (tests/security/authzSupport.ts): searching and
// reading are open to visitors too (counted per browser under WEB_USAGE_LIMITS' `anonymous`),
// and each person sees only the pages they read. The matrix's server has no search backend
// (503 for everyone) and its page is on loopback, which the egress-safe fetch refuses (502).
import { expect } from 'vitest';
import type { Cases, Matrix } from '../../tests/security/authzSupport.ts';

// prettier-ignore
export const matrix: Matrix = {
  //                                           scope      anonymous owner other member root
  'POST /api/web/search':                      ['public', 503,      503,  503,  503,   503],
  'POST /api/web/open':                        ['public', 502,      502,  502,  502,   502],
  'GET /api/web/reads':                        ['public', 200,      200,  200,  200,   200],
};

export const cases: Cases = {
  'POST /api/web/search': {
    body: () => ({ query: 'rust async traits' }),
    effect: async ({ res }) => expect(res.text).toContain('SEARXNG_URL'),
  },
  'POST /api/web/open': {
    body: () => ({ url: 'http://127.0.0.1:9/secret' }),
    effect: async ({ res }) => expect(res.text).not.toContain('title'),
  },
  'GET /api/web/reads': {
    // Nobody has read anything in a fresh world: the list is everyone's own, and empty.
    effect: async ({ res }) => expect((res.json as { result?: { reads?: unknown[] } })?.result?.reads).toEqual([]),
  },
};
