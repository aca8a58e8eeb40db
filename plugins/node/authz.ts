// The authorization matrix, nodes area (plugins/node): the owner's node, with a key no answer
// shows unmasked, pointing at a private address the egress policy refuses, and the owner's
// group's node; only the owner lists, changes, hands over or calls theirs (see authzSupport.ts).
import type { Generated, Kysely } from 'kysely';
import { expect } from 'vitest';
import { call, nextSeq, resultOf, t, type Cases, type Matrix, type World } from '../../tests/security/authzSupport.ts';

// prettier-ignore
export const matrix: Matrix = {
  //                                           scope      anonymous owner other member root
  // Nodes (plugins/node): the owner has a node with a key (pointing at a private address the
  // egress policy refuses), the owner's group a node.
  'GET /api/node/list':                        ['self',   401,      200,  200,  200,   200],
  'GET /api/node/:name':                       ['owner',  401,      200,  404,  404,   404],
  'POST /api/node/add':                        ['self',   401,      200,  200,  200,   200],
  'POST /api/node/delete':                     ['owner',  401,      200,  404,  404,   404],
  'POST /api/node/generate':                   ['owner',  401,      502,  404,  404,   404],
  'POST /api/node/update/:name/owner':         ['owner',  401,      200,  404,  404,   404],
  'POST /api/node/update/:name/settings':      ['owner',  401,      200,  404,  404,   404],
};

/** Node rows: the owner's node (with a sealed key) and the owner's group's node. */
const NODE_KEY = 'sk-owner-node-key-0123456789';
interface NodeRow {
  id: number;
  name: string;
  owner: string;
  owner_id: number;
  settings: string;
  created_by: number;
  created_at: number;
  updated_at: number;
}
const nodesDb = () => t.server.db.db as unknown as Kysely<{ nodes: Omit<NodeRow, 'id'> & { id: Generated<number> } }>;
const nodesOf = (ownerId: number, owner = 'user') => nodesDb().selectFrom('nodes').selectAll().where('owner', '=', owner).where('owner_id', '=', ownerId).execute();
async function seedNodes(w: World): Promise<Record<string, string>> {
  await call('POST', '/api/node/add', w.owner.token, { body: { name: 'owner-node' } });
  await call('POST', '/api/node/update/owner-node/settings', w.owner.token, { body: { key: 'api_key', value: NODE_KEY } });
  const [row] = await nodesOf(w.owner.id);
  // Written straight to the row: the settings route refuses private addresses here.
  const settings = { ...(JSON.parse(row!.settings) as object), base_url: 'http://127.0.0.1:9' };
  await nodesDb().updateTable('nodes').set({ settings: JSON.stringify(settings) }).where('id', '=', row!.id).execute();
  const group = await t.server.db.db.selectFrom('groups').select('id').where('name', '=', w.owner.username).executeTakeFirstOrThrow();
  const now = Date.now();
  await nodesDb()
    .insertInto('nodes')
    .values({ name: 'group-node', owner: 'group', owner_id: group.id, settings: JSON.stringify({ kind: 'http', base_url: '' }), created_by: w.owner.id, created_at: now, updated_at: now })
    .execute();
  return { group: String(group.id) };
}

export const cases: Cases = {
  'GET /api/node/list': {
    prepare: seedNodes,
    effect: async ({ actor, res, allowed }) => {
      expect(res.text).not.toContain(NODE_KEY);
      if (!allowed) return;
      const lists = resultOf<Record<string, { name: string; settings: { api_key?: string } }[]>>(res);
      expect(lists.user_nodes!.map((n) => n.name)).toEqual(actor === 'owner' ? ['owner-node'] : []);
      if (actor === 'owner') expect(lists.user_nodes![0]!.settings.api_key).toMatch(/^sk-\*+89$/);
      expect(lists.group_nodes!.map((n) => n.name)).toEqual(actor === 'owner' || actor === 'member' ? ['group-node'] : []);
      if (actor === 'member') expect(lists.group_nodes![0]!.settings).not.toHaveProperty('api_key');
    },
  },
  'GET /api/node/:name': {
    prepare: seedNodes,
    path: () => '/api/node/owner-node',
    effect: async ({ res, allowed }) => {
      expect(res.text).not.toContain(NODE_KEY);
      if (allowed) expect(resultOf<{ settings: { api_key: string } }>(res).settings.api_key).toMatch(/^sk-\*+89$/);
    },
  },
  'POST /api/node/add': {
    prepare: seedNodes,
    body: () => ({ name: `added${nextSeq()}` }),
    effect: async ({ w, me, allowed, actor, body }) => {
      const name = (body as { name: string }).name;
      if (me) expect((await nodesOf(me.id)).some((n) => n.name === name)).toBe(allowed);
      if (actor !== 'owner') expect((await nodesOf(w.owner.id)).map((n) => n.name)).toEqual(['owner-node']);
    },
  },
  'POST /api/node/delete': {
    prepare: seedNodes,
    body: (w) => ({ name: 'owner-node', username: w.owner.username }),
    effect: async ({ w, allowed }) => {
      expect((await nodesOf(w.owner.id)).length).toBe(allowed ? 0 : 1);
      expect((await nodesOf(Number(w.prepared.group), 'group')).length).toBe(1);
    },
  },
  'POST /api/node/generate': {
    // The owner reaches the call, which the egress policy refuses (a private address).
    prepare: seedNodes,
    body: () => ({ input: 'hello', node: 'owner-node' }),
    effect: async ({ actor, res }) => {
      expect(res.text).not.toContain(NODE_KEY);
      if (actor === 'owner') expect(String(res.json?.error)).toMatch(/^The node did not answer: /);
    },
  },
  'POST /api/node/update/:name/owner': {
    prepare: seedNodes,
    path: () => '/api/node/update/owner-node/owner',
    // To the member, who shares the owner's group (whom a node may go to: authz.handOver.test.ts).
    body: (w) => ({ owner: w.member.username }),
    effect: async ({ w, allowed }) => {
      expect((await nodesOf(w.owner.id)).length).toBe(allowed ? 0 : 1);
      expect((await nodesOf(w.member.id)).map((n) => n.name)).toEqual(allowed ? ['owner-node'] : []);
    },
  },
  'POST /api/node/update/:name/settings': {
    prepare: seedNodes,
    path: () => '/api/node/update/owner-node/settings',
    body: () => ({ key: 'description', value: 'changed' }),
    effect: async ({ w, allowed }) => {
      const [row] = await nodesOf(w.owner.id);
      expect((JSON.parse(row!.settings) as { description: string }).description).toBe(allowed ? 'changed' : '');
    },
  },
};
