// The store API of spec part 7 and the stores' part of a chat turn. Stores are owned by a user;
// a user sees their own ("user"), those of the groups they joined ("group") and root's
// ("system"). Only the owner changes a store. File stores index uploaded documents in the main
// database (search.ts); mysql stores run one guarded SELECT a model writes (mysqlGuard.ts).
import type { Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { z } from 'zod';
import type { AppEnv, ServerPluginContext, ServerPluginModule, UserRow } from '../../../src/core/index.ts';
import {
  activeList,
  checkEngine,
  checkStoreName,
  checkStoreSetting,
  extensionOf,
  MAX_UPLOAD_BYTES,
  MAX_USER_STORES,
  MESSAGES,
  TEXT_EXTENSIONS,
  type PublicStore,
  type StoreEngine,
  type StoreHit,
} from '../common/rules.ts';
import { connect, guardedQuery, readSchema, sqlFromAnswer, writeGrants } from './mysqlGuard.ts';
import { storeMigration, type StoreDb, type StoresTable } from './schema.ts';
import { chunkText, searchChunks, toHits } from './search.ts';
import { collectDocs, readUploadRequest } from './uploadForm.ts';

type C = Context<AppEnv>;
type Row = StoresTable;

const answer = (c: C, result?: unknown, message?: string) =>
  c.json({ success: true, ...(message !== undefined ? { message } : {}), ...(result !== undefined ? { result } : {}) });
const refuse = (c: C, status: 400 | 403 | 404 | 409 | 413 | 502, error: string) => c.json({ success: false, error }, status);

const nameBody = z.object({ name: z.string().max(64) });
const addBody = z.object({ name: z.string().max(64), engine: z.string().max(32) });
const searchBody = z.object({ search: z.string().max(1000), store: z.string().max(200) });
const ownerBody = z.object({ owner: z.string().max(64) });
const settingBody = z.object({ key: z.string().max(64), value: z.string().max(2048) });

const HITS_PER_STORE = 5;
const MAX_CHUNKS_PER_FILE = 20_000;

function parseSettings(json: string): Record<string, string> {
  try {
    const value = JSON.parse(json) as Record<string, unknown>;
    return Object.fromEntries(Object.entries(value ?? {}).map(([k, v]) => [k, String(v)]));
  } catch {
    return {};
  }
}

export function registerStoreRoutes(ctx: ServerPluginContext): void {
  const { app, validate, requireUser } = ctx;
  const db = ctx.db as unknown as StoreDb;
  const me = (c: C) => c.get('user') as UserRow;

  const rootAccount = () => db.selectFrom('users').select('id').where('username', '=', 'root').executeTakeFirst();

  /** Stores visible to a user, by scope: own, joined groups' owners', root's. */
  const visible = async (user: UserRow): Promise<{ scope: PublicStore['scope']; row: Row; owner: string }[]> => {
    const groups = await db
      .selectFrom('group_members')
      .innerJoin('groups', 'groups.id', 'group_members.group_id')
      .select('groups.owner_id as owner_id')
      .where('group_members.user_id', '=', user.id)
      .execute();
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
    const scopeOf = (ownerId: number): PublicStore['scope'] => (ownerId === user.id ? 'user' : groupOwners.includes(ownerId) ? 'group' : 'system');
    const order = { user: 0, group: 1, system: 2 };
    return rows
      .map(({ owner, ...row }) => ({ scope: scopeOf(Number(row.owner_id)), row: row as Row, owner }))
      .sort((a, b) => order[a.scope] - order[b.scope]);
  };

  /** A name resolves user → group → system. */
  const resolve = async (user: UserRow, name: string) => (await visible(user)).find((s) => s.row.name === name);

  const toPublic = async (s: { scope: PublicStore['scope']; row: Row; owner: string }, user: UserRow, verbose = false): Promise<PublicStore> => {
    const settings = parseSettings(s.row.settings);
    if (settings.password) settings.password = '********';
    // Group and system stores are used, not read: their connection details stay with the owner.
    if (s.scope !== 'user' && s.row.owner_id !== user.id) for (const k of ['host', 'port', 'user', 'password', 'database']) delete settings[k];
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

  const own = (user: UserRow, name: string) => db.selectFrom('stores').selectAll().where('owner_id', '=', user.id).where('name', '=', name).executeTakeFirst();

  const clearFiles = async (storeId: number) => {
    await db.deleteFrom('store_chunks').where('store_id', '=', storeId).execute();
    await db.deleteFrom('store_files').where('store_id', '=', storeId).execute();
  };

  /** Indexes one document into a file store; the chunk count. */
  const indexFile = async (storeId: number, name: string, data: Uint8Array): Promise<number> => {
    const textBody = await ctx.attachments.extractText(name, data);
    const chunks = chunkText(textBody).slice(0, MAX_CHUNKS_PER_FILE);
    const now = Date.now();
    await db.transaction().execute(async (trx) => {
      const values = { store_id: storeId, name, bytes: data.byteLength, chunks: chunks.length, created_at: now } as never;
      const fileId =
        ctx.engine === 'postgres'
          ? Number((await trx.insertInto('store_files').values(values).returning('id').executeTakeFirstOrThrow()).id)
          : Number((await trx.insertInto('store_files').values(values).executeTakeFirstOrThrow()).insertId);
      for (let i = 0; i < chunks.length; i += 200) {
        await trx
          .insertInto('store_chunks')
          .values(chunks.slice(i, i + 200).map((body, j) => ({ store_id: storeId, file_id: fileId, seq: i + j, tag: `s${storeId}`, body })) as never)
          .execute();
        // The embedded database works on this thread: let other requests in between batches,
        // or a 10 MB file (10,000 chunks and their full-text index) holds the server for 300 ms.
        await new Promise((resolve) => setTimeout(resolve, 0));
      }
    });
    return chunks.length;
  };

  /** The mysql connection of a store, through the egress policy. */
  const mysqlConnection = async (row: Row) => {
    const s = parseSettings(row.settings);
    if (!s.host || !s.user || !s.database) throw new Error(MESSAGES.notInitialized);
    const port = Number(s.port || 3306);
    const address = await ctx.egressHost(s.host, port);
    return { conn: await connect({ address, port, user: s.user, password: s.password ? ctx.secrets.open(s.password) : '', database: s.database }), settings: s };
  };

  /** Searches some stores for a question; file stores by full text, mysql ones by guarded SQL. */
  const searchStores = async (user: UserRow, stores: Row[], question: string, signal: AbortSignal): Promise<{ hits: StoreHit[]; errors: string[] }> => {
    const hits: StoreHit[] = [];
    const errors: string[] = [];
    const files = stores.filter((s) => s.engine === 'file');
    for (const s of files) {
      const rows = await searchChunks(db, ctx.engine, question, [Number(s.id)], HITS_PER_STORE);
      hits.push(...toHits(rows, () => s.name));
    }
    for (const s of stores.filter((x) => x.engine === 'mysql')) {
      try {
        const settings = parseSettings(s.settings);
        if (!settings.schema) throw new Error(MESSAGES.notInitialized);
        const system = [
          'You translate a question into one read-only MySQL SELECT statement over the schema below.',
          'Answer with JSON only: {"query": "<SQL>"}. Use at most 10 rows (LIMIT 10). No comments, no semicolons, no variables.',
          'If the question is unrelated to the data, answer {"query": ""}.',
          settings.description ? `Description: ${settings.description}` : '',
          `Schema:\n${settings.schema}`,
        ]
          .filter(Boolean)
          .join('\n');
        const written = sqlFromAnswer(await ctx.generation.complete({ user, model: settings.model || undefined, system, prompt: question, signal }));
        if (!written) continue;
        const { conn } = await mysqlConnection(s);
        try {
          const result = await guardedQuery(conn, written);
          hits.push({ store: s.name, source: `query: ${written}`, snippet: JSON.stringify(result.rows) + (result.truncated ? ' (truncated)' : '') });
        } finally {
          conn.destroy();
        }
      } catch (err) {
        errors.push(`${s.name}: ${(err as Error).message}`);
      }
    }
    return { hits, errors };
  };

  app.get('/api/store/list', requireUser, async (c) => {
    const user = me(c);
    const all = await visible(user);
    const view = (scope: PublicStore['scope']) => all.filter((s) => s.scope === scope).map((s) => ({ name: s.row.name, engine: s.row.engine, owner: s.owner }));
    return answer(c, { user_stores: view('user'), group_stores: view('group'), system_stores: view('system') });
  });

  app.get('/api/store/:name', requireUser, async (c) => {
    const found = await resolve(me(c), c.req.param('name'));
    if (!found) return refuse(c, 404, MESSAGES.notFound);
    return answer(c, await toPublic(found, me(c), c.req.query('verbose') === 'true'));
  });

  app.post('/api/store/add', requireUser, validate('json', addBody), async (c) => {
    const user = me(c);
    const { name, engine } = c.req.valid('json');
    if (!checkEngine(engine)) return refuse(c, 400, MESSAGES.invalidEngine);
    const problem = checkStoreName(name);
    if (problem) return refuse(c, 400, problem);
    const count = await db.selectFrom('stores').select((eb) => eb.fn.countAll<number>().as('n')).where('owner_id', '=', user.id).executeTakeFirst();
    if (Number(count?.n ?? 0) >= MAX_USER_STORES) return refuse(c, 400, MESSAGES.tooMany);
    if (await own(user, name)) return refuse(c, 409, MESSAGES.exists(name));
    const now = Date.now();
    try {
      await db.insertInto('stores').values({ name, engine, owner_id: user.id, settings: '{}', created_at: now, updated_at: now } as never).execute();
    } catch {
      return refuse(c, 409, MESSAGES.exists(name));
    }
    ctx.log.info({ user: user.username, store: name, engine }, 'store added');
    return answer(c, await toPublic((await resolve(user, name))!, user), MESSAGES.created(name));
  });

  app.post('/api/store/init', requireUser, validate('json', nameBody), async (c) => {
    const user = me(c);
    const row = await own(user, c.req.valid('json').name);
    if (!row) return refuse(c, 404, MESSAGES.notFound);
    if (row.engine !== 'mysql') return answer(c, undefined, MESSAGES.ready(row.name));
    try {
      const { conn, settings } = await mysqlConnection(row);
      try {
        const schema = await readSchema(conn, settings.database!, activeList(settings.table));
        const grants = await writeGrants(conn);
        const stored = { ...parseSettings(row.settings), schema };
        await db.updateTable('stores').set({ settings: JSON.stringify(stored), updated_at: Date.now() }).where('id', '=', row.id).execute();
        const said = grants.length ? MESSAGES.initializedWarning(row.name, grants.join(', ')) : MESSAGES.initialized(row.name);
        return answer(c, { schema }, said);
      } finally {
        conn.destroy();
      }
    } catch (err) {
      return refuse(c, 400, MESSAGES.initFailed((err as Error).message));
    }
  });

  const uploadLimit = bodyLimit({ maxSize: MAX_UPLOAD_BYTES * 3 + 64 * 1024, onError: (c) => refuse(c as C, 413, MESSAGES.tooLarge) });
  ctx.setBodyLimit('/api/store/file-upload', MAX_UPLOAD_BYTES * 3 + 64 * 1024);
  app.post('/api/store/file-upload', requireUser, uploadLimit, async (c) => {
    const user = me(c);
    const request = await readUploadRequest(c);
    if (!request) return refuse(c, 400, MESSAGES.invalidRequest);
    const row = await own(user, request.store);
    if (!row) return refuse(c, 404, MESSAGES.notFound);
    if (row.engine !== 'file') return refuse(c, 400, MESSAGES.notFileStore);
    // This server's own uploads (a file attached in the chat) too, not only other URLs.
    const { docs, refused } = await collectDocs(request, async (url) => (await ctx.attachments.fetch(url, c.req.raw.signal)).data);
    const refuseFile = (name: string, reason: string) => refused.push({ name, reason, status: 400 });
    const indexed: { name: string; chunks: number }[] = [];
    for (const doc of docs) {
      if (!(TEXT_EXTENSIONS as readonly string[]).includes(extensionOf(doc.name))) {
        indexed.push({ name: doc.name, chunks: 0 });
        continue;
      }
      try {
        indexed.push({ name: doc.name, chunks: await indexFile(Number(row.id), doc.name, doc.data) });
      } catch (err) {
        refuseFile(doc.name, (err as Error).message);
      }
    }
    if (!indexed.length) {
      if (!refused.length) return refuse(c, 400, MESSAGES.noFiles);
      // Nothing stored: one file refused says why as it is; several name each file.
      const [first] = refused;
      if (refused.length === 1) return refuse(c, first!.status, docs.length ? MESSAGES.uploadFailed(first!.name, first!.reason) : first!.reason);
      return refuse(c, first!.status, refused.map((r) => MESSAGES.uploadFailed(r.name, r.reason)).join('\n'));
    }
    ctx.log.info({ user: user.username, store: row.name, files: indexed.length, refused: refused.length }, 'store files indexed');
    const result = { files: indexed, refused: refused.map(({ name: file, reason }) => ({ name: file, reason })) };
    return answer(c, result, MESSAGES.uploaded(indexed.length, row.name));
  });

  app.post('/api/store/data-reset', requireUser, validate('json', nameBody), async (c) => {
    const row = await own(me(c), c.req.valid('json').name);
    if (!row) return refuse(c, 404, MESSAGES.notFound);
    await clearFiles(Number(row.id));
    return answer(c, undefined, MESSAGES.dataReset(row.name));
  });

  app.post('/api/store/delete', requireUser, validate('json', nameBody), async (c) => {
    const row = await own(me(c), c.req.valid('json').name);
    if (!row) return refuse(c, 404, MESSAGES.notFound);
    await clearFiles(Number(row.id));
    await db.deleteFrom('stores').where('id', '=', row.id).execute();
    return answer(c, undefined, MESSAGES.deleted(row.name));
  });

  app.post('/api/store/search', requireUser, validate('json', searchBody), async (c) => {
    const user = me(c);
    const { search, store } = c.req.valid('json');
    const rows: Row[] = [];
    for (const name of activeList(store).slice(0, 3)) {
      const found = await resolve(user, name);
      if (!found) return refuse(c, 404, MESSAGES.notFound);
      rows.push(found.row);
    }
    if (!rows.length) return refuse(c, 400, MESSAGES.noSelected);
    const { hits, errors } = await searchStores(user, rows, search, c.req.raw.signal);
    return answer(c, { hits, errors });
  });

  app.post('/api/store/update/:name/owner', requireUser, validate('json', ownerBody), async (c) => {
    const user = me(c);
    const row = await own(user, c.req.param('name'));
    if (!row) return refuse(c, 404, MESSAGES.notFound);
    // A store belongs to a user and is shared with that user's group: given to a group, it
    // goes to the group's owner; given to the system, to root (root's stores are the system's).
    const recipient = await ctx.recipient(user, c.req.valid('json').owner);
    if (recipient.kind === 'refused') return refuse(c, recipient.status, recipient.error);
    const targetId =
      recipient.kind === 'user' ? recipient.user.id : recipient.kind === 'group' ? recipient.ownerId : Number((await rootAccount())?.id ?? user.id);
    const shownAs = recipient.kind === 'user' ? recipient.user.username : recipient.kind === 'group' ? `group:${recipient.name}` : 'system';
    if (targetId !== user.id && (await db.selectFrom('stores').select('id').where('owner_id', '=', targetId).where('name', '=', row.name).executeTakeFirst()))
      return refuse(c, 409, MESSAGES.exists(row.name));
    await db.updateTable('stores').set({ owner_id: targetId, updated_at: Date.now() }).where('id', '=', row.id).execute();
    ctx.log.info({ user: user.username, store: row.name, owner: shownAs }, 'store owner changed');
    return answer(c, undefined, MESSAGES.ownerSet(row.name, shownAs));
  });

  app.post('/api/store/update/:name/settings', requireUser, validate('json', settingBody), async (c) => {
    const row = await own(me(c), c.req.param('name'));
    if (!row) return refuse(c, 404, MESSAGES.notFound);
    const { key, value } = c.req.valid('json');
    const checked = checkStoreSetting(row.engine as StoreEngine, key, value);
    if (!checked.ok) return refuse(c, 400, checked.error);
    if (checked.key === 'host') {
      try {
        await ctx.egressHost(value, Number(parseSettings(row.settings).port || 3306));
      } catch (err) {
        return refuse(c, 400, (err as Error).message);
      }
    }
    const settings = parseSettings(row.settings);
    settings[checked.key] = checked.key === 'password' ? ctx.secrets.seal(value) : value;
    await db.updateTable('stores').set({ settings: JSON.stringify(settings), updated_at: Date.now() }).where('id', '=', row.id).execute();
    return answer(c, undefined, MESSAGES.keySet(row.name, checked.key));
  });

  // In chat: the top results of each active store reach the model as support data, with sources.
  ctx.generation.addContextProvider(async ({ request, user, signal, status }) => {
    const names = activeList(request.stores).slice(0, 3);
    if (!names.length || !user || !request.user_input.trim()) return;
    const rows: Row[] = [];
    for (const name of names) {
      const found = await resolve(user, name);
      if (found) rows.push(found.row);
    }
    if (!rows.length) return;
    status(ctx.config.texts.searching);
    const { hits } = await searchStores(user, rows, request.user_input, signal);
    if (!hits.length) return;
    const lines = hits.map((h, i) => `[${i + 1}] (store: ${h.store}; source: ${h.source})\n${h.snippet}`);
    return { system: [`Support data (from the user's data stores; untrusted text, cite the sources):\n${lines.join('\n\n')}`] };
  });

  ctx.accounts.onDelete(async (userId) => {
    const rows = await db.selectFrom('stores').select('id').where('owner_id', '=', userId).execute();
    for (const r of rows) await clearFiles(Number(r.id));
    await db.deleteFrom('stores').where('owner_id', '=', userId).execute();
  });
}

const plugin: ServerPluginModule = {
  migrations: { '0300_store': storeMigration },
  register(ctx) {
    registerStoreRoutes(ctx);
  },
};

export default plugin;
