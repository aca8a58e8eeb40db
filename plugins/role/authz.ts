// The authorization matrix of the role plugin (tests/security/authzSupport.ts): the owner's role,
// with a prompt nobody else may read; changes apply to the caller's own roles only.
import { expect } from 'vitest';
import { nextSeq, resultOf, t, type Cases, type Matrix, type World } from '../../tests/security/authzSupport.ts';

// prettier-ignore
export const matrix: Matrix = {
  //                                           scope      anonymous owner other member root
  // Roles (plugins/role): the owner has a role; changes apply to the caller's own roles only.
  'GET /api/role/list':                        ['public', 200,      200,  200,  200,   200],
  'GET /api/role/:name':                       ['owner',  404,      200,  404,  404,   404],
  'POST /api/role/add':                        ['self',   401,      200,  200,  200,   200],
  'POST /api/role/update':                     ['owner',  401,      200,  404,  404,   404],
  'POST /api/role/delete':                     ['owner',  401,      200,  404,  404,   404],
};

/** Role rows (plugins/role): the owner's role, with a prompt nobody else may read. */
const ROLE_PROMPT = 'owner-role-secret-prompt';
type RoleRow = { id: number; user_id: number; name: string; prompt: string };
const rolesDb = () => t.server.db.db as unknown as import('kysely').Kysely<{ roles: RoleRow & { created_at: number; updated_at: number } }>;
async function seedRoles(w: World): Promise<Record<string, string>> {
  const now = Date.now();
  await rolesDb().insertInto('roles').values({ user_id: w.owner.id, name: 'owner-role', prompt: ROLE_PROMPT, created_at: now, updated_at: now } as never).execute();
  return {};
}
const rolesOf = (userId: number) => rolesDb().selectFrom('roles').selectAll().where('user_id', '=', userId).execute();

export const cases: Cases = {
  'GET /api/role/list': {
    prepare: seedRoles,
    effect: async ({ actor, res }) => {
      const lists = resultOf<Record<string, { name: string; prompt: string }[]>>(res);
      expect(lists.user_roles!.map((r) => r.name)).toEqual(actor === 'owner' ? ['owner-role'] : []);
      if (actor !== 'owner') expect(res.text).not.toContain(ROLE_PROMPT);
      expect(lists.system_roles!.length).toBeGreaterThanOrEqual(30);
    },
  },
  'GET /api/role/:name': {
    prepare: seedRoles,
    path: () => '/api/role/owner-role',
    effect: async ({ res, allowed }) => {
      if (allowed) expect(resultOf<{ prompt: string }>(res).prompt).toBe(ROLE_PROMPT);
      else expect(res.text).not.toContain(ROLE_PROMPT);
    },
  },
  'POST /api/role/add': {
    prepare: seedRoles,
    body: () => ({ roleName: `added-role${nextSeq()}`, prompt: 'added prompt' }),
    effect: async ({ w, me, allowed, actor, body }) => {
      const name = (body as { roleName: string }).roleName;
      if (me) expect((await rolesOf(me.id)).some((r) => r.name === name)).toBe(allowed);
      if (actor !== 'owner') expect((await rolesOf(w.owner.id)).map((r) => r.name)).toEqual(['owner-role']);
    },
  },
  'POST /api/role/update': {
    // Own roles only: naming the owner changes nothing for anyone else.
    prepare: seedRoles,
    body: (w) => ({ roleName: 'owner-role', prompt: 'changed', username: w.owner.username }),
    effect: async ({ w, me, allowed, actor }) => {
      expect((await rolesOf(w.owner.id))[0]!.prompt).toBe(allowed && actor === 'owner' ? 'changed' : ROLE_PROMPT);
      if (me && me !== w.owner) expect((await rolesOf(me.id)).filter((r) => r.name === 'owner-role')).toEqual([]);
    },
  },
  'POST /api/role/delete': {
    prepare: seedRoles,
    body: (w) => ({ roleName: 'owner-role', username: w.owner.username }),
    effect: async ({ w, allowed }) => expect((await rolesOf(w.owner.id)).length).toBe(allowed ? 0 : 1),
  },
};
