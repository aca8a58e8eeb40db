// The node API of spec part 7 and the node's place in a chat turn. A node belongs to a user,
// a group or the system (spec part 6); a user sees their own nodes, those of the groups they
// belong to, and the system's. Its API key is sealed at rest and only ever shown masked to
// those who manage it; its base URL is checked against the egress policy when saved, and every
// call to it goes through the egress-safe fetch.
import { Hono, type Context } from 'hono';
import type { Generated, Kysely, Selectable } from 'kysely';
import { z } from 'zod';
import { rankOf, ROLE_RANKS, saidBy, type Message } from '../../../src/core/index.ts';
import type { AppEnv, Database, MigrationFactory, ServerPluginContext, ServerPluginModule, UserRow } from '../../../src/core/index.ts';
import { MAX_USER_NODES, VALUE_MAX } from '../common/limits.ts';
import { MESSAGES } from '../common/messages.ts';
import { checkBaseUrlSyntax, checkNodeName, checkNodeSetting, DEFAULT_NODE_SETTINGS, type NodeLists, type NodeOutput, type NodeScope, type NodeSettings, type PublicNode } from '../common/rules.ts';
import { callNode, NodeError } from './call.ts';

interface NodesTable {
  id: Generated<number>;
  name: string;
  owner: NodeScope;
  owner_id: number;
  settings: string;
  created_by: number;
  created_at: number;
  updated_at: number;
}
type Db = Kysely<Database & { nodes: NodesTable }>;
type NodeRow = Selectable<NodesTable>;
type C = Context<AppEnv>;

export const nodesMigration: MigrationFactory = (engine, c) => ({
  async up(db) {
    await db.schema
      .createTable('nodes')
      .addColumn('id', c.id, (col) => (engine === 'postgres' ? col.primaryKey() : col.primaryKey().autoIncrement()))
      .addColumn('name', c.name, (col) => col.notNull())
      .addColumn('owner', c.name, (col) => col.notNull())
      .addColumn('owner_id', 'integer', (col) => col.notNull())
      .addColumn('settings', c.text, (col) => col.notNull())
      .addColumn('created_by', 'integer', (col) => col.notNull())
      .addColumn('created_at', c.bigint, (col) => col.notNull())
      .addColumn('updated_at', c.bigint, (col) => col.notNull())
      .execute();
    await db.schema.createIndex('nodes_owner').on('nodes').columns(['owner', 'owner_id', 'name']).unique().execute();
  },
  async down(db) {
    await db.schema.dropTable('nodes').ifExists().execute();
  },
});

const nameBody = z.object({ name: z.string().max(256) });
const settingBody = z.object({ key: z.string().max(64), value: z.string().max(VALUE_MAX) });
const ownerBody = z.object({ owner: z.string().max(256) });
const generateBody = z.object({ input: z.string().max(100_000), node: z.string().max(256) });

const SHOW_START = 3;
const SHOW_END = 2;
/** The same mask as the model keys: 'sk-abcdefgh12' → 'sk-********12'; short keys all asterisks. */
function mask(secret: string): string {
  const chars = Array.from(secret);
  if (chars.length < 12) return '*'.repeat(chars.length);
  return chars.slice(0, SHOW_START).join('') + '*'.repeat(chars.length - SHOW_START - SHOW_END) + chars.slice(-SHOW_END).join('');
}

function parseSettings(json: string): NodeSettings {
  try {
    const value = JSON.parse(json) as Partial<NodeSettings> | null;
    return { ...DEFAULT_NODE_SETTINGS, ...(value && typeof value === 'object' ? value : {}) };
  } catch {
    return { ...DEFAULT_NODE_SETTINGS };
  }
}

/** A node the caller can see, with where it comes from. */
interface Visible {
  row: NodeRow;
  ownerName: string;
  manageable: boolean;
}

