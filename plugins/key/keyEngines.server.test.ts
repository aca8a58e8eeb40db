// The key plugin's table and queries on every engine the server tests use (SQLite, PostgreSQL,
// MySQL): a key made and found by its hash, a /v1 call counted in `:key ls` from the ledger's
// tagged rows, root's list with its owners (a join), a revocation, and the keys going with a
// deleted user (the foreign key's cascade, or the accounts hook).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../../tests/fixtures/fakeOpenAI.ts';
import { engines, startTestServer, type TestServer } from '../../tests/server/support.ts';
import { keysDb } from './keySupport.ts';

let fake: FakeOpenAI;
beforeAll(async () => {
  fake = await startFakeOpenAI();
  fake.always({ text: 'counted', usage: { prompt_tokens: 6, completion_tokens: 4 } });
});
afterAll(async () => fake?.close());

for (const engine of await engines()) {
  describe(`keys on ${engine}`, () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer(engine, { MODEL: 'gpt-4o-mini', OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'sk-system-key', MODEL_PRICE_INPUT: '0.001', MODEL_PRICE_OUTPUT: '0.002' });
    }, 60_000);
    afterAll(async () => server?.close());

    const json = { 'content-type': 'application/json' };
    const login = async (username: string) => {
      const { user } = await server.server.accounts.create({ username, email: `${username}@example.org`, password: `pw-${username}-secret` });
      return { user, cookie: `auth=${(await server.server.accounts.createLoginToken(user.id, 3_600_000)).token}` };
    };
    const api = async (cookie: string, path: string, body?: unknown) =>
      (await fetch(`${server.url}${path}`, { method: body === undefined ? 'GET' : 'POST', headers: { cookie, ...json }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })).json() as Promise<any>;

    it('makes, counts, lists, revokes and deletes keys', async () => {
      const { user, cookie } = await login(`eng${engine}`);
      const made = await api(cookie, '/api/key/add', { name: 'ci', expires: '30d', stores: 'a,b' });
      const key: string = made.result.key;
      const call = await fetch(`${server.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${key}`, ...json }, body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }) });
      expect(call.status).toBe(200);
      const mine = (await api(cookie, '/api/key/list')).result.keys;
      expect(mine).toEqual([expect.objectContaining({ name: 'ci', stores: 'a,b', month_tokens: 10, month_fees: 0.014 })]);
      expect(mine[0].last_used_at).toBeGreaterThan(0);
      const root = await login(`engroot${engine}`);
      await server.server.accounts.setRole(root.user, 'root_user', null);
      const all = (await api(root.cookie, '/api/key/list')).result.keys;
      expect(all).toContainEqual(expect.objectContaining({ name: 'ci', owner: user.username, month_tokens: 10 }));
      expect(JSON.stringify(all)).not.toContain(key);

      expect((await api(cookie, '/api/key/delete', { name: 'ci' })).success).toBe(true);
      expect((await fetch(`${server.url}/v1/models`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(401);
      await api(cookie, '/api/key/add', { name: 'second' });
      await server.server.accounts.delete((await server.server.accounts.byUsername(user.username))!);
      expect(await keysDb(server).selectFrom('api_keys').select('id').where('user_id', '=', user.id).execute()).toEqual([]);
    });
  });
}
