// The authorization matrix with key actors (issue 36): each route, called with the owner's own
// key, another user's key, the owner's revoked key, the owner's expired key, and the owner's key
// scoped to another model; the status each must get and what must not have changed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../../tests/fixtures/fakeOpenAI.ts';
import { startTestServer, type TestServer } from '../../tests/server/support.ts';
import { keyRow, keysDb } from './keySupport.ts';

const KEY_ACTORS = ['own', 'another', 'revoked', 'expired', 'scoped'] as const;
type KeyActor = (typeof KEY_ACTORS)[number];

let fake: FakeOpenAI;
let server: TestServer;
const now = Date.now();

beforeAll(async () => {
  fake = await startFakeOpenAI();
  fake.always({ text: 'ok' });
  const env = { MODEL: 'gpt-4o-mini', OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'sk-system-key', MODELS: JSON.stringify([{ name: 'gpt-4o', provider: 'openai-compatible', base_url: fake.url }]) };
  server = await startTestServer('sqlite', env, [], { clock: () => now });
}, 60_000);

afterAll(async () => {
  await Promise.all([server?.close(), fake?.close()]);
});

interface KeyWorld {
  ownerId: number;
  keys: Record<KeyActor, string>;
}

let seq = 0;
/** A user and their login, made directly (the sign-up throttle is not what is tested here). */
async function person(prefix: string): Promise<{ id: number; cookie: string }> {
  const username = `${prefix}${++seq}`;
  const { user } = await server.server.accounts.create({ username, email: `${username}@example.org`, password: `pw-${username}-secret` });
  const { token } = await server.server.accounts.createLoginToken(user.id, 3_600_000);
  return { id: user.id, cookie: `auth=${token}` };
}

/** `:key add`'s request with a login: the key, shown once. */
async function addKey(cookie: string, body: Record<string, unknown>): Promise<string> {
  const res = await fetch(`${server.url}/api/key/add`, { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const key = ((await res.json()) as { result: { key: string } }).result.key;
  expect(key).toMatch(/^sk-sc-/);
  return key;
}

/** A fresh owner with a live, a revoked, an expired and a scoped key, and another user with a key. */
async function keyWorld(): Promise<KeyWorld> {
  const [owner, other] = await Promise.all([person('kowner'), person('kother')]);
  const own = await addKey(owner.cookie, { name: 'own' });
  const revoked = await addKey(owner.cookie, { name: 'revoked' });
  await fetch(`${server.url}/api/key/delete`, { method: 'POST', headers: { cookie: owner.cookie, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'revoked' }) });
  const expired = await addKey(owner.cookie, { name: 'expired', expires: '1h' });
  await keysDb(server).updateTable('api_keys').set({ expires_at: now - 1 }).where('prefix', '=', expired.slice(0, 12)).execute();
  const scoped = await addKey(owner.cookie, { name: 'scoped', model: 'gpt-4o-mini' });
  const another = await addKey(other.cookie, { name: 'theirs' });
  return { ownerId: owner.id, keys: { own, another, revoked, expired, scoped } };
}

interface Route {
  method: 'GET' | 'POST';
  path: (w: KeyWorld) => Promise<string> | string;
  body?: unknown;
  statuses: Record<KeyActor, number>;
  effect?: (w: KeyWorld, actor: KeyActor, res: { status: number; text: string }) => Promise<void>;
}

const liveNames = async (w: KeyWorld) =>
  (await keysDb(server).selectFrom('api_keys').select('name').where('user_id', '=', w.ownerId).where('revoked', '=', 0).execute()).map((r) => r.name);

// prettier-ignore
const ROUTES: Record<string, Route> = {
  'GET /api/key/list': {
    method: 'GET', path: () => '/api/key/list',
    statuses: { own: 200, another: 200, revoked: 401, expired: 401, scoped: 200 },
    effect: async (w, actor, res) => {
      for (const secret of Object.values(w.keys)) expect(res.text).not.toContain(secret);
      // Another user's key lists that user's keys, never the owner's.
      if (actor === 'another') expect(res.text).not.toContain('"own"');
    },
  },
  'POST /api/key/add': {
    method: 'POST', path: () => '/api/key/add', body: { name: 'by-key' },
    statuses: { own: 403, another: 403, revoked: 401, expired: 401, scoped: 403 },
    effect: async (w) => expect(await liveNames(w)).not.toContain('by-key'),
  },
  'POST /api/key/delete': {
    method: 'POST', path: () => '/api/key/delete', body: { name: 'own' },
    statuses: { own: 403, another: 403, revoked: 401, expired: 401, scoped: 403 },
    effect: async (w) => expect(await liveNames(w)).toContain('own'),
  },
  'GET /v1/models': {
    method: 'GET', path: () => '/v1/models',
    statuses: { own: 200, another: 200, revoked: 401, expired: 401, scoped: 200 },
    effect: async (_w, actor, res) => {
      if (actor === 'scoped') expect(JSON.parse(res.text).data.map((m: { id: string }) => m.id)).toEqual(['gpt-4o-mini']);
    },
  },
  'POST /v1/chat/completions': {
    method: 'POST', path: () => '/v1/chat/completions', body: { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] },
    statuses: { own: 200, another: 200, revoked: 401, expired: 401, scoped: 403 },
  },
  "GET /api/session/:id (the own key's session)": {
    method: 'GET',
    // The owner's key session, once a call was logged in it.
    path: async (w) => {
      await fetch(`${server.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${w.keys.own}`, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'logged' }] }) });
      return `/api/session/${(await keyRow(server, w.keys.own)).session}`;
    },
    statuses: { own: 200, another: 404, revoked: 401, expired: 401, scoped: 200 },
  },
};

describe('authorization with key actors', () => {
  it.each(Object.keys(ROUTES))('%s', async (name) => {
    const route = ROUTES[name]!;
    const problems: string[] = [];
    for (const actor of KEY_ACTORS) {
      const w = await keyWorld();
      const res = await fetch(`${server.url}${await route.path(w)}`, {
        method: route.method,
        headers: { authorization: `Bearer ${w.keys[actor]}`, ...(route.body ? { 'content-type': 'application/json' } : {}) },
        ...(route.body ? { body: JSON.stringify(route.body) } : {}),
      });
      const text = await res.text();
      if (res.status !== route.statuses[actor]) problems.push(`${actor}: ${res.status} (expected ${route.statuses[actor]}) ${text.slice(0, 200)}`);
      try {
        await route.effect?.(w, actor, { status: res.status, text });
      } catch (err) {
        problems.push(`${actor}: ${(err as Error).message}`);
      }
    }
    expect(problems).toEqual([]);
  }, 60_000);
});
