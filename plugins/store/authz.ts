// The authorization matrix of the store plugin (tests/security/authzSupport.ts): the owner's file
// store with one indexed file, which the member sees as a group store; no answer shows its password.
import { expect } from 'vitest';
import { nextSeq, resultOf, seedModels, t, type Cases, type Matrix, type World } from '../../tests/security/authzSupport.ts';

// prettier-ignore
export const matrix: Matrix = {
  //                                           scope      anonymous owner other member root
  // Stores (plugins/store): the owner has a file store with one file; the member sees it as a group store.
  'GET /api/store/list':                       ['self',   401,      200,  200,  200,   200],
  'GET /api/store/:name':                      ['owner',  401,      200,  404,  200,   404],
  'POST /api/store/add':                       ['self',   401,      200,  200,  200,   200],
  'POST /api/store/init':                      ['owner',  401,      200,  404,  404,   404],
  'POST /api/store/file-upload':               ['owner',  401,      200,  404,  404,   404],
  'POST /api/store/data-reset':                ['owner',  401,      200,  404,  404,   404],
  'POST /api/store/delete':                    ['owner',  401,      200,  404,  404,   404],
  'POST /api/store/search':                    ['owner',  401,      200,  404,  200,   404],
  'POST /api/store/update/:name/owner':        ['owner',  401,      200,  404,  404,   404],
  'POST /api/store/update/:name/settings':     ['owner',  401,      200,  404,  404,   404],
};

/** Store rows: the owner's file store with one indexed file (plugins/store). */
const STORE_PASSWORD = 'store-password-never-shown';
type StoreTestDb = import('kysely').Kysely<{
  stores: { id: number; name: string; engine: string; owner_id: number; settings: string; created_at: number; updated_at: number };
  store_files: { id: number; store_id: number; name: string; bytes: number; chunks: number; created_at: number };
  store_chunks: { id: number; store_id: number; file_id: number; seq: number; tag: string; body: string };
}>;
const storeDb = () => t.server.db.db as unknown as StoreTestDb;
async function seedStore(w: World): Promise<Record<string, string>> {
  const now = Date.now();
  const settings = JSON.stringify({ description: 'original', password: t.server.models.sealKey(STORE_PASSWORD) });
  const store = Number((await storeDb().insertInto('stores').values({ name: 'owner-store', engine: 'file', owner_id: w.owner.id, settings, created_at: now, updated_at: now } as never).executeTakeFirstOrThrow()).insertId);
  const file = Number((await storeDb().insertInto('store_files').values({ store_id: store, name: 'notes.txt', bytes: 20, chunks: 1, created_at: now } as never).executeTakeFirstOrThrow()).insertId);
  await storeDb().insertInto('store_chunks').values({ store_id: store, file_id: file, seq: 0, tag: `s${store}`, body: 'a needle in the owner store' } as never).execute();
  return { ...(await seedModels(w)), store: String(store) };
}
const storesOf = (ownerId: number) => storeDb().selectFrom('stores').selectAll().where('owner_id', '=', ownerId).execute();
const filesOf = async (storeId: number) => (await storeDb().selectFrom('store_files').select('id').where('store_id', '=', storeId).execute()).length;

export const cases: Cases = {
  'GET /api/store/list': {
    prepare: seedStore,
    effect: async ({ actor, res, allowed }) => {
      if (!allowed) return;
      const lists = resultOf<Record<string, { name: string }[]>>(res);
      expect(lists.user_stores!.map((x) => x.name).filter((n) => n === 'owner-store')).toEqual(actor === 'owner' ? ['owner-store'] : []);
      expect(lists.group_stores!.map((x) => x.name)).toEqual(actor === 'member' ? ['owner-store'] : []);
    },
  },
  'GET /api/store/:name': {
    prepare: seedStore,
    path: () => '/api/store/owner-store',
    effect: async ({ res, allowed, actor }) => {
      if (allowed) expect(resultOf<{ scope: string }>(res).scope).toBe(actor === 'owner' ? 'user' : 'group');
      expect(res.text).not.toContain(STORE_PASSWORD);
    },
  },
  'POST /api/store/add': {
    prepare: seedStore,
    body: () => ({ name: `added${nextSeq()}`, engine: 'file' }),
    effect: async ({ w, me, allowed, body }) => {
      const name = (body as { name: string }).name;
      if (me) expect((await storesOf(me.id)).some((x) => x.name === name)).toBe(allowed);
      expect((await storesOf(w.owner.id)).filter((x) => x.name === name)).toEqual(me === w.owner ? [expect.anything()] : []);
    },
  },
  'POST /api/store/init': {
    prepare: seedStore,
    body: () => ({ name: 'owner-store' }),
  },
  'POST /api/store/file-upload': {
    prepare: seedStore,
    body: () => ({ name: 'owner-store', texts: [{ name: 'added.txt', content: 'an added file' }] }),
    effect: async ({ w, allowed }) => expect(await filesOf(Number(w.prepared.store))).toBe(allowed ? 2 : 1),
  },
  'POST /api/store/data-reset': {
    prepare: seedStore,
    body: () => ({ name: 'owner-store' }),
    effect: async ({ w, allowed }) => expect(await filesOf(Number(w.prepared.store))).toBe(allowed ? 0 : 1),
  },
  'POST /api/store/delete': {
    prepare: seedStore,
    body: () => ({ name: 'owner-store' }),
    effect: async ({ w, allowed }) => expect((await storesOf(w.owner.id)).length).toBe(allowed ? 0 : 1),
  },
  'POST /api/store/search': {
    prepare: seedStore,
    body: () => ({ search: 'needle', store: 'owner-store' }),
    effect: async ({ res, allowed }) => {
      if (allowed) expect(resultOf<{ hits: { source: string }[] }>(res).hits.map((h) => h.source)).toEqual(['notes.txt']);
      else expect(res.text).not.toContain('needle');
    },
  },
  'POST /api/store/update/:name/owner': {
    prepare: seedStore,
    path: () => '/api/store/update/owner-store/owner',
    // To the member, who shares the owner's group (whom a store may go to: authz.handOver.test.ts).
    body: (w) => ({ owner: w.member.username }),
    effect: async ({ w, allowed }) => {
      expect((await storesOf(w.owner.id)).length).toBe(allowed ? 0 : 1);
      expect((await storesOf(w.member.id)).length).toBe(allowed ? 1 : 0);
    },
  },
  'POST /api/store/update/:name/settings': {
    prepare: seedStore,
    path: () => '/api/store/update/owner-store/settings',
    body: () => ({ key: 'description', value: 'changed' }),
    effect: async ({ w, allowed }) => expect(JSON.parse((await storesOf(w.owner.id))[0]!.settings).description).toBe(allowed ? 'changed' : 'original'),
  },
};
