// Support for the authorization matrix (security.md §6 #12), split by area over the
// authz.*.test.ts files: every API route the server registers, and for each actor what the
// server must answer. Each cell runs in a fresh world of users, so mutating routes (delete,
// logout, password changes) cannot leak into other cells; after each request the test also
// checks what changed, so an "allowed" that acts on the wrong user, or a "denied" that still
// changes something, fails. A route the tables do not list fails too (authz.completeness.test.ts).
//
// Actors: anonymous (no cookie); owner (the user acted upon); other (an unrelated user);
// member (a user who joined the owner's group with the owner's group password); root.
// Scopes: public (no user involved); self (acts on the caller only: a `username` naming the
// owner in the body is ignored, the owner stays untouched); owner (names the owner as target);
// link (authorized by a token from an e-mail sent to the owner, whoever follows it).
//
// This module holds the machinery: the server with its mail catcher, `call`, the world of
// actors, the seeds several areas share, and `runMatrix`, which turns a table into tests.
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../server/support.ts';
import appConfig from '../../app.config.ts';
import { pluginFile } from '../../src/core/pluginLayout.ts';
import type { ModelsDb } from '../../plugins/model/server/table.ts';

export const ACTORS = ['anonymous', 'owner', 'other', 'member', 'root'] as const;
export type Actor = (typeof ACTORS)[number];
type Scope = 'public' | 'self' | 'owner' | 'link';
export type Row = [scope: Scope, anonymous: number, owner: number, other: number, member: number, root: number];
/** Per route (`METHOD /path`): the scope and the status each actor must get. */
export type Matrix = Record<string, Row>;

export const ROOT_PASSWORD = 'root-password-1';
export const SECRET_KEY = 'authz-test-secret-key';

export interface Person {
  username: string;
  email: string;
  password: string;
  token: string;
  id: number;
}
export interface World {
  owner: Person;
  other: Person;
  member: Person;
  root: Person;
  /** The owner's group password, as the owner's own /api/user/info shows it. */
  groupPassword: string;
  /** What `prepare` found (e-mail link tokens). */
  prepared: Record<string, string>;
}
export interface Result {
  status: number;
  text: string;
  json: Record<string, unknown> | undefined;
  headers: Headers;
}
export interface Cell {
  w: World;
  actor: Actor;
  /** The acting user; null for anonymous. */
  me: Person | null;
  allowed: boolean;
  body: unknown;
  res: Result;
}
export interface Case {
  /** The concrete path, for routes with parameters. */
  path?(w: World, me: Person | null): string;
  /** Runs before the request; root is shared by the cells of a row, so touch root only as `me`. */
  prepare?(w: World, me: Person | null): Promise<Record<string, string>>;
  query?(w: World, me: Person | null): Record<string, string>;
  body?(w: World, me: Person | null): unknown;
  /** What must (not) have changed after the request. */
  effect?(cell: Cell): Promise<void>;
}
/** Per route: how its cells are set up and checked. */
export type Cases = Record<string, Case>;

/** The server of the current test file (each file starts its own). */
export let t: TestServer;
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
export const mailsTo = (address: string) => mails.filter((m) => m.to.includes(address));
export function linkToken(address: string, path: string): string {
  const mail = mailsTo(address).at(-1);
  const match = mail?.text.match(new RegExp(`${path.replaceAll('/', '\\/')}\\?token=([A-Za-z0-9_-]+)`));
  if (!match) throw new Error(`no ${path} link was mailed to ${address}`);
  return match[1]!;
}

/** Starts the mail catcher and the server (SQLite); for beforeAll, with stopAuthzServer in afterAll. */
export function startAuthzServer(): Promise<void> {
  return startAuthzServerWith({});
}

/** The same, with more of the server's environment (the payments area turns subscriptions on). */
export async function startAuthzServerWith(env: Record<string, string>): Promise<void> {
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
  t = await startTestServer('sqlite', { ROOT_PASSWORD, SECRET_KEY, SMTP_URL: `smtp://127.0.0.1:${port}`, ...env });
}
export async function stopAuthzServer(): Promise<void> {
  await t?.close();
  await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
}

