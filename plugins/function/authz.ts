// The authorization matrix of the function plugin (tests/security/authzSupport.ts): direct
// function calls need a login.
import { expect } from 'vitest';
import type { Cases, Matrix } from '../../tests/security/authzSupport.ts';

// prettier-ignore
export const matrix: Matrix = {
  //                                           scope      anonymous owner other member root
  // Functions (plugins/function): direct calls need a login (the original's route was open).
  'POST /api/function/exec':                   ['self',   401,      200,  200,  200,   200],
};

export const cases: Cases = {
  'POST /api/function/exec': {
    body: () => ({ functions: ['get_time({"timezone":"UTC"})'] }),
    effect: async ({ res, allowed }) => {
      const results = (res.json as { function_results?: { success: boolean; message?: string }[] } | undefined)?.function_results;
      if (allowed) expect(results).toEqual([expect.objectContaining({ success: true, message: expect.stringContaining('UTC') })]);
      else expect(results).toBeUndefined();
    },
  },
};
