// Personal API keys (issue 36): `:key add/ls/rm` over /api/key/..., an authenticator that turns
// `Authorization: Bearer sk-sc-...` into the key's user on every API route (and /v1), a gate that
// keeps a key from what only a login may do (keys, the password, money), and the
// OpenAI-compatible API (openai.ts), whose calls run the page's turn.
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import type { AppEnv, ServerPluginContext, ServerPluginModule, UserRow } from '../../../src/core/index.ts';
import type { CreatedKey } from '../common/api.ts';
import { KEY_NAME_MAX, MAX_KEYS_PER_USER } from '../common/limits.ts';
import { MESSAGES } from '../common/messages.ts';
import { checkKeyName, expiresIn } from '../common/rules.ts';
import { findKey, keysOfRequests, looksLikeKey, monthUsage, newKey, publicKey, refusalOf, tagOf } from './keys.ts';
import { openAIError, openAIRoutes } from './openai.ts';
import { keysMigration, type KeysDb } from './table.ts';

const addBody = z.object({
  name: z.string().max(KEY_NAME_MAX),
  expires: z.string().max(16).optional(),
  role: z.string().max(256).optional(),
  stores: z.string().max(2048).optional(),
  model: z.string().max(256).optional(),
  no_log: z.boolean().optional(),
});
const deleteBody = z.object({ name: z.string().max(KEY_NAME_MAX) });

/** What a key may not do, whoever owns it: its own kind, the account's secrets, money (issue 36). */
const LOGIN_ONLY = [
  '/api/key/',
  '/api/user/update/password',
  '/api/user/update/email',
  '/api/user/update/balance',
  '/api/user/update/role',
  '/api/user/reset-password',
  '/api/user/delete',
  '/api/user/login',
  '/api/payment/',
  '/api/subscription/',
];
const loginOnly = (c: Context<AppEnv>) => c.req.method !== 'GET' && LOGIN_ONLY.some((p) => c.req.path === p || (p.endsWith('/') && c.req.path.startsWith(p)));

/** `last_used_at` is written at most once a minute per key: a call in a loop is not a write each. */
const LAST_USED_EVERY_MS = 60_000;

