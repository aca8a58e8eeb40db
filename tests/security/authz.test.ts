// The authorization matrix (security.md §6 #12): every API route the server registers, and
// for each actor what the server must answer. Each cell runs in a fresh world of users, so
// mutating routes (delete, logout, password changes) cannot leak into other cells; after each
// request the test also checks what changed, so an "allowed" that acts on the wrong user, or
// a "denied" that still changes something, fails. A route the table does not list fails too.
//
// Actors: anonymous (no cookie); owner (the user acted upon); other (an unrelated user);
// member (a user who joined the owner's group with the owner's group password); root.
// Scopes: public (no user involved); self (acts on the caller only: a `username` naming the
// owner in the body is ignored, the owner stays untouched); owner (names the owner as target);
// link (authorized by a token from an e-mail sent to the owner, whoever follows it).
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalizeUserSettings } from '../../src/core/index.ts';
import { sign } from '../../src/server/auth/tokens.ts';
import { startTestServer, type TestServer } from '../server/support.ts';
import type { Generated, Kysely } from 'kysely';

const ACTORS = ['anonymous', 'owner', 'other', 'member', 'root'] as const;
type Actor = (typeof ACTORS)[number];
type Scope = 'public' | 'self' | 'owner' | 'link';
type Row = [scope: Scope, anonymous: number, owner: number, other: number, member: number, root: number];

