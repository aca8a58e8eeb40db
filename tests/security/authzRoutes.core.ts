// The authorization matrix, the server's own routes besides generation and uploads: the ping
// and the system info, which are public and show no secret (see authzSupport.ts).
import { expect } from 'vitest';
import { ROOT_PASSWORD, SECRET_KEY, type Cases, type Matrix } from './authzSupport.ts';

// prettier-ignore
export const CORE_MATRIX: Matrix = {
  //                                           scope      anonymous owner other member root
  'GET /api/ping':                             ['public', 200,      200,  200,  200,   200],
  'GET /api/system/info':                      ['public', 200,      200,  200,  200,   200],
};

export const CORE_CASES: Cases = {
  'GET /api/ping': {},
  'GET /api/system/info': {
    effect: async ({ res }) => {
      expect(res.text).not.toContain(ROOT_PASSWORD);
      expect(res.text).not.toContain(SECRET_KEY);
    },
  },
};
