// `:search` in Chinese, Japanese and Korean over real HTTP on every engine: a word inside a run
// of CJK characters (no spaces between words), of 1 character or more, mixed with Latin words,
// a Korean noun with its particle; the matched substring marked; another user's logs never
// found; the index following writes, edits and the migration (backfill, down); the scan's bound.
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient, Database, GenerateResult } from '../../src/core/index.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../../tests/fixtures/fakeOpenAI.ts';
import { engines, startTestServer, type TestServer } from '../../tests/server/support.ts';
import type { LogMatch } from './common/api.ts';
import { cjkMigration } from './server/cjkSchema.ts';
import { CJK_SCAN, CJK_SCAN_UNINDEXED } from './server/cjkSearch.ts';

type Client = ReturnType<TestServer['client']>;

let fake: FakeOpenAI;
beforeAll(async () => {
  fake = await startFakeOpenAI();
});
afterAll(async () => {
  await fake?.close();
});

describe.each(await engines())('CJK log search on %s', (engine) => {
  let t: TestServer;
  let db: Kysely<Database>;
  let ada: Client;
  let bob: Client;
  let adaId = 0;
  let bobId = 0;
  let session = Date.now() - 90_000_000;

  const account = async (username: string) => {
    const user = await t.server.accounts.create({ username, email: `${username}@example.org`, password: `${username}-password-1` });
    const client = t.client();
    await client.post('/api/user/login', { username, password: `${username}-password-1` });
    return { client, id: Number(user.user.id) };
  };

  beforeAll(async () => {
    t = await startTestServer(engine, { MODEL: 'gpt-4o-mini', OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'sk-test' });
    db = t.server.db.db;
    ({ client: ada, id: adaId } = await account('ada'));
    ({ client: bob, id: bobId } = await account('bob'));
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  const say = async (client: ApiClient, input: string) => (await client.post<GenerateResult>('/api/generate', { session: (session += 1_000), user_input: input })).result!.info;
  /** Logs written straight into the table, as an import writes them. */
  async function insert(userId: number, rows: { input: string; output?: string }[]): Promise<number> {
    const id = (session += 100_000);
    const now = Date.now();
    await db.insertInto('sessions').values({ id, parent_id: null, branch_time: null, user_id: userId, device_id: null, shared: 0, created_at: now, updated_at: now }).execute();
    for (let start = 0; start < rows.length; start += 1_000) {
      const values = rows.slice(start, start + 1_000).map((r, i) => ({
        session: id, time: id + 10 + start + i, user_id: userId, device_id: null, model: 'm', input: r.input, output: r.output ?? 'ok', images: '[]', tools: '[]', input_tokens: 0, output_tokens: 0, created_at: now,
      }));
      await db.insertInto('logs').values(values).execute();
    }
    return id;
  }
  const search = async (client: ApiClient, text: string) => (await client.get<{ logs: LogMatch[] }>('/api/log/search', { text })).result!.logs;
  const inputs = async (client: ApiClient, text: string) => (await search(client, text)).map((m) => m.snippet);
  const marked = (m: LogMatch) => m.marks.map(([s, e]) => m.snippet.slice(s, e));

  it('finds a Chinese word inside a sentence, of 1 character or more, and marks it', async () => {
    await say(ada, '我们的数据库连接超时了');
    const [found] = await search(ada, '数据库');
    expect(found).toMatchObject({ snippet: '我们的数据库连接超时了', field: 'input' });
    expect(marked(found!)).toEqual(['数据库']);
    expect(await inputs(ada, '连接 超时')).toEqual(['我们的数据库连接超时了']);
    const [one] = await search(ada, '库');
    expect(one!.snippet).toBe('我们的数据库连接超时了');
    expect(marked(one!)).toEqual(['库']);
    expect(await inputs(ada, '数据仓库')).toEqual([]);
  });

  it('finds Japanese mixing kana and kanji, and Korean nouns with their particles', async () => {
    await insert(adaId, [{ input: 'ログを見て', output: 'データベースへの接続がタイムアウトしました。設定を確認してください。' }, { input: '데이터베이스 검색을 했는데 결과가 없어요' }]);
    const [ja] = await search(ada, 'タイムアウト');
    expect(ja).toMatchObject({ field: 'output', snippet: 'データベースへの接続がタイムアウトしました。設定を確認してください。' });
    expect(marked(ja!)).toEqual(['タイムアウト']);
    expect(marked((await search(ada, '接続 確認'))[0]!)).toEqual(['接続', '確認']);
    expect(await inputs(ada, 'への接続が')).toEqual(['データベースへの接続がタイムアウトしました。設定を確認してください。']);
    const [ko] = await search(ada, '검색');
    expect(ko!.snippet).toBe('데이터베이스 검색을 했는데 결과가 없어요');
    expect(marked(ko!)).toEqual(['검색']);
    expect(await inputs(ada, '결과 데이터베이스')).toEqual(['데이터베이스 검색을 했는데 결과가 없어요']);
  });

  it('needs every word of a search mixing CJK and Latin, a word written against CJK included', async () => {
    await insert(adaId, [{ input: 'MySQL数据库的 timeout 设置' }, { input: 'PostgreSQL数据库很快' }]);
    expect(await inputs(ada, '数据库 timeout')).toEqual(['MySQL数据库的 timeout 设置']);
    expect(await inputs(ada, 'mysql数据库')).toEqual(['MySQL数据库的 timeout 设置']);
    expect((await inputs(ada, 'postgresql 数据库')).sort()).toEqual(['PostgreSQL数据库很快']);
    expect(await inputs(ada, '数据库 redis')).toEqual([]);
    const [mixed] = await search(ada, 'TIMEOUT 设置');
    expect(marked(mixed!)).toEqual(['timeout', '设置']);
  });

  it('never finds another user’s CJK logs, and follows edits and deletes', async () => {
    const id = await insert(bobId, [{ input: '鲸鱼的秘密日记' }]);
    expect(await inputs(ada, '鲸鱼的秘密')).toEqual([]);
    expect(await inputs(ada, '鲸')).toEqual([]);
    expect(await inputs(bob, '秘密')).toEqual(['鲸鱼的秘密日记']);
    await db.updateTable('logs').set({ user_id: adaId }).where('session', '=', id).execute();
    expect(await inputs(bob, '鲸鱼的秘密')).toEqual([]);
    expect(await inputs(ada, '鲸鱼的秘密')).toEqual(['鲸鱼的秘密日记']);
    await db.updateTable('logs').set({ input: 'whale diary' }).where('session', '=', id).execute();
    expect(await inputs(ada, '鲸鱼的秘密')).toEqual([]);
    await db.updateTable('logs').set({ input: '海豚的日记本' }).where('session', '=', id).execute();
    expect(await inputs(ada, '海豚的日记')).toEqual(['海豚的日记本']);
    await db.deleteFrom('logs').where('session', '=', id).execute();
    expect(await inputs(ada, '海豚的日记')).toEqual([]);
  });

  it('reads a bounded number of the user’s newest logs for a term no index finds; PostgreSQL’s words index finds any', { timeout: 120_000 }, async () => {
    // SQLite: its newest logs holding CJK text; MySQL/MariaDB: its newest logs; PostgreSQL: as many (its index must not need them).
    const scanned = engine === 'sqlite' ? CJK_SCAN : CJK_SCAN_UNINDEXED;
    const marker = await insert(adaId, [{ input: '骆驼祥子的故事' }]);
    expect(await inputs(ada, '骆')).toEqual(['骆驼祥子的故事']);
    // Logs written by a turn earlier are newer by time (MySQL reads the newest by time; SQLite by id).
    const { id, time } = await db.selectFrom('logs').select(['id', 'time']).where('session', '=', marker).executeTakeFirstOrThrow();
    const newer = await db.selectFrom('logs').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', adaId).where(engine === 'sqlite' ? 'id' : 'time', '>', engine === 'sqlite' ? id : time).executeTakeFirstOrThrow();
    await insert(adaId, Array.from({ length: scanned - 1 - Number(newer.n) }, (_, i) => ({ input: `填充 ${i}` })));
    expect(await inputs(ada, '骆')).toEqual(['骆驼祥子的故事']);
    await insert(adaId, [{ input: '填充' }]);
    expect(await inputs(ada, '骆')).toEqual(engine === 'postgres' ? ['骆驼祥子的故事'] : []);
    // SQLite's trigram index finds a term of 3 characters or more however old its log; PostgreSQL's words any term.
    expect(await inputs(ada, '骆驼祥')).toEqual(engine === 'mysql' ? [] : ['骆驼祥子的故事']);
    if (engine === 'postgres') {
      // A pair of characters in the log apart is no match: the text is checked after the index.
      await insert(adaId, [{ input: '祥子，骆驼' }]);
      expect(await inputs(ada, '骆驼祥')).toEqual(['骆驼祥子的故事']);
    }
  });

  it('indexes the CJK logs already there when its migration runs (backfill), and leaves nothing once undone', { timeout: 30_000 }, async () => {
    const migration = cjkMigration(engine, {} as never);
    await db.connection().execute(async (conn) => migration.down!(conn as never));
    await say(ada, '貘是一种动物');
    await db.connection().execute(async (conn) => migration.up(conn as never));
    expect(await inputs(ada, '一种动物')).toEqual(['貘是一种动物']);
    if (engine === 'sqlite') {
      const objects = async () => (await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE name LIKE 'logs_cjk%'`.execute(db)).rows.map((r) => r.name).sort();
      expect(await objects()).toEqual(expect.arrayContaining(['logs_cjk', 'logs_cjk_ad', 'logs_cjk_ai', 'logs_cjk_au']));
      await db.connection().execute(async (conn) => migration.down!(conn as never));
      expect(await objects()).toEqual([]);
      await db.connection().execute(async (conn) => migration.up(conn as never));
      expect(await inputs(ada, '一种动物')).toEqual(['貘是一种动物']);
      // Only logs holding CJK text are in the trigram index: ASCII or accented Latin is not.
      const latin = await insert(adaId, [{ input: 'plain ascii', output: 'naïve “quotes” 🙂' }, { input: 'question', output: '答えは東京です' }]);
      const ids = (await db.selectFrom('logs').select('id').where('session', '=', latin).orderBy('id').execute()).map((r) => Number(r.id));
      const indexed = (await sql<{ id: number }>`SELECT rowid AS id FROM logs_cjk WHERE rowid IN (${sql.join(ids)})`.execute(db)).rows.map((r) => Number(r.id));
      expect(indexed).toEqual([ids[1]]);
    }
  });
});