// prettier-ignore
const MATRIX: Record<string, Row> = {
  //                                           scope      anonymous owner other member root
  'GET /api/ping':                             ['public', 200,      200,  200,  200,   200],
  'GET /api/system/info':                      ['public', 200,      200,  200,  200,   200],
  'GET /api/user/info':                        ['self',   401,      200,  200,  200,   200],
  'GET /api/user/usage':                       ['self',   401,      200,  200,  200,   200],
  'POST /api/user/login':                      ['owner',  200,      200,  401,  401,   401],
  'POST /api/user/logout':                     ['self',   401,      200,  200,  200,   200],
  'POST /api/user/add':                        ['public', 200,      200,  200,  200,   200],
  'POST /api/user/delete':                     ['owner',  401,      200,  403,  403,   200],
  'POST /api/user/update/setting':             ['self',   401,      200,  200,  200,   200],
  'POST /api/user/reset-setting':              ['self',   401,      200,  200,  200,   200],
  'POST /api/user/reset-settings':             ['self',   401,      200,  200,  200,   200],
  'POST /api/user/update/password':            ['self',   401,      200,  200,  200,   200],
  'POST /api/user/update/email':               ['self',   401,      200,  200,  200,   200],
  'GET /api/user/verify-email':                ['link',   200,      200,  200,  200,   200],
  'POST /api/user/reset-password':             ['owner',  200,      200,  200,  200,   200],
  'GET /api/user/reset-password/confirm':      ['link',   200,      200,  200,  200,   200],
  'POST /api/user/group/join':                 ['owner',  401,      409,  200,  409,   200],
  'POST /api/user/group/leave':                ['owner',  401,      400,  404,  200,   404],
  'POST /api/user/update/balance':             ['owner',  401,      403,  403,  403,   200],
  'POST /api/user/update/role':                ['owner',  401,      403,  403,  403,   200],
  'GET /api/user/update/email-subscription':   ['owner',  403,      200,  403,  403,   403],
  'GET /api/invite/:email':                    ['self',   401,      200,  200,  200,   200],
  // Sessions and logs: the owner's unshared session (anonymous visitors own only their device's).
  'GET /api/session/:id':                      ['owner',  404,      200,  404,  404,   200],
  'GET /api/session/list':                     ['owner',  401,      403,  403,  403,   200],
  'GET /api/session/list/:user':               ['owner',  401,      200,  403,  403,   200],
  'GET /api/session/prev':                     ['self',   401,      200,  404,  404,   200],
  'GET /api/session/next':                     ['self',   401,      200,  404,  404,   200],
  'POST /api/session/share':                   ['owner',  404,      200,  404,  404,   403],
  'GET /api/log/prev':                         ['owner',  404,      200,  404,  404,   200],
  'GET /api/log/next':                         ['owner',  404,      200,  404,  404,   200],
  'GET /api/log/list':                         ['owner',  404,      200,  404,  404,   200],
  'GET /api/log/search':                       ['self',   401,      200,  200,  200,   200],
  // Generation: no model is configured here, so a turn ends in 'No available model found.';
  // what matters is whose session a request may read or write (the owner's unshared one).
  'GET /api/generate_sse':                     ['owner',  200,      200,  200,  200,   200],
  'POST /api/generate_sse':                    ['owner',  200,      200,  200,  200,   200],
  'POST /api/generate':                        ['owner',  400,      400,  400,  400,   400],
  'POST /api/generate_msg':                    ['owner',  404,      200,  404,  404,   200],
  'POST /api/log/add':                         ['owner',  403,      200,  403,  403,   403],
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
  // Functions (plugins/function): direct calls need a login (the original's route was open).
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
  'POST /api/function/exec':                   ['self',   401,      200,  200,  200,   200],
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

const ROOT_PASSWORD = 'root-password-1';
const SECRET_KEY = 'authz-test-secret-key';

interface Person {
  username: string;
  email: string;
  password: string;
  token: string;
  id: number;
}
interface World {
  owner: Person;
  other: Person;
  member: Person;
  root: Person;
  /** The owner's group password, as the owner's own /api/user/info shows it. */
  groupPassword: string;
  /** What `prepare` found (e-mail link tokens). */
  prepared: Record<string, string>;
}
interface Result {
  status: number;
  text: string;
  json: Record<string, unknown> | undefined;
  headers: Headers;
}
interface Cell {
  w: World;
  actor: Actor;
  /** The acting user; null for anonymous. */
  me: Person | null;
  allowed: boolean;
  body: unknown;
  res: Result;
}
interface Case {
  /** The concrete path, for routes with parameters. */
  path?(w: World, me: Person | null): string;
  /** Runs before the request; root is shared by the cells of a row, so touch root only as `me`. */
  prepare?(w: World, me: Person | null): Promise<Record<string, string>>;
  query?(w: World, me: Person | null): Record<string, string>;
  body?(w: World, me: Person | null): unknown;
  /** What must (not) have changed after the request. */
  effect?(cell: Cell): Promise<void>;
}

let t: TestServer;
const mails: { to: string[]; text: string }[] = [];
let smtp: SMTPServer;

/** The text part of a message as nodemailer sends it (7bit or quoted-printable). */
function mailText(raw: string): string {
  const split = raw.search(/\r?\n\r?\n/);
  const head = raw.slice(0, split);
  const body = raw.slice(split).trim();
  if (!/content-transfer-encoding:\s*quoted-printable/i.test(head)) return body;
  return body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}
const mailsTo = (address: string) => mails.filter((m) => m.to.includes(address));
function linkToken(address: string, path: string): string {
  const mail = mailsTo(address).at(-1);
  const match = mail?.text.match(new RegExp(`${path.replaceAll('/', '\\/')}\\?token=([A-Za-z0-9_-]+)`));
  if (!match) throw new Error(`no ${path} link was mailed to ${address}`);
  return match[1]!;
}

async function call(method: string, path: string, cookie: string | null, options: { body?: unknown; query?: Record<string, string> } = {}): Promise<Result> {
  const url = new URL(path, t.url);
  for (const [k, v] of Object.entries(options.query ?? {})) url.searchParams.set(k, v);
  const headers: Record<string, string> = {};
  if (cookie) headers.cookie = `auth=${cookie}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(url, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
  const text = await res.text();
  let json: Record<string, unknown> | undefined;
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    json = undefined;
  }
  return { status: res.status, text, json, headers: res.headers };
}

let seq = 0;
async function person(prefix: string): Promise<Person> {
  const username = `${prefix}${++seq}`;
  const email = `${username}@example.org`;
  const password = `pw-${username}-secret`;
  const { user } = await t.server.accounts.create({ username, email, password });
  const { token } = await t.server.accounts.createLoginToken(user.id, 3_600_000);
  return { username, email, password, token, id: user.id };
}

async function world(): Promise<World> {
  const [owner, other, member] = await Promise.all([person('owner'), person('other'), person('member')]);
  const rootRow = (await t.server.accounts.byUsername('root'))!;
  const root = { username: 'root', email: rootRow.email, password: ROOT_PASSWORD, token: (await t.server.accounts.createLoginToken(rootRow.id, 3_600_000)).token, id: rootRow.id };
  const info = await call('GET', '/api/user/info', owner.token);
  const groupPassword = String((info.json?.result as { settings: { groupPassword: string } }).settings.groupPassword);
  const joined = await call('POST', '/api/user/group/join', member.token, { body: { group: owner.username, password: groupPassword } });
  if (joined.status !== 200) throw new Error(`setup: the member could not join the owner's group: ${joined.text}`);
  return { owner, other, member, root, groupPassword, prepared: {} };
}

const row = (username: string) => t.server.accounts.byUsername(username);
const settingsOf = async (username: string) => normalizeUserSettings((await row(username))!.settings);
const groupsOf = async (p: Person) => (await t.server.accounts.groupsOf(p.id)).map((g) => g.name);
const canLogin = async (username: string, password: string) => !!(await t.server.accounts.authenticate(username, password));
const tokenWorks = async (token: string) => !!(await t.server.accounts.userForToken(token));

/** An unshared session of the owner with two logs, written straight to the database. */
let lastSession = Date.now() - 50_000_000;
async function ownerSession(w: World): Promise<Record<string, string>> {
  const id = (lastSession += 1_000);
  const now = Date.now();
  const db = t.server.db.db;
  await db.insertInto('sessions').values({ id, parent_id: null, branch_time: null, user_id: w.owner.id, device_id: null, shared: 0, created_at: now, updated_at: now }).execute();
  for (const i of [0, 1]) {
    await db
      .insertInto('logs')
      .values({ session: id, time: id + 10 + i, user_id: w.owner.id, device_id: null, model: 'm', input: `needle-${w.owner.username}-end ${i}`, output: 'answer', images: '[]', tools: '[]', input_tokens: 0, output_tokens: 0, created_at: now })
      .execute();
  }
  return { session: String(id), first: String(id + 10), second: String(id + 11) };
}
const sessionRow = (w: World) => t.server.db.db.selectFrom('sessions').selectAll().where('id', '=', Number(w.prepared.session)).executeTakeFirstOrThrow();
type Listed = { sessions: { id: number; user: string }[] };
const resultOf = <T,>(res: Result) => res.json?.result as T;

/** Generation rows: the owner's turns stay in the owner's session, whoever asks (ownerSession has two). */
const turnsIn = async (w: World) => (await t.server.db.db.selectFrom('logs').select('id').where('session', '=', Number(w.prepared.session)).execute()).length;
const ownerTurn = (w: World) => `needle-${w.owner.username}-end`;
const generationCase = (extra: Partial<Case> = {}): Case => ({
  prepare: (w) => ownerSession(w),
  body: (w) => ({ session: Number(w.prepared.session), user_input: 'hello' }),
  effect: async ({ w, actor, res }) => {
    // The owner and root (who reads every session, into a branch of their own) reach the model step.
    expect(res.text).toContain(actor === 'owner' || actor === 'root' ? 'No available model found.' : 'Session not found.');
    expect(res.text).not.toContain(ownerTurn(w));
    expect(await turnsIn(w)).toBe(2);
  },
  ...extra,
});

/** Model rows: the owner's model (with a sealed key) and the owner's group's model. */
const MODEL_KEY = 'sk-owner-model-key-0123456789';
async function seedModels(w: World): Promise<Record<string, string>> {
  const group = await t.server.db.db.selectFrom('groups').select('id').where('name', '=', w.owner.username).executeTakeFirstOrThrow();
  const now = Date.now();
  const model = { provider: 'openai-compatible', model: 'owner-model', base_url: 'https://8.8.8.8/v1', api_key: t.server.models.sealKey(MODEL_KEY), price_input: 0, price_output: 0, capabilities: '{}', created_at: now, updated_at: now };
  await t.server.db.db
    .insertInto('models')
    .values([
      { ...model, name: 'owner-model', scope: 'user', owner_id: w.owner.id },
      { ...model, name: 'group-model', scope: 'group', owner_id: group.id },
    ])
    .execute();
  return { group: String(group.id) };
}
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

const modelsOf = (ownerId: number, scope = 'user') => t.server.db.db.selectFrom('models').selectAll().where('scope', '=', scope).where('owner_id', '=', ownerId).execute();

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

const CASES: Record<string, Case> = {
  'GET /api/ping': {},
  'GET /api/system/info': {
    effect: async ({ res }) => {
      expect(res.text).not.toContain(ROOT_PASSWORD);
      expect(res.text).not.toContain(SECRET_KEY);
    },
  },
  'GET /api/user/info': {
    // Always the caller's own account, never the owner's for anyone else.
    effect: async ({ res, me, allowed }) => {
      if (allowed) expect((res.json?.result as { username: string }).username).toBe(me!.username);
    },
  },
  'GET /api/user/usage': {},
  'POST /api/user/login': {
    // Credentials for the owner's account: anonymous and the owner present the owner's password;
    // everyone else presents their own, which must not open the owner's account (no impersonation).
    body: (w, me) => ({ username: w.owner.username, password: me && me !== w.owner ? me.password : w.owner.password }),
    effect: async ({ res, allowed }) => {
      expect(res.headers.getSetCookie().some((c) => /^auth=[^;]+/.test(c))).toBe(allowed);
    },
  },
  'POST /api/user/logout': {
    body: (w) => ({ username: w.owner.username }),
    effect: async ({ w, me, allowed, actor }) => {
      if (me) expect(await tokenWorks(me.token)).toBe(!allowed);
      expect(await tokenWorks(w.owner.token)).toBe(!(allowed && actor === 'owner'));
    },
  },
  'POST /api/user/add': {
    // A sign-up cannot choose its role or balance (mass assignment).
    body: () => ({ username: `new${++seq}`, email: `new${seq}@example.org`, password: 'new-user-password', role: 'root_user', balance: 1000 }),
    effect: async ({ body, allowed }) => {
      const created = await row((body as { username: string }).username);
      expect(!!created).toBe(allowed);
      if (created) expect({ role: created.role, balance: created.balance }).toEqual({ role: 'user', balance: 0 });
    },
  },
  'POST /api/user/delete': {
    body: (w) => ({ username: w.owner.username }),
    effect: async ({ w, me, allowed }) => {
      expect(!!(await row(w.owner.username))).toBe(!allowed);
      if (me && me !== w.owner) expect(!!(await row(me.username))).toBe(true);
    },
  },
  'POST /api/user/update/setting': {
    body: (w) => ({ key: 'theme', value: 'dark', username: w.owner.username }),
    effect: async ({ w, me, allowed, actor }) => {
      expect((await settingsOf(w.owner.username)).theme).toBe(allowed && actor === 'owner' ? 'dark' : 'light');
      if (me) expect((await settingsOf(me.username)).theme).toBe(allowed ? 'dark' : 'light');
    },
  },
  'POST /api/user/reset-setting': {
    prepare: async (w, me) => {
      for (const p of new Set([w.owner, ...(me ? [me] : [])])) await t.server.accounts.updateSetting((await row(p.username))!, 'theme', 'dark');
      return {};
    },
    body: (w) => ({ key: 'theme', username: w.owner.username }),
    effect: async ({ w, me, allowed, actor }) => {
      expect((await settingsOf(w.owner.username)).theme).toBe(allowed && actor === 'owner' ? 'light' : 'dark');
      if (me) expect((await settingsOf(me.username)).theme).toBe(allowed ? 'light' : 'dark');
    },
  },
  'POST /api/user/reset-settings': {
    body: (w) => ({ username: w.owner.username }),
    effect: async ({ w, allowed, actor }) => {
      expect((await settingsOf(w.owner.username)).groupPassword === w.groupPassword).toBe(!(allowed && actor === 'owner'));
    },
  },
  'POST /api/user/update/password': {
    body: (w) => ({ password: 'changed-password-1', username: w.owner.username }),
    effect: async ({ w, me, allowed, actor }) => {
      expect(await canLogin(w.owner.username, w.owner.password)).toBe(!(allowed && actor === 'owner'));
      if (me) expect(await canLogin(me.username, 'changed-password-1')).toBe(allowed);
      // Root is shared by every world: give it its password back.
      if (actor === 'root') await t.server.accounts.updatePassword((await row('root'))!, ROOT_PASSWORD);
    },
  },
  'POST /api/user/update/email': {
    body: (w) => ({ email: `changed-${w.owner.username}@example.org`, username: w.owner.username }),
    effect: async ({ w, allowed }) => {
      // A link goes to the new address; nothing changes until it is followed.
      expect(mailsTo(`changed-${w.owner.username}@example.org`).length).toBe(allowed ? 1 : 0);
      expect((await row(w.owner.username))!.email).toBe(w.owner.email);
    },
  },
  'GET /api/user/verify-email': {
    prepare: async (w) => {
      const asked = await call('POST', '/api/user/update/email', w.owner.token, { body: { email: `verified-${w.owner.username}@example.org` } });
      if (asked.status !== 200) throw new Error(`setup: ${asked.text}`);
      return { token: linkToken(`verified-${w.owner.username}@example.org`, '/api/user/verify-email') };
    },
    query: (w) => ({ token: w.prepared.token! }),
    effect: async ({ w, me, allowed }) => {
      expect((await row(w.owner.username))!.email).toBe(allowed ? `verified-${w.owner.username}@example.org` : w.owner.email);
      if (me && me !== w.owner) expect((await row(me.username))!.email).toBe(me.email);
    },
  },
  'POST /api/user/reset-password': {
    body: (w) => ({ username: w.owner.username, email: w.owner.email }),
    effect: async ({ w, me, allowed }) => {
      // The link goes to the owner's address only, never to whoever asked.
      expect(mailsTo(w.owner.email).length).toBe(allowed ? 1 : 0);
      if (me && me !== w.owner) expect(mailsTo(me.email)).toEqual([]);
    },
  },
  'GET /api/user/reset-password/confirm': {
    prepare: async (w) => {
      const asked = await call('POST', '/api/user/reset-password', null, { body: { username: w.owner.username, email: w.owner.email } });
      if (asked.status !== 200) throw new Error(`setup: ${asked.text}`);
      return { token: linkToken(w.owner.email, '/api/user/reset-password/confirm') };
    },
    query: (w) => ({ token: w.prepared.token! }),
    effect: async ({ w, me, allowed, res }) => {
      expect(await canLogin(w.owner.username, w.owner.password)).toBe(!allowed);
      expect(await tokenWorks(w.owner.token)).toBe(!allowed);
      // The page shows the owner's new password, once.
      if (allowed) expect(await canLogin(w.owner.username, res.text.match(/<pre[^>]*>([A-Za-z0-9]{16})<\/pre>/)?.[1] ?? '')).toBe(true);
      if (me && me !== w.owner) expect(await canLogin(me.username, me.password)).toBe(true);
    },
  },
  'POST /api/user/group/join': {
    // The owner's group password is the capability; the owner and the member are in already.
    body: (w) => ({ group: w.owner.username, password: w.groupPassword }),
    effect: async ({ w, me, allowed, actor }) => {
      if (me && (actor === 'other' || actor === 'root')) expect((await groupsOf(me)).includes(w.owner.username)).toBe(allowed);
      expect(await groupsOf(w.owner)).toEqual([w.owner.username]);
    },
  },
  'POST /api/user/group/leave': {
    body: (w) => ({ group: w.owner.username }),
    effect: async ({ w, allowed, actor }) => {
      expect((await groupsOf(w.member)).includes(w.owner.username)).toBe(!(allowed && actor === 'member'));
      expect(await groupsOf(w.owner)).toEqual([w.owner.username]);
    },
  },
  'POST /api/user/update/balance': {
    body: (w) => ({ amount: 5, username: w.owner.username }),
    effect: async ({ w, me, allowed }) => {
      expect((await row(w.owner.username))!.balance).toBe(allowed ? 5 : 0);
      if (me && me !== w.owner && me !== w.root) expect((await row(me.username))!.balance).toBe(0);
    },
  },
  'POST /api/user/update/role': {
    body: (w) => ({ role: 'plus_user', username: w.owner.username }),
    effect: async ({ w, me, allowed }) => {
      expect((await row(w.owner.username))!.role).toBe(allowed ? 'plus_user' : 'user');
      if (me && me !== w.owner && me !== w.root) expect((await row(me.username))!.role).toBe('user');
    },
  },
  'GET /api/user/update/email-subscription': {
    // Without a signed link only the logged-in owner of the address may (un)subscribe it.
    query: (w) => ({ email: w.owner.email, email_subscription: '0' }),
    effect: async ({ w, allowed }) => expect((await row(w.owner.username))!.email_subscription).toBe(allowed ? 0 : 1),
  },
  'GET /api/invite/:email': {
    // The caller invites an address in their own name.
    path: (w) => `/api/invite/${encodeURIComponent(`invited-${w.owner.username}@example.org`)}`,
    effect: async ({ w, me, allowed }) => {
      const sent = mailsTo(`invited-${w.owner.username}@example.org`);
      expect(sent.length).toBe(allowed ? 1 : 0);
      if (allowed) expect(sent[0]!.text).toContain(`${me!.username} invites you`);
    },
  },
  'GET /api/session/:id': {
    prepare: (w) => ownerSession(w),
    path: (w) => `/api/session/${w.prepared.session}`,
    effect: async ({ w, res, allowed }) => {
      if (allowed) expect(resultOf<{ id: number; logs: unknown[] }>(res)).toMatchObject({ id: Number(w.prepared.session), logs: [{}, {}] });
      expect(res.text).not.toMatch(/user_id|device_id/);
    },
  },
  'GET /api/session/list': {
    prepare: (w) => ownerSession(w),
    effect: async ({ w, res, allowed }) => {
      if (allowed) expect(resultOf<Listed>(res).sessions).toContainEqual(expect.objectContaining({ id: Number(w.prepared.session), user: w.owner.username }));
    },
  },
  'GET /api/session/list/:user': {
    prepare: (w) => ownerSession(w),
    path: (w) => `/api/session/list/${w.owner.username}`,
    effect: async ({ w, res, allowed }) => {
      if (allowed) expect(resultOf<Listed>(res).sessions.map((s) => s.id)).toEqual([Number(w.prepared.session)]);
    },
  },
  'GET /api/session/prev': {
    // Other users and group members own no session below: they never reach the owner's.
    prepare: (w) => ownerSession(w),
    query: (w) => ({ session: String(Number(w.prepared.session) + 1) }),
    effect: async ({ w, res, allowed }) => {
      if (allowed) expect(resultOf<{ id: number }>(res).id).toBe(Number(w.prepared.session));
    },
  },
  'GET /api/session/next': {
    prepare: (w) => ownerSession(w),
    query: (w) => ({ session: String(Number(w.prepared.session) - 1) }),
    effect: async ({ w, res, allowed }) => {
      if (allowed) expect(resultOf<{ id: number }>(res).id).toBe(Number(w.prepared.session));
    },
  },
  'POST /api/session/share': {
    // Only the owner shares; root reads every session but shares none of others.
    prepare: (w) => ownerSession(w),
    body: (w) => ({ session: Number(w.prepared.session) }),
    effect: async ({ w, allowed }) => expect(Number((await sessionRow(w)).shared)).toBe(allowed ? 1 : 0),
  },
  'GET /api/log/prev': {
    prepare: (w) => ownerSession(w),
    query: (w) => ({ session: w.prepared.session!, time: w.prepared.second! }),
    effect: async ({ w, res, allowed }) => {
      if (allowed) expect(resultOf<{ log: { time: number } }>(res).log.time).toBe(Number(w.prepared.first));
    },
  },
  'GET /api/log/next': {
    prepare: (w) => ownerSession(w),
    query: (w) => ({ session: w.prepared.session!, time: w.prepared.first! }),
    effect: async ({ w, res, allowed }) => {
      if (allowed) expect(resultOf<{ log: { time: number } }>(res).log.time).toBe(Number(w.prepared.second));
    },
  },
  'GET /api/log/list': {
    prepare: (w) => ownerSession(w),
    query: (w) => ({ session: w.prepared.session! }),
    effect: async ({ res, allowed }) => {
      if (allowed) expect(resultOf<{ logs: unknown[] }>(res).logs).toHaveLength(2);
    },
  },
  'GET /api/log/search': {
    // Everybody searches their own logs only: the owner's turn up for the owner alone.
    prepare: (w) => ownerSession(w),
    query: (w) => ({ text: `needle-${w.owner.username}-end` }),
    effect: async ({ res, allowed, actor }) => {
      if (allowed) expect(resultOf<{ logs: unknown[] }>(res).logs).toHaveLength(actor === 'owner' ? 2 : 0);
    },
  },
  'GET /api/generate_sse': generationCase({ query: (w) => ({ session: w.prepared.session!, user_input: 'hello' }) }),
  'POST /api/generate_sse': generationCase(),
  'POST /api/generate': generationCase(),
  'POST /api/generate_msg': {
    prepare: (w) => ownerSession(w),
    body: (w) => ({ session: Number(w.prepared.session), user_input: 'hello' }),
    // The owner continues the session and root reads it into a branch; nobody else sees it.
    effect: async ({ w, allowed, res }) => {
      if (allowed) expect(res.text).toContain(ownerTurn(w));
      else expect(res.text).not.toContain(ownerTurn(w));
      expect(await turnsIn(w)).toBe(2);
    },
  },
  'POST /api/log/add': {
    // Anonymous visitors, other users, members and root cannot write into the owner's session.
    prepare: (w) => ownerSession(w),
    body: (w) => ({ input: 'injected', output: 'injected', model: 'm', session: Number(w.prepared.session) }),
    effect: async ({ w, allowed }) => expect(await turnsIn(w)).toBe(allowed ? 3 : 2),
  },
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
    body: () => ({ name: `added${++seq}`, base_url: 'https://8.8.8.8/v1', api_key: MODEL_KEY }),
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
    body: () => ({ roleName: `added-role${++seq}`, prompt: 'added prompt' }),
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
    body: () => ({ name: `added${++seq}`, engine: 'file' }),
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
    body: (w) => ({ owner: w.other.username }),
    effect: async ({ w, allowed }) => {
      expect((await storesOf(w.owner.id)).length).toBe(allowed ? 0 : 1);
      expect((await storesOf(w.other.id)).length).toBe(allowed ? 1 : 0);
    },
  },
  'POST /api/store/update/:name/settings': {
    prepare: seedStore,
    path: () => '/api/store/update/owner-store/settings',
    body: () => ({ key: 'description', value: 'changed' }),
    effect: async ({ w, allowed }) => expect(JSON.parse((await storesOf(w.owner.id))[0]!.settings).description).toBe(allowed ? 'changed' : 'original'),
  },
  'POST /api/function/exec': {
    body: () => ({ functions: ['get_time({"timezone":"UTC"})'] }),
    effect: async ({ res, allowed }) => {
      const results = (res.json as { function_results?: { success: boolean; message?: string }[] } | undefined)?.function_results;
      if (allowed) expect(results).toEqual([expect.objectContaining({ success: true, message: expect.stringContaining('UTC') })]);
      else expect(results).toBeUndefined();
    },
  },
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
    body: () => ({ name: `added${++seq}` }),
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
    body: (w) => ({ owner: w.other.username }),
    effect: async ({ w, allowed }) => {
      expect((await nodesOf(w.owner.id)).length).toBe(allowed ? 0 : 1);
      expect((await nodesOf(w.other.id)).map((n) => n.name)).toEqual(allowed ? ['owner-node'] : []);
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

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    disableReverseLookup: true,
    logger: false,
    onData(stream, session, done) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), text: mailText(Buffer.concat(chunks).toString('utf8')) });
        done();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
  const port = (smtp.server.address() as AddressInfo).port;
  t = await startTestServer('sqlite', { ROOT_PASSWORD, SECRET_KEY, SMTP_URL: `smtp://127.0.0.1:${port}` });
}, 60_000);
afterAll(async () => {
  await t?.close();
  await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
});

