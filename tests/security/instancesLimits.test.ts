// Issue 34, items 2 and 3 across instances: two real server processes of one deployment
// (REDIS_URL, one SECRET_KEY, one PostgreSQL or MariaDB database) behind a round-robin proxy,
// so that requests sent at once alternate between them. The limits are counted in the shared
// database under its locks, so the two together let through no more than one would: 3 of 20
// questions of a user, 4 of 20 of visitors with fresh cookies at one address (2 visitors' worth
// of 2), and 3 MB of 14 uploads of 1 MB from that address.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase, type Db } from '../../src/server/db/connect.ts';
import { cookieFetch } from '../harness/shellTester.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fakeOpenAI.ts';
import { startRoundRobin, type RoundRobin } from '../fixtures/roundRobin.ts';
import { startServerProcess, type ServerProcess } from '../fixtures/serverProcess.ts';
import { engines, freshDatabase } from '../server/support.ts';
import { REDIS_URL, redisUp } from '../fixtures/redis.ts';

const dbEngines = (await engines()).filter((e) => e !== 'sqlite');
if (!redisUp) console.warn('[instancesLimits] skipping: Redis does not answer');

for (const engine of redisUp ? dbEngines : []) {
  describe(`limits across two instances on ${engine} and Redis`, () => {
    let fake: FakeOpenAI;
    let instances: ServerProcess[] = [];
    let lb: RoundRobin;
    let db: Db;
    let drop: () => Promise<void>;

    beforeAll(async () => {
      fake = await startFakeOpenAI({ models: ['gpt-demo'] });
      // Slow answers: the 20 questions are all under way together.
      fake.always({ text: 'ok', firstDelayMs: 300 });
      const database = await freshDatabase(engine);
      drop = database.drop;
      const env = {
        DATABASE_URL: database.url,
        REDIS_URL,
        SECRET_KEY: 'one-secret-for-every-instance',
        ROOT_PASSWORD: 'root-password-1',
        TRUST_PROXY: 'true',
        MODEL: 'gpt-demo',
        OPENAI_BASE_URL: fake.url,
        OPENAI_API_KEY: 'sk-test',
        USAGE_LIMITS: 'user:3,-,-;anonymous:2,-,-',
        // The caps on answers in flight (answerCaps.test.ts) would refuse most of 20 questions at
        // once before the limit is asked: lifted, so that these count the usage limit alone.
        MAX_ANSWERS_PER_USER: '0',
        MAX_ANSWERS_PER_VISITOR: '0',
        MAX_ANSWERS_PER_ADDRESS: '0',
        VISITORS_PER_ADDRESS: '2',
        UPLOAD_QUOTA_MB: '2',
        UPLOAD_ADDRESS_QUOTA_MB: '3',
      };
      const started = await Promise.allSettled([startServerProcess(env), startServerProcess(env)]);
      instances = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
      for (const s of started) if (s.status === 'rejected') throw s.reason;
      // One client address for the whole run, fresh each run.
      lb = await startRoundRobin(instances.map((i) => i.url), `10.${randomBytes(3).join('.')}`);
      db = await connectDatabase(database.url, '');
    }, 120_000);
    afterAll(async () => {
      await lb?.close();
      await Promise.all(instances.map((i) => i.stop()));
      await db?.close();
      await drop?.();
      await fake?.close();
    });

    const client = () => {
      const jar = cookieFetch();
      const send = (method: string, path: string, body?: unknown) =>
        jar(`${lb.url}${path}`, { method, headers: { 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
      return { jar, send };
    };
    /** 20 questions at once; how many were answered, and how many reached the provider. */
    const twenty = async (asker: () => ReturnType<typeof client>) => {
      const before = fake.requests.length;
      const servedFrom = lb.served.length;
      const session = 1_800_000_000_000 + Math.floor(Math.random() * 1_000_000);
      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => asker().send('POST', '/api/generate', { session: session + i, user_input: `q${i}` })));
      // Both instances took some.
      expect(new Set(lb.served.slice(servedFrom))).toEqual(new Set([0, 1]));
      return { answered: answers.filter((r) => r.status === 200).length, asked: fake.requests.length - before };
    };

    it('lets 3 of a user’s 20 questions through, whichever instance takes each', async () => {
      const name = `racer${randomBytes(3).toString('hex')}`;
      const c = client();
      expect((await c.send('POST', '/api/user/add', { username: name, email: `${name}@example.org`, password: 'racer-password-1' })).status).toBe(200);
      expect((await c.send('POST', '/api/user/login', { username: name, password: 'racer-password-1' })).status).toBe(200);
      expect(await twenty(() => c)).toEqual({ answered: 3, asked: 3 });
      const user = await db.db.selectFrom('users').select('id').where('username', '=', name).executeTakeFirstOrThrow();
      const uses = await db.db.selectFrom('usage').select(['log_id', 'model']).where('user_id', '=', user.id).where('kind', '=', 'chat').execute();
      expect(uses).toHaveLength(3);
      for (const use of uses) expect(use).toMatchObject({ model: 'gpt-demo', log_id: expect.anything() });
      expect(await db.db.selectFrom('logs').select('id').where('user_id', '=', user.id).execute()).toHaveLength(3);
    }, 60_000);

    it('lets 4 of 20 questions from visitors with fresh cookies at one address through', async () => {
      expect(await twenty(client)).toEqual({ answered: 4, asked: 4 });
      expect(await db.db.selectFrom('usage').select('id').where('user_id', 'is', null).where('kind', '=', 'chat').execute()).toHaveLength(4);
    }, 60_000);

    it('keeps 14 uploads of 1 MB with fresh cookies from one address within its 3 MB', async () => {
      const clients = Array.from({ length: 14 }, client);
      const query = new URLSearchParams({ fileName: 'notes.txt', contentType: 'text/plain' });
      const signed = await Promise.all(clients.map(async (c) => ((await (await c.send('GET', `/api/file/generate-presigned-url?${query}`)).json()) as { result: { url: string } }).result.url));
      const puts = await Promise.all(
        signed.map((url) => {
          const { pathname, search } = new URL(url);
          return fetch(`${lb.url}${pathname}${search}`, { method: 'PUT', headers: { 'content-type': 'text/plain' }, body: Buffer.alloc(1024 * 1024, 97) });
        }),
      );
      expect(puts.filter((r) => r.status === 200)).toHaveLength(3);
      const held = await db.db.selectFrom('uploads').select((eb) => eb.fn.sum<number | string | null>('size').as('bytes')).where('user_id', 'is', null).executeTakeFirst();
      expect(Number(held?.bytes)).toBe(3 * 1024 * 1024);
    }, 60_000);
  });
}