function keyBook(ctx: ServerPluginContext) {
  const db = ctx.db as KeysDb;
  const live = (user: UserRow) => db.selectFrom('api_keys').selectAll().where('user_id', '=', user.id).where('revoked', '=', 0).orderBy('id').execute();

  /** A session id no session and no other key has: the key's calls are logged there. */
  async function freeSession(): Promise<number> {
    let id = ctx.now();
    while ((await ctx.sessions.get(id)) || (await db.selectFrom('api_keys').select('id').where('session', '=', id).executeTakeFirst())) id++;
    return id;
  }

  async function add(c: Context<AppEnv>, user: UserRow, body: z.output<typeof addBody>): Promise<Response> {
    const name = body.name.trim();
    const problem = checkKeyName(name);
    if (problem) return ctx.refuse(c, 400, problem);
    const lifetime = body.expires ? expiresIn(body.expires) : undefined;
    if (body.expires && lifetime === undefined) return ctx.refuse(c, 400, MESSAGES.invalidExpires);
    const model = body.model?.trim() ?? '';
    if (model && !(await ctx.models.get(model, user))) return ctx.refuse(c, 400, MESSAGES.modelNotFound);
    const existing = await live(user);
    if (existing.some((k) => k.name.toLowerCase() === name.toLowerCase())) return ctx.refuse(c, 409, MESSAGES.exists(name));
    if (existing.length >= MAX_KEYS_PER_USER) return ctx.refuse(c, 400, MESSAGES.tooMany);
    const { secret, prefix, hash } = await newKey();
    const now = ctx.now();
    const stores = (body.stores ?? '').split(',').map((s) => s.trim()).filter(Boolean).join(',');
    const values = {
      user_id: user.id,
      name,
      prefix,
      hash,
      role: body.role?.trim() ?? '',
      stores,
      model,
      expires_at: lifetime === undefined ? null : now + lifetime,
      no_log: body.no_log ? 1 : 0,
      session: await freeSession(),
      created_at: now,
      last_used_at: null,
      revoked: 0,
    };
    await db.insertInto('api_keys').values(values).execute();
    const row = await db.selectFrom('api_keys').selectAll().where('hash', '=', hash).executeTakeFirstOrThrow();
    const shown = publicKey(row, undefined);
    ctx.audit.record(c, { kind: 'key.create', target: `key:${name}`, after: { ...shown, month_tokens: undefined, month_fees: undefined } });
    const created: CreatedKey = { ...shown, key: secret };
    return ctx.answer(c, created, MESSAGES.created(name));
  }

  /** The keys `:key ls` lists: one's own; root's list is every user's, with their owners (never a secret). */
  async function list(user: UserRow) {
    const root = user.role === 'root_user';
    const rows = root
      ? await db.selectFrom('api_keys').innerJoin('users', 'users.id', 'api_keys.user_id').selectAll('api_keys').select('users.username as owner').where('revoked', '=', 0).orderBy('api_keys.id').execute()
      : (await live(user)).map((row) => ({ ...row, owner: undefined }));
    const usage = await monthUsage(ctx, rows.map((r) => Number(r.id)));
    return rows.map((row) => publicKey(row, usage.get(Number(row.id)), root ? row.owner : undefined));
  }

  async function revoke(c: Context<AppEnv>, user: UserRow, name: string): Promise<Response> {
    const row = (await live(user)).find((k) => k.name === name);
    if (!row) return ctx.refuse(c, 404, MESSAGES.notFound);
    await db.updateTable('api_keys').set({ revoked: 1 }).where('id', '=', row.id).execute();
    ctx.audit.record(c, { kind: 'key.revoke', target: `key:${name}`, before: { prefix: row.prefix }, after: { revoked: true } });
    return ctx.answer(c, undefined, MESSAGES.removed(name));
  }

  /** The authenticator: a key's user, or the refusal of a revoked, expired or unknown key (OpenAI's shape on /v1). */
  async function authenticate(secret: string, c: Context<AppEnv>) {
    if (!looksLikeKey(secret)) return undefined;
    const refuse = (message: typeof MESSAGES.invalidKey) =>
      c.req.path.startsWith('/v1/') ? openAIError(c, 401, message.text, 'invalid_api_key') : ctx.refuse(c, 401, message);
    const row = await findKey(db, secret);
    const now = ctx.now();
    const early = refusalOf(row, true, now);
    if (!row || early) return refuse(early ?? MESSAGES.invalidKey);
    const found = await db.selectFrom('users').selectAll().where('id', '=', row.user_id).executeTakeFirst();
    if (!found) return refuse(MESSAGES.invalidKey);
    if (row.last_used_at === null || now - Number(row.last_used_at) >= LAST_USED_EVERY_MS) {
      await db.updateTable('api_keys').set({ last_used_at: now }).where('id', '=', row.id).execute();
    }
    keysOfRequests.set(c.req.raw, row);
    return { user: await ctx.accounts.current(found as UserRow), credential: tagOf(Number(row.id)) };
  }

  return { add, list, revoke, authenticate };
}

export function keyRoutes(ctx: ServerPluginContext) {
  const book = keyBook(ctx);
  return new Hono<AppEnv>()
    .get('/api/key/list', ctx.requireUser, async (c) => ctx.answer(c, { keys: await book.list(c.get('user')!) }))
    .post('/api/key/add', ctx.requireUser, ctx.validate('json', addBody), (c) => book.add(c, c.get('user')!, c.req.valid('json')) as Promise<ReturnType<typeof ctx.answer<CreatedKey>>>)
    .post('/api/key/delete', ctx.requireUser, ctx.validate('json', deleteBody), (c) => book.revoke(c, c.get('user')!, c.req.valid('json').name) as Promise<ReturnType<typeof ctx.answer>>)
    .route('/', openAIRoutes(ctx));
}

export type KeyRoutes = ReturnType<typeof keyRoutes>;

const plugin: ServerPluginModule = {
  migrations: { '0001_keys': keysMigration },
  routes: keyRoutes,
  register(ctx) {
    const book = keyBook(ctx);
    ctx.addAuthenticator(book.authenticate);
    ctx.addGate((c) => (c.get('credential')?.startsWith('key:') && loginOnly(c) ? ctx.refuse(c, 403, MESSAGES.notWithKey) : undefined));
    // Where foreign keys are not enforced, the keys still go with their user.
    ctx.accounts.onDelete(async (userId) => {
      await (ctx.db as KeysDb).deleteFrom('api_keys').where('user_id', '=', userId).execute();
    });
  },
};

export default plugin;
