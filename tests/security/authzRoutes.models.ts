// The authorization matrix, models and roles area (plugins/model, plugins/role): the owner's
// model (with a key, which no answer shows unmasked) and role (with a prompt nobody else may
// read); changes apply to the caller's own rows only (see authzSupport.ts).
import { expect } from 'vitest';
import { MODEL_KEY, modelsOf, nextSeq, resultOf, seedModels, t, type Cases, type Matrix, type World } from './authzSupport.ts';

// prettier-ignore
export const MODEL_MATRIX: Matrix = {
  //                                           scope      anonymous owner other member root
  // Models (plugins/model): the owner has a model with a key, the owner's group a model.
  'GET /api/model/list':                       ['public', 200,      200,  200,  200,   200],
  'GET /api/model/:name':                      ['owner',  404,      200,  404,  404,   404],
  'POST /api/model/add':                       ['self',   401,      200,  200,  200,   200],
  'POST /api/model/update':                    ['owner',  401,      200,  404,  404,   404],
  'POST /api/model/delete':                    ['owner',  401,      200,  404,  404,   404],
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

export const MODEL_CASES: Cases = {
  'GET /api/model/list': {
    prepare: seedModels,
    effect: async ({ actor, res }) => {
      const lists = resultOf<Record<string, { name: string; api_key?: string }[]>>(res);
      expect(res.text).not.toContain(MODEL_KEY);
      expect(lists.user_models!.map((m) => m.name)).toEqual(actor === 'owner' ? ['owner-model'] : []);
      if (actor === 'owner') expect(lists.user_models![0]!.api_key).toMatch(/^sk-\*+89$/);
      expect(lists.group_models!.map((m) => m.name)).toEqual(actor === 'owner' || actor === 'member' ? ['group-model'] : []);
      // The group's owner manages its models and sees their keys masked; members only use them.
      for (const m of lists.group_models!) {
        if (actor === 'owner') expect(m.api_key).toMatch(/^sk-\*+89$/);
        else expect(m).not.toHaveProperty('api_key');
      }
    },
  },
  'GET /api/model/:name': {
    prepare: seedModels,
    path: () => '/api/model/owner-model',
    effect: async ({ res, allowed }) => {
      expect(res.text).not.toContain(MODEL_KEY);
      if (allowed) expect(resultOf<{ api_key: string }>(res).api_key).toMatch(/^sk-\*+89$/);
    },
  },
  'POST /api/model/add': {
    prepare: seedModels,
    body: () => ({ name: `added${nextSeq()}`, base_url: 'https://8.8.8.8/v1', api_key: MODEL_KEY }),
    effect: async ({ w, me, allowed, actor, body, res }) => {
      const name = (body as { name: string }).name;
      expect(res.text).not.toContain(MODEL_KEY);
      if (me) expect((await modelsOf(me.id)).some((m) => m.name === name)).toBe(allowed);
      if (actor !== 'owner') expect((await modelsOf(w.owner.id)).map((m) => m.name)).toEqual(['owner-model']);
    },
  },
  'POST /api/model/update': {
    // Own models only: naming the owner changes nothing for anyone else.
    prepare: seedModels,
    body: (w) => ({ name: 'owner-model', key: 'model', value: 'changed', username: w.owner.username }),
    effect: async ({ w, me, allowed, actor }) => {
      expect((await modelsOf(w.owner.id))[0]!.model).toBe(allowed && actor === 'owner' ? 'changed' : 'owner-model');
      // Root is shared by every world (and added models in the add row): look for this name only.
      if (me && me !== w.owner) expect((await modelsOf(me.id)).filter((m) => m.name === 'owner-model')).toEqual([]);
    },
  },
  'POST /api/model/delete': {
    prepare: seedModels,
    body: (w) => ({ name: 'owner-model', username: w.owner.username }),
    effect: async ({ w, allowed }) => {
      expect((await modelsOf(w.owner.id)).length).toBe(allowed ? 0 : 1);
      expect((await modelsOf(Number(w.prepared.group), 'group')).length).toBe(1);
    },
  },
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
