// The authorization matrix of the key plugin (tests/security/authzSupport.ts), with the login
// actors: each cell's owner has a key. Keys are one's own; root lists every key's owner, never a
// key; a login (a cookie) is not a key, so the OpenAI-compatible API refuses every actor here.
// The key actors (own, another's, revoked, expired, out of scope) are keyActors.server.test.ts's.
import { expect } from 'vitest';
import { nextSeq, resultOf, t, type Cases, type Matrix, type World } from '../../tests/security/authzSupport.ts';
import { sha256 } from './server/keys.ts';
import type { KeysDb } from './server/table.ts';

// prettier-ignore
export const matrix: Matrix = {
  //                                           scope      anonymous owner other member root
  'GET /api/key/list':                         ['self',   401,      200,  200,  200,   200],
  'POST /api/key/add':                         ['self',   401,      200,  200,  200,   200],
  'POST /api/key/delete':                      ['owner',  401,      200,  404,  404,   404],
  'GET /v1/models':                            ['self',   401,      401,  401,  401,   401],
  'POST /v1/chat/completions':                 ['self',   401,      401,  401,  401,   401],
};

const keys = () => t.server.db.db as unknown as KeysDb;
const SECRET = 'sk-sc-authzOwnerKey000000000000000000000000000';

/** The owner's key 'owner-key' (its secret never appears in an answer). */
async function ownerKey(w: World): Promise<Record<string, string>> {
  const secret = `${SECRET.slice(0, 12)}${nextSeq()}${SECRET.slice(20)}`;
  const hash = await sha256(secret);
  await keys()
    .insertInto('api_keys')
    .values({ user_id: w.owner.id, name: 'owner-key', prefix: secret.slice(0, 12), hash, role: '', stores: '', model: '', expires_at: null, no_log: 0, session: Date.now() + nextSeq(), created_at: Date.now(), last_used_at: null, revoked: 0 })
    .execute();
  return { secret };
}
const liveKeysOf = (userId: number) => keys().selectFrom('api_keys').select('name').where('user_id', '=', userId).where('revoked', '=', 0).execute();

export const cases: Cases = {
  'GET /api/key/list': {
    prepare: ownerKey,
    effect: async ({ w, actor, res, allowed }) => {
      expect(res.text).not.toContain(w.prepared.secret!);
      expect(res.text).not.toMatch(/"hash"/);
      if (!allowed) return;
      const listed = resultOf<{ keys: { name: string; owner?: string }[] }>(res).keys;
      if (actor === 'owner') expect(listed.map((k) => k.name)).toEqual(['owner-key']);
      else if (actor === 'root') expect(listed).toContainEqual(expect.objectContaining({ name: 'owner-key', owner: w.owner.username }));
      else expect(listed).toEqual([]);
    },
  },
  'POST /api/key/add': {
    prepare: ownerKey,
    body: () => ({ name: `added${nextSeq()}` }),
    effect: async ({ w, me, allowed, body, res }) => {
      const name = (body as { name: string }).name;
      if (allowed) expect(resultOf<{ key: string }>(res).key).toMatch(/^sk-sc-/);
      if (me) expect((await liveKeysOf(me.id)).some((k) => k.name === name)).toBe(allowed);
      if (me !== w.owner) expect(await liveKeysOf(w.owner.id)).toEqual([{ name: 'owner-key' }]);
    },
  },
  'POST /api/key/delete': {
    // One's own keys only: naming the owner's key revokes nothing of theirs.
    prepare: ownerKey,
    body: () => ({ name: 'owner-key' }),
    effect: async ({ w, allowed }) => expect(await liveKeysOf(w.owner.id)).toEqual(allowed ? [] : [{ name: 'owner-key' }]),
  },
  'GET /v1/models': {
    prepare: ownerKey,
    effect: async ({ res }) => expect(res.json).toMatchObject({ error: { code: 'invalid_api_key' } }),
  },
  'POST /v1/chat/completions': {
    prepare: ownerKey,
    body: () => ({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
    effect: async ({ res }) => expect(res.json).toMatchObject({ error: { code: 'invalid_api_key' } }),
  },
};