/** The nodes a request may see and run: the routes and a chat turn share them. */
function nodeBook(ctx: ServerPluginContext) {
  const db = ctx.db as unknown as Db;
  const isRoot = (user: UserRow | null) => !!user && rankOf(user.role) >= ROLE_RANKS.root_user;

  /** Every node the user sees, by scope, in the lookup order user → group → system. */
  async function visible(user: UserRow | null): Promise<{ user: Visible[]; group: Visible[]; system: Visible[] }> {
    const root = isRoot(user);
    const system = (await db.selectFrom('nodes').selectAll().where('owner', '=', 'system').orderBy('name').execute()).map((row) => ({
      row,
      ownerName: 'system',
      manageable: root,
    }));
    if (!user) return { user: [], group: [], system };
    const own = (await db.selectFrom('nodes').selectAll().where('owner', '=', 'user').where('owner_id', '=', user.id).orderBy('name').execute()).map((row) => ({
      row,
      ownerName: user.username,
      manageable: true,
    }));
    const groups = await ctx.accounts.groupsOf(user.id);
    const rows = groups.length
      ? await db
          .selectFrom('nodes')
          .selectAll()
          .where('owner', '=', 'group')
          .where('owner_id', 'in', groups.map((g) => g.id))
          .orderBy('name')
          .execute()
      : [];
    const group = rows.map((row) => {
      const g = groups.find((x) => x.id === row.owner_id)!;
      return { row, ownerName: `group:${g.name}`, manageable: g.owner_id === user.id };
    });
    return { user: own, group, system };
  }

  /** A node by exact name, as the user sees it (user → group → system), or undefined. */
  async function resolve(name: string, user: UserRow | null): Promise<Visible | undefined> {
    const all = await visible(user);
    return [...all.user, ...all.group, ...all.system].find((v) => v.row.name === name);
  }

  /** A node as the API shows it: its key masked, and only to those who manage it. */
  const toPublic = (v: Visible): PublicNode => {
    // Its base URL and key are for those who manage it: a system node's URL is the operator's
    // (often an internal address), a group node's its owner's (issue 34).
    const { api_key, base_url, ...settings } = parseSettings(v.row.settings);
    let shown: string | undefined;
    if (v.manageable) {
      try {
        shown = api_key ? mask(ctx.secrets.open(api_key)) : '';
      } catch {
        shown = '';
      }
    }
    return {
      name: v.row.name,
      owner: v.row.owner,
      owner_name: v.ownerName,
      settings: v.manageable ? { ...settings, base_url, api_key: shown } : settings,
      manageable: v.manageable,
    };
  };

  /** Runs a node on an input. Throws NodeError with the message the user sees. */
  async function run(row: NodeRow, input: string, signal: AbortSignal): Promise<NodeOutput> {
    const settings = parseSettings(row.settings);
    let key = '';
    try {
      key = settings.api_key ? ctx.secrets.open(settings.api_key) : '';
    } catch {
      key = '';
    }
    const out = await callNode(ctx.egressFetch, settings, key, input, signal);
    return { node: row.name, ...out };
  }

  return { db, visible, resolve, toPublic, run };
}

/** Where a base URL points: refused when private or loopback, unless EGRESS_ALLOW_HOSTS allows it. */
async function checkUrl(ctx: ServerPluginContext, url: string): Promise<string | Message | undefined> {
  const problem = checkBaseUrlSyntax(url);
  if (problem) return problem;
  try {
    await ctx.models.checkBaseUrl(url);
    return undefined;
  } catch (err) {
    return err instanceof Error && err.message ? saidBy(err) : MESSAGES.invalidUrl;
  }
}

