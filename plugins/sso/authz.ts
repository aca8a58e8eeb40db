// The authorization matrix of the sso plugin (tests/security/authzSupport.ts), on a server with no
// identity provider: what anyone may ask (the providers, a start, the callback, the outcome),
// one's own linked identities, and root's claims of the last sign-ons. The flow itself, with
// providers, is plugins/sso/*.server.test.ts.
import { expect } from 'vitest';
import { resultOf, type Cases, type Matrix } from '../../tests/security/authzSupport.ts';

// prettier-ignore
export const matrix: Matrix = {
  //                                 scope     anonymous owner other member root
  'GET /api/sso/providers':          ['public', 200,     200,  200,  200,   200],
  'GET /api/sso/start':              ['public', 404,     404,  404,  404,   404],
  'POST /api/sso/device':            ['public', 404,     404,  404,  404,   404],
  'POST /api/sso/device/poll':       ['public', 404,     404,  404,  404,   404],
  'GET /api/sso/callback':           ['public', 302,     302,  302,  302,   302],
  'GET /api/sso/outcome':            ['public', 404,     404,  404,  404,   404],
  'GET /api/sso/identity':           ['self',   401,     200,  200,  200,   200],
  'GET /api/sso/test':               ['self',   401,     403,  403,  403,   200],
};

export const cases: Cases = {
  'GET /api/sso/providers': {
    effect: async ({ res }) => expect(resultOf<{ providers: unknown[] }>(res).providers).toEqual([]),
  },
  'GET /api/sso/start': {
    effect: async ({ res }) => expect(res.json?.error).toContain('No identity provider is configured'),
  },
  'POST /api/sso/device': {
    body: () => ({}),
    effect: async ({ res }) => expect(res.json?.error).toContain('No identity provider is configured'),
  },
  'POST /api/sso/device/poll': {
    body: () => ({ handle: 'forged' }),
    effect: async ({ res }) => expect(res.json?.error).toBe('This sign-on from the terminal is unknown or already finished. Start again with :login sso.'),
  },
  'GET /api/sso/callback': {
    query: () => ({ state: 'forged', code: 'forged' }),
    // Home, with no login: the forged state is refused.
    effect: async ({ res }) => {
      expect(res.headers.get('location')).toMatch(/\/\?sso=done$/);
      expect(res.headers.getSetCookie().some((c) => c.startsWith('auth='))).toBe(false);
    },
  },
  'GET /api/sso/outcome': {
    effect: async ({ res }) => expect(res.json?.error).toBe('No sign-on came back to this browser.'),
  },
  'GET /api/sso/identity': {
    effect: async ({ res, allowed }) => {
      if (allowed) expect(resultOf<{ identities: unknown[] }>(res).identities).toEqual([]);
    },
  },
  'GET /api/sso/test': {
    effect: async ({ res, allowed }) => {
      if (allowed) expect(resultOf<{ logins: unknown[] }>(res).logins).toEqual([]);
    },
  },
};
