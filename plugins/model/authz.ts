// The authorization matrix of the model plugin (tests/security/authzSupport.ts): the owner's
// model, with a key no answer shows unmasked, and the owner's group's; changes apply to the
// caller's own models only.
import { expect } from 'vitest';
import { MODEL_KEY, modelsOf, nextSeq, resultOf, seedModels, t, type Cases, type Matrix } from '../../tests/security/authzSupport.ts';

// prettier-ignore
export const matrix: Matrix = {
  //                                           scope      anonymous owner other member root
  // Models (plugins/model): the owner has a model with a key, the owner's group a model.
  'GET /api/model/list':                       ['public', 200,      200,  200,  200,   200],
  'GET /api/model/:name':                      ['owner',  404,      200,  404,  404,   404],
  'POST /api/model/add':                       ['self',   401,      200,  200,  200,   200],
  'POST /api/model/update':                    ['owner',  401,      200,  404,  404,   404],
  'POST /api/model/delete':                    ['owner',  401,      200,  404,  404,   404],
};

export const cases: Cases = {
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
};