/** The node API's routes; the commands' client is typed from them (NodeRoutes). */
export function nodeRoutes(ctx: ServerPluginContext) {
  const { validate, requireUser, answer, refuse } = ctx;
  const { db, visible, resolve, toPublic, run } = nodeBook(ctx);
  const me = (c: C) => c.get('user') as UserRow;

  return new Hono<AppEnv>()
    .get('/api/node/list', requireUser, async (c) => {
      const all = await visible(me(c));
      return answer(c, { user_nodes: all.user.map(toPublic), group_nodes: all.group.map(toPublic), system_nodes: all.system.map(toPublic) } satisfies NodeLists);
    })
    .get('/api/node/:name', requireUser, async (c) => {
      const found = await resolve(c.req.param('name'), me(c));
      return found ? answer(c, toPublic(found)) : refuse(c, 404, MESSAGES.notFound);
    })
    .post('/api/node/add', requireUser, validate('json', nameBody), async (c) => {
      const user = me(c);
      const name = c.req.valid('json').name.trim();
      const problem = checkNodeName(name);
      if (problem) return refuse(c, 400, problem);
      const own = await db.selectFrom('nodes').select(['id', 'name']).where('owner', '=', 'user').where('owner_id', '=', user.id).execute();
      if (own.some((n) => n.name === name)) return refuse(c, 409, MESSAGES.exists(name));
      if (own.length >= MAX_USER_NODES) return refuse(c, 400, MESSAGES.tooMany);
      const now = Date.now();
      try {
        await db
          .insertInto('nodes')
          .values({ name, owner: 'user', owner_id: user.id, settings: JSON.stringify(DEFAULT_NODE_SETTINGS), created_by: user.id, created_at: now, updated_at: now })
          .execute();
      } catch {
        return refuse(c, 409, MESSAGES.exists(name));
      }
      ctx.log.info({ user: user.username, node: name }, 'node added');
      return answer(c, toPublic((await resolve(name, user))!), MESSAGES.added(name));
    })
    .post('/api/node/delete', requireUser, validate('json', nameBody), async (c) => {
      const user = me(c);
      const { name } = c.req.valid('json');
      const found = await resolve(name, user);
      if (!found) return refuse(c, 404, MESSAGES.notFound);
      if (!found.manageable) return refuse(c, 403, MESSAGES.notOwner);
      await db.deleteFrom('nodes').where('id', '=', found.row.id).execute();
      ctx.log.info({ user: user.username, node: name }, 'node deleted');
      return answer(c, undefined, MESSAGES.deleted(name));
    })
    .post('/api/node/update/:name/settings', requireUser, validate('json', settingBody), async (c) => {
      const user = me(c);
      const name = c.req.param('name');
      const { key, value } = c.req.valid('json');
      const found = await resolve(name, user);
      if (!found) return refuse(c, 404, MESSAGES.notFound);
      if (!found.manageable) return refuse(c, 403, MESSAGES.notOwner);
      const change = checkNodeSetting(key, value);
      if (!change.ok) return refuse(c, 400, change.error);
      if (change.key === 'base_url' && change.value !== '') {
        const problem = await checkUrl(ctx, String(change.value));
        if (problem) return refuse(c, 400, problem);
      }
      const settings = parseSettings(found.row.settings);
      const stored = change.key === 'api_key' ? (change.value === '' ? '' : ctx.secrets.seal(String(change.value))) : change.value;
      const next = { ...settings, [change.key]: stored };
      await db.updateTable('nodes').set({ settings: JSON.stringify(next), updated_at: Date.now() }).where('id', '=', found.row.id).execute();
      ctx.log.info({ user: user.username, node: name, key: change.key }, 'node updated');
      return answer(c, toPublic((await resolve(name, user)) ?? { ...found, row: { ...found.row, settings: JSON.stringify(next) } }), MESSAGES.updated(name));
    })
    .post('/api/node/update/:name/owner', requireUser, validate('json', ownerBody), async (c) => {
      const user = me(c);
      const name = c.req.param('name');
      const found = await resolve(name, user);
      if (!found) return refuse(c, 404, MESSAGES.notFound);
      if (!found.manageable) return refuse(c, 403, MESSAGES.notOwner);
      const recipient = await ctx.recipient(user, c.req.valid('json').owner);
      if (recipient.kind === 'refused') return refuse(c, recipient.status, recipient.error);
      const owner: NodeScope = recipient.kind;
      const ownerId = recipient.kind === 'system' ? 0 : recipient.kind === 'group' ? recipient.id : recipient.user.id;
      const target = recipient.kind === 'system' ? 'system' : recipient.kind === 'group' ? `group:${recipient.name}` : recipient.user.username;
      const clash = await db.selectFrom('nodes').select('id').where('owner', '=', owner).where('owner_id', '=', ownerId).where('name', '=', name).executeTakeFirst();
      if (clash && clash.id !== found.row.id) return refuse(c, 409, MESSAGES.exists(name));
      await db.updateTable('nodes').set({ owner, owner_id: ownerId, updated_at: Date.now() }).where('id', '=', found.row.id).execute();
      ctx.log.info({ user: user.username, node: name, owner: target }, 'node owner changed');
      ctx.audit.record(c, { kind: 'node.owner', target: `node:${name}`, before: { owner: found.ownerName }, after: { owner: target } });
      return answer(c, undefined, MESSAGES.transferred(name, target));
    })
    .post('/api/node/generate', requireUser, validate('json', generateBody), async (c) => {
      const { input, node } = c.req.valid('json');
      if (!input.trim()) return refuse(c, 400, MESSAGES.inputRequired);
      if (!node) return refuse(c, 400, MESSAGES.noneSelected);
      const found = await resolve(node, me(c));
      if (!found) return refuse(c, 404, MESSAGES.notFound);
      try {
        return answer(c, await run(found.row, input, c.req.raw.signal));
      } catch (err) {
        if (!(err instanceof NodeError)) throw err;
        // A node without a base URL is the request's fault; one that does not answer, the node's.
        return refuse(c, err.said?.code === MESSAGES.notConfigured.code ? 400 : 502, saidBy(err));
      }
    });
}

