// The authorization matrix of the audit plugin (tests/security/authzSupport.ts): the trail holds
// what was done to every account, so root alone reads it; nobody else sees a row, even one
// about themselves.
import { expect } from 'vitest';
import { resultOf, t, type Cases, type Matrix, type World } from '../../tests/security/authzSupport.ts';
import type { AuditRow } from './common/limits.ts';
import type { AuditDb } from './server/table.ts';

// prettier-ignore
export const matrix: Matrix = {
  //                                           scope      anonymous owner other member root
  'GET /api/audit':                            ['owner',  401,      403,  403,  403,   200],
};

/** A row about the owner, written as the listener writes it. */
async function ownerRow(w: World): Promise<Record<string, string>> {
  const marker = `audit-marker-${w.owner.username}`;
  await (t.server.db.db as unknown as AuditDb)
    .insertInto('audit_log')
    .values({ at: Date.now(), kind: 'user.role', target: `user:${w.owner.username}`, actor_id: null, actor: 'root', address: '127.0.0.1', before_value: JSON.stringify({ role: 'user' }), after_value: JSON.stringify({ note: marker }) })
    .execute();
  return { marker };
}

export const cases: Cases = {
  'GET /api/audit': {
    prepare: ownerRow,
    query: (w) => ({ user: w.owner.username }),
    effect: async ({ w, res, allowed }) => {
      if (allowed) expect(resultOf<{ entries: AuditRow[] }>(res).entries.map((e) => e.after)).toEqual([{ note: w.prepared.marker }]);
      else expect(res.text).not.toContain(w.prepared.marker!);
    },
  },
};