describe('authorization matrix', () => {
  it('lists every route the server registers, and no route it does not', () => {
    const registered = new Set(
      t.server.app.routes
        // Middleware (app.use) and the JSON 404 catch-all are ALL entries on wildcard paths.
        .filter((r) => !(r.method === 'ALL' && r.path.endsWith('*')))
        .map((r) => `${r.method} ${r.path}`),
    );
    expect([...registered].sort()).toEqual(Object.keys(MATRIX).sort());
    expect(Object.keys(CASES).sort()).toEqual(Object.keys(MATRIX).sort());
  });

  it.each(Object.keys(MATRIX))('%s', async (route) => {
    const [method, path] = route.split(' ') as [string, string];
    const [, ...statuses] = MATRIX[route]!;
    const spec = CASES[route]!;
    const expected = Object.fromEntries(ACTORS.map((actor, i) => [actor, statuses[i]!]));
    // One fresh world per cell; the cells of a row run side by side (only the root cell acts as root).
    const cells = await Promise.all(
      ACTORS.map(async (actor) => {
        const w = await world();
        const me = actor === 'anonymous' ? null : w[actor];
        if (spec.prepare) w.prepared = await spec.prepare(w, me);
        const body = method === 'GET' ? undefined : (spec.body?.(w, me) ?? {});
        const res = await call(method, spec.path?.(w, me) ?? path, me?.token ?? null, { body, query: spec.query?.(w, me) });
        const allowed = expected[actor]! >= 200 && expected[actor]! < 300;
        let problem: string | undefined;
        try {
          // A refusal is the error shape and nothing else: no data leaks with it.
          if (res.status >= 400 && res.json) expect(Object.keys(res.json).sort()).toEqual(['error', 'success']);
          await spec.effect?.({ w, actor, me, allowed, body, res });
        } catch (err) {
          problem = `${actor}: ${(err as Error).message}`;
        }
        return { actor, status: res.status, problem };
      }),
    );
    expect(Object.fromEntries(cells.map((c) => [c.actor, c.status]))).toEqual(expected);
    expect(cells.flatMap((c) => (c.problem ? [c.problem] : []))).toEqual([]);
  }, 60_000);

  it('treats an unknown or revoked login token as anonymous', async () => {
    expect((await call('GET', '/api/user/info', 'forged-token-that-was-never-issued')).status).toBe(401);
    const w = await world();
    expect((await call('GET', '/api/user/info', w.other.token)).status).toBe(200);
    expect((await call('POST', '/api/user/delete', w.root.token, { body: { username: w.other.username } })).status).toBe(200);
    expect((await call('GET', '/api/user/info', w.other.token)).status).toBe(401);
  });

  it('accepts a signed e-mail-subscription link from anyone, and refuses a forged or reused one', async () => {
    const w = await world();
    const query = (sig: string, value: '0' | '1') => ({ email: w.owner.email, email_subscription: value, sig });
    const link = (sig: string, value: '0' | '1') => call('GET', '/api/user/update/email-subscription', null, { query: query(sig, value) });
    expect((await link('A'.repeat(43), '0')).status).toBe(403);
    // A signature for unsubscribing does not subscribe, nor work for another address.
    const unsubscribe = sign(SECRET_KEY, 'email-subscription', w.owner.email, '0');
    expect((await link(unsubscribe, '1')).status).toBe(403);
    expect((await call('GET', '/api/user/update/email-subscription', null, { query: { email: w.other.email, email_subscription: '0', sig: unsubscribe } })).status).toBe(403);
    expect((await row(w.owner.username))!.email_subscription).toBe(1);
    expect((await row(w.other.username))!.email_subscription).toBe(1);
    expect((await link(unsubscribe, '0')).status).toBe(200);
    expect((await row(w.owner.username))!.email_subscription).toBe(0);
  });
});