export async function call(method: string, path: string, cookie: string | null, options: { body?: unknown; query?: Record<string, string> } = {}): Promise<Result> {
  const url = new URL(path, t.url);
  for (const [k, v] of Object.entries(options.query ?? {})) url.searchParams.set(k, v);
  const headers: Record<string, string> = {};
  if (cookie) headers.cookie = `auth=${cookie}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  // A route's own answer: a redirect (the sign-on's) is the status, not where it sends the browser.
  const res = await fetch(url, { method, headers, redirect: 'manual', body: options.body === undefined ? undefined : JSON.stringify(options.body) });
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
/** A number not used before in this file: for unique user, model, store and node names. */
export const nextSeq = () => ++seq;
async function person(prefix: string): Promise<Person> {
  const username = `${prefix}${nextSeq()}`;
  const email = `${username}@example.org`;
  const password = `pw-${username}-secret`;
  const { user } = await t.server.accounts.create({ username, email, password });
  const { token } = await t.server.accounts.createLoginToken(user.id, 3_600_000);
  return { username, email, password, token, id: user.id };
}

export async function world(): Promise<World> {
  const [owner, other, member] = await Promise.all([person('owner'), person('other'), person('member')]);
  const rootRow = (await t.server.accounts.byUsername('root'))!;
  const root = { username: 'root', email: rootRow.email, password: ROOT_PASSWORD, token: (await t.server.accounts.createLoginToken(rootRow.id, 3_600_000)).token, id: rootRow.id };
  const info = await call('GET', '/api/user/info', owner.token);
  const groupPassword = String((info.json?.result as { settings: { groupPassword: string } }).settings.groupPassword);
  const joined = await call('POST', '/api/user/group/join', member.token, { body: { group: owner.username, password: groupPassword } });
  if (joined.status !== 200) throw new Error(`setup: the member could not join the owner's group: ${joined.text}`);
  return { owner, other, member, root, groupPassword, prepared: {} };
}

export const row = (username: string) => t.server.accounts.byUsername(username);
export const resultOf = <T,>(res: Result) => res.json?.result as T;

/** Model rows: the owner's model (with a sealed key) and the owner's group's model. */
/** An unshared session of the owner with two logs, written straight to the database. */
let lastSession = Date.now() - 50_000_000;
export async function ownerSession(w: World): Promise<Record<string, string>> {
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

export const MODEL_KEY = 'sk-owner-model-key-0123456789';
export async function seedModels(w: World): Promise<Record<string, string>> {
  const group = await t.server.db.db.selectFrom('groups').select('id').where('name', '=', w.owner.username).executeTakeFirstOrThrow();
  const now = Date.now();
  const model = { provider: 'openai-compatible', model: 'owner-model', base_url: 'https://8.8.8.8/v1', api_key: t.server.models.sealKey(MODEL_KEY), price_input: 0, price_output: 0, capabilities: '{}', created_at: now, updated_at: now };
  await (t.server.db.db as ModelsDb)
    .insertInto('models')
    .values([
      { ...model, name: 'owner-model', scope: 'user', owner_id: w.owner.id },
      { ...model, name: 'group-model', scope: 'group', owner_id: group.id },
    ])
    .execute();
  return { group: String(group.id) };
}
export const modelsOf = (ownerId: number, scope = 'user') => (t.server.db.db as ModelsDb).selectFrom('models').selectAll().where('scope', '=', scope).where('owner_id', '=', ownerId).execute();

/** One test per route of the table, in table order: call inside the file's describe block. */
export function runMatrix(matrix: Matrix, cases: Cases): void {
  it.each(Object.keys(matrix))('%s', async (route) => {
    const [method, path] = route.split(' ') as [string, string];
    const [, ...statuses] = matrix[route]!;
    const spec = cases[route]!;
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
          // A refusal is the error shape and nothing else: no data leaks with it. A catalogue
          // message's code comes with its values, each of them already in its English text.
          if (res.status >= 400 && res.json && path.startsWith('/v1/')) {
            // The OpenAI-compatible API (the key plugin) refuses in OpenAI's shape, and only so.
            expect(Object.keys(res.json)).toEqual(['error']);
            expect(Object.keys(res.json.error as object).sort()).toEqual(['code', 'message', 'param', 'type']);
          } else if (res.status >= 400 && res.json) {
            expect(Object.keys(res.json).filter((k) => k !== 'code' && k !== 'params').sort()).toEqual(['error', 'success']);
            const params = (res.json.params ?? {}) as Record<string, unknown>;
            for (const value of Object.values(params)) {
              expect(String(res.json.error)).toContain(typeof value === 'object' ? String((value as { text: string }).text) : String(value));
            }
          }
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
}

/** What the server of a plugin's matrix needs besides the defaults (the subscription plugin's fake PayPal). */
export interface AuthzServer {
  start(): Promise<Record<string, string>>;
  stop(): Promise<void>;
}

/** A plugin's rows of the matrix: its `plugins/<id>/authz.ts`. */
export interface PluginAuthz {
  id: string;
  matrix: Matrix;
  cases: Cases;
  server?: AuthzServer;
}

/** The matrix rows of every plugin of the app's configuration that has routes, each in its own folder. */
export async function pluginAuthz(): Promise<PluginAuthz[]> {
  const root = path.resolve(import.meta.dirname, '../..');
  const found: PluginAuthz[] = [];
  for (const id of appConfig.plugins) {
    const file = path.join(root, pluginFile(id, 'authz'));
    if (existsSync(file)) found.push({ id, ...((await import(file)) as Omit<PluginAuthz, 'id'>) });
  }
  return found;
}