export type NodeRoutes = ReturnType<typeof nodeRoutes>;

/** The active node's output in a chat turn; an account's nodes go with it. */
function registerNodes(ctx: ServerPluginContext): void {
  const { db, resolve, run } = nodeBook(ctx);

  // In a chat turn: the active node's output reaches the model as context (USE_NODE_AI only).
  ctx.generation.addContextProvider(async ({ request, user, signal, status }) => {
    if (!ctx.config.useNodeAi || !request.node) return;
    const found = await resolve(request.node, user);
    if (!found) {
      status(MESSAGES.notFound);
      return;
    }
    status(MESSAGES.querying(found.row.name));
    const timer = setInterval(() => status(MESSAGES.processing), 1000);
    let out: NodeOutput;
    try {
      out = await run(found.row, request.user_input, signal);
    } catch (err) {
      if (signal.aborted) throw err;
      status(err instanceof Error ? saidBy(err) : MESSAGES.failed('the request failed.'));
      return;
    } finally {
      clearInterval(timer);
    }
    status(MESSAGES.responded);
    const images = out.images.length ? `\n\nImages the node produced: ${out.images.join(' ')}` : '';
    return {
      system: [`The node "${out.node}" processed the user's input first. Its output, to use as context for your answer:\n\n${out.text}${images}`],
      images: out.images,
    };
  });

  // An account's nodes go with it, and so do the nodes of the group it owns.
  ctx.accounts.onDelete(async (userId) => {
    const groups = await db.selectFrom('groups').select('id').where('owner_id', '=', userId).execute();
    await db.deleteFrom('nodes').where('owner', '=', 'user').where('owner_id', '=', userId).execute();
    if (groups.length) {
      await db
        .deleteFrom('nodes')
        .where('owner', '=', 'group')
        .where('owner_id', 'in', groups.map((g) => g.id))
        .execute();
    }
  });
}

const plugin: ServerPluginModule = {
  migrations: { '0001_nodes': nodesMigration },
  formerMigrationNames: { '0001_nodes': '0300_node_nodes' },
  routes: nodeRoutes,
  register: registerNodes,
};

export default plugin;
