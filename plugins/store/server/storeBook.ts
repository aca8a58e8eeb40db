// What the store routes and a chat turn share: the stores a user sees (their own, those of the
// owners of the groups they joined, root's), a store as the API shows it, and the search over
// some stores (file stores by full text, search.ts; mysql stores by one guarded SELECT,
// mysqlStore.ts).
import type { ServerPluginContext, UserRow } from '../../../src/core/index.ts';
import type { StoreEngine } from '../common/limits.ts';
import type { PublicStore, StoreHit, StoreLists, StoreSearchResult } from '../common/rules.ts';
import { askMysqlStore } from './mysqlStore.ts';
import { parseSettings, type StoreDb, type StoresTable } from './schema.ts';
import { searchChunks, toHits } from './search.ts';

export type StoreRow = StoresTable;
export type StoreScope = PublicStore['scope'];

/** A store a user sees: how (scope), its row, and its owner's name. */
export interface SeenStore {
  scope: StoreScope;
  row: StoreRow;
  owner: string;
}

const HITS_PER_STORE = 5;
const SCOPE_ORDER: Record<StoreScope, number> = { user: 0, group: 1, system: 2 };
/** Connection details a group or system store keeps with its owner. */
const CONNECTION_KEYS = ['host', 'port', 'user', 'password', 'database'];

export function storeBook(ctx: ServerPluginContext) {
  const db = ctx.db as unknown as StoreDb;

  const rootAccount = () => db.selectFrom('users').select('id').where('username', '=', 'root').executeTakeFirst();

  /** Stores visible to a user, by scope: own, joined groups' owners', root's. */
  const visible = async (user: UserRow): Promise<SeenStore[]> => {
    const groups = await ctx.accounts.groupsOf(user.id);
    const root = await rootAccount();
    const groupOwners = [...new Set(groups.map((g) => Number(g.owner_id)))].filter((id) => id !== user.id && id !== root?.id);
    const ids = [user.id, ...groupOwners, ...(root && root.id !== user.id ? [root.id] : [])];
    const rows = await db
      .selectFrom('stores')
      .innerJoin('users', 'users.id', 'stores.owner_id')
      .selectAll('stores')
      .select('users.username as owner')
      .where('stores.owner_id', 'in', ids)
      .orderBy('stores.name')
      .execute();
    const scopeOf = (ownerId: number): StoreScope => (ownerId === user.id ? 'user' : groupOwners.includes(ownerId) ? 'group' : 'system');
    return rows
      .map(({ owner, ...row }) => ({ scope: scopeOf(Number(row.owner_id)), row: row as StoreRow, owner }))
      .sort((a, b) => SCOPE_ORDER[a.scope] - SCOPE_ORDER[b.scope]);
  };

  /** The lists of GET /api/store/list. */
  const lists = async (user: UserRow): Promise<StoreLists> => {
    const all = await visible(user);
    const view = (scope: StoreScope) => all.filter((s) => s.scope === scope).map((s) => ({ name: s.row.name, engine: s.row.engine, owner: s.owner }));
    return { user_stores: view('user'), group_stores: view('group'), system_stores: view('system') };
  };

  /** A name resolves user → group → system. */
  const resolve = async (user: UserRow, name: string) => (await visible(user)).find((s) => s.row.name === name);

  /** One of the user's own stores by name: only the owner changes a store. */
  const own = (user: UserRow, name: string) => db.selectFrom('stores').selectAll().where('owner_id', '=', user.id).where('name', '=', name).executeTakeFirst();

  /** A store as the API shows it: a password only masked, a shared store's connection not at all. */
  const toPublic = async (s: SeenStore, user: UserRow, verbose = false): Promise<PublicStore> => {
    const settings = parseSettings(s.row.settings);
    if (settings.password) settings.password = '********';
    // Group and system stores are used, not read: their connection details stay with the owner.
    if (s.scope !== 'user' && s.row.owner_id !== user.id) for (const k of CONNECTION_KEYS) delete settings[k];
    const out: PublicStore = { name: s.row.name, engine: s.row.engine as StoreEngine, owner: s.owner, scope: s.scope, settings };
    if (s.row.engine === 'file') {
      const files = await db.selectFrom('store_files').select(['name', 'chunks', 'bytes']).where('store_id', '=', s.row.id).orderBy('id').execute();
      out.files = files.map((f) => ({ name: f.name, chunks: Number(f.chunks), bytes: Number(f.bytes) }));
      if (!verbose) out.files = out.files.slice(0, 20);
    } else {
      const raw = parseSettings(s.row.settings);
      out.initialized = !!(raw.host && raw.user && raw.database && raw.schema);
    }
    return out;
  };

  /** Empties a file store (its files and their chunks). */
  const clearFiles = async (storeId: number) => {
    await db.deleteFrom('store_chunks').where('store_id', '=', storeId).execute();
    await db.deleteFrom('store_files').where('store_id', '=', storeId).execute();
  };

  /** Searches some stores for a question; a store that fails is named in `errors`, the others still answer. */
  const searchStores = async (user: UserRow, stores: StoreRow[], question: string, signal: AbortSignal): Promise<StoreSearchResult> => {
    const hits: StoreHit[] = [];
    const errors: string[] = [];
    for (const s of stores.filter((x) => x.engine === 'file')) {
      const rows = await searchChunks(db, ctx.engine, question, [Number(s.id)], HITS_PER_STORE);
      hits.push(...toHits(rows, () => s.name));
    }
    for (const s of stores.filter((x) => x.engine === 'mysql')) {
      try {
        const hit = await askMysqlStore(ctx, user, s, question, signal);
        if (hit) hits.push(hit);
      } catch (err) {
        errors.push(`${s.name}: ${(err as Error).message}`);
      }
    }
    return { hits, errors };
  };

  return { db, rootAccount, visible, lists, resolve, own, toPublic, clearFiles, searchStores };
}

export type StoreBook = ReturnType<typeof storeBook>;
