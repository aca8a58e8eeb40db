// What the key plugin's tests share: a user signed up through the shell with a key made by
// `:key add`, the ledger rows of a key, and a raw call to the server's /v1 API.
import { expect } from 'vitest';
import type { Output } from '../../src/core/index.ts';
import { createShellTester } from '../../tests/harness/shellTester.ts';
import type { TestServer } from '../../tests/server/support.ts';
import type { KeysDb } from './server/table.ts';

export const PW = 'hunter2hunter2';
let seq = 0;

export type Tester = Awaited<ReturnType<typeof createShellTester>> & { username: string };

export async function signedUp(server: TestServer, prefix = 'keyer'): Promise<Tester> {
  const username = `${prefix}${++seq}`;
  const t = await createShellTester({ plugins: ['general', 'user', 'session', 'key'], serverUrl: server.url });
  expect((await t.run(`:user add ${username} ${username}@example.org ${PW}`)).text).toBe(`User ${username} added.`);
  expect((await t.run(`:login ${username} ${PW}`)).text).toBe(`Logged in as ${username}.`);
  return Object.assign(t, { username });
}

/** `:key add` and the key it showed once. */
export async function addKey(t: Tester, line: string): Promise<string> {
  const out = await t.run(line);
  expect(out.errors).toEqual([]);
  const shown = out.outputs.filter((o): o is Extract<Output, { kind: 'text' }> => o.kind === 'text').map((o) => o.text);
  const key = shown.find((s) => s.startsWith('sk-sc-'));
  expect(key).toMatch(/^sk-sc-[A-Za-z0-9_-]{43}$/);
  return key!;
}

export const keysDb = (server: TestServer) => server.server.db.db as unknown as KeysDb;

export async function keyRow(server: TestServer, prefixOfKey: string) {
  return keysDb(server).selectFrom('api_keys').selectAll().where('prefix', '=', prefixOfKey.slice(0, 12)).executeTakeFirstOrThrow();
}

/** The usage ledger's rows of a key's calls. */
export async function ledgerOf(server: TestServer, key: string) {
  const row = await keyRow(server, key);
  return server.server.db.db.selectFrom('usage').selectAll().where('tag', '=', `key:${row.id}`).orderBy('id').execute();
}

/** A raw call to /v1 (for the error shapes and headers). */
export async function v1(server: TestServer, path: string, key: string | undefined, body?: unknown): Promise<{ status: number; json: any; headers: Headers }> {
  const res = await fetch(`${server.url}/v1${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: res.status, json, headers: res.headers };
}

export const ask = (text: string, extra: Record<string, unknown> = {}) => ({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: text }], ...extra });
