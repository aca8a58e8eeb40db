// Several instances of one deployment (REDIS_URL): two real server processes, started at once
// on one fresh PostgreSQL (and once on MariaDB) database, behind a round-robin proxy that sends
// each request to the other one. An account, a login, a chat, a setting and an upload work
// across both; failed logins are counted once across both; a presigned URL is taken once. And
// the refusals: REDIS_URL without SECRET_KEY or a shared database does not start; a Redis that
// cannot be reached falls back to counting per instance, with a warning.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../e2e/support.ts';
import { client, instance, started, type Instance } from '../fixtures/instance.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fakeOpenAI.ts';
import { startRoundRobin, type RoundRobin } from '../fixtures/roundRobin.ts';
import { engines, freshDatabase } from './support.ts';
import { REDIS_URL, redisUp } from '../fixtures/redis.ts';

const PW = 'hunter2hunter2';

let fake: FakeOpenAI;
beforeAll(async () => {
  fake = await startFakeOpenAI({ models: ['gpt-demo'] });
});
afterAll(async () => fake?.close());

const dbEngines = (await engines()).filter((e) => e !== 'sqlite');

for (const engine of redisUp ? dbEngines : []) {
  describe(`two instances on ${engine} and Redis, behind a round-robin proxy`, () => {
    let a: Instance;
    let b: Instance;
    let lb: RoundRobin;
    let drop: () => Promise<void>;
    // A fresh client address each run: the address throttle lives in Redis for 15 minutes.
    const address = `10.${randomBytes(3).join('.')}`;
    const env = (url: string) => ({
      DATABASE_URL: url,
      REDIS_URL,
      SECRET_KEY: 'one-secret-for-every-instance',
      ROOT_PASSWORD: 'root-password-1',
      TRUST_PROXY: 'true',
      MODEL: 'gpt-demo',
      OPENAI_BASE_URL: fake.url,
      OPENAI_API_KEY: 'sk-test',
    });

    beforeAll(async () => {
      const database = await freshDatabase(engine);
      drop = database.drop;
      // Started at once on an empty database: the migrations run once, not twice.
      const both = await Promise.all([instance(env(database.url)), instance(env(database.url))]);
      // One that failed to start does not leave the other running.
      if (both.some((i) => 'exitCode' in i)) await Promise.all(both.map((i) => ('stop' in i ? i.stop() : undefined)));
      [a, b] = both.map(started) as [Instance, Instance];
      lb = await startRoundRobin([a.url, b.url], address);
    }, 90_000);
    afterAll(async () => {
      await lb?.close();
      await Promise.all([a?.stop(), b?.stop()]);
      await drop?.();
    });

    it('signs up, logs in, chats and keeps settings across both, each request on the other one', async () => {
      const user = `multi${randomBytes(3).toString('hex')}`;
      const c = client(lb.url);
      expect((await c.post('/api/user/add', { username: user, email: `${user}@example.org`, password: PW })).status).toBe(200);
      expect((await c.post('/api/user/login', { username: user, password: PW })).status).toBe(200);
      // The login cookie one instance set opens the account on the other (one SECRET_KEY, one database).
      for (let i = 0; i < 4; i++) expect(((await (await c.get('/api/user/info')).json()) as { result: { username: string } }).result.username).toBe(user);
      // A setting saved through one is read through the other at once.
      expect((await c.post('/api/user/update/setting', { key: 'theme', value: 'dark' })).status).toBe(200);
      const seen = (await (await c.get('/api/user/info')).json()) as { result: { settings: { theme: string } } };
      expect(seen.result.settings.theme).toBe('dark');
      fake.reply({ text: 'Answered by one of two.' });
      const answer = (await (await c.post('/api/generate', { session: 1_800_000_000_001, user_input: 'hello' })).json()) as { result: { text: string } };
      expect(answer.result.text).toBe('Answered by one of two.');
      expect(new Set(lb.served)).toEqual(new Set([0, 1]));
    });

    it('counts failed logins once across both: the sixth try is refused whichever instance takes it', async () => {
      const user = `throttled${randomBytes(3).toString('hex')}`;
      const c = client(lb.url);
      await c.post('/api/user/add', { username: user, email: `${user}@example.org`, password: PW });
      const before = lb.served.length;
      for (let i = 0; i < 5; i++) expect((await c.post('/api/user/login', { username: user, password: 'wrong-password-1' })).status).toBe(401);
      // The five went to both instances, alternately.
      expect(new Set(lb.served.slice(before))).toEqual(new Set([0, 1]));
      // Straight to each instance, as the proxy would forward it from the same client address.
      const login = (base: string, from: string) =>
        fetch(`${base}/api/user/login`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': from }, body: JSON.stringify({ username: user, password: PW }) });
      for (const direct of [a.url, b.url]) expect((await login(direct, address)).status, direct).toBe(429);
      // The lock-out is that address's (issue 34): the owner elsewhere still logs in.
      expect((await login(a.url, `10.${randomBytes(3).join('.')}`)).status).toBe(200);
    });

    it('takes a presigned upload URL once, when both instances are sent it at once', async () => {
      const c = client(lb.url);
      const query = new URLSearchParams({ fileName: 'note.txt', contentType: 'text/plain' });
      const signed = ((await (await c.get(`/api/file/generate-presigned-url?${query}`)).json()) as { result: { url: string } }).result;
      const path = new URL(signed.url).pathname + new URL(signed.url).search;
      const put = (base: string) => fetch(`${base}${path}`, { method: 'PUT', headers: { 'content-type': 'text/plain' }, body: 'written once' });
      const statuses = (await Promise.all([put(a.url), put(b.url)])).map((r) => r.status).sort();
      expect(statuses).toEqual([200, 403]);
    });
  });
}

// Skipped only without Redis or PostgreSQL, never under CI=true (both required then: see above and engines()).
describe.skipIf(!redisUp || !dbEngines.includes('postgres'))('starting an instance of several', () => {
  it('refuses to start with REDIS_URL but without SECRET_KEY or a shared database, saying what is missing', async () => {
    const refused = await instance({ REDIS_URL });
    expect(refused).toMatchObject({ exitCode: 1 });
    const logs = (refused as { logs: string }).logs;
    // One line per fault, each naming its variable (issue 33: operator errors are one line each).
    expect(logs).toBe(
      'shellchat cannot start: SECRET_KEY is unset, and REDIS_URL makes this one of several instances: set the same SECRET_KEY on each (it signs links and cookies and seals keys at rest; one generated in each DATA_DIR would differ)\n' +
        "shellchat cannot start: DATABASE_URL must be a PostgreSQL or MySQL/MariaDB database the instances share, as REDIS_URL makes this one of several instances (the embedded SQLite is one machine's)\n",
    );
  }, 30_000);

  it('starts without Redis reachable, warns, and counts failed logins in the instance meanwhile', async () => {
    const database = await freshDatabase('postgres');
    const port = await freePort();
    const lone = started(await instance({ DATABASE_URL: database.url, REDIS_URL: `redis://127.0.0.1:${port}`, SECRET_KEY: 'a-secret', ROOT_PASSWORD: 'root-password-1' }));
    try {
      const c = client(lone.url);
      const user = `lone${randomBytes(3).toString('hex')}`;
      await c.post('/api/user/add', { username: user, email: `${user}@example.org`, password: PW });
      for (let i = 0; i < 5; i++) expect((await c.post('/api/user/login', { username: user, password: 'wrong-password-1' })).status).toBe(401);
      expect((await c.post('/api/user/login', { username: user, password: PW })).status).toBe(429);
      expect(lone.logs()).toContain('Redis cannot be reached: login throttling counts per instance until it is back');
    } finally {
      await lone.stop();
      await database.drop();
    }
  }, 60_000);
});
