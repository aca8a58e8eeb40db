// `:search`'s API over real HTTP on every engine: one's own logs only (root too), a visitor's
// logs found once adopted at login, every word needed, ranking, snippets with the matched words'
// ranges (the text as it is: the page renders it as text), hostile queries, short words and
// stopwords (InnoDB), edits and deletes followed by the index, backfill by the migration, bounds.
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient, Database, GenerateResult } from '../../src/core/index.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../../tests/fixtures/fakeOpenAI.ts';
import { engines, failure, startTestServer, type TestServer } from '../../tests/server/support.ts';
import { SEARCH_RESULTS_MAX, SEARCH_TEXT_MAX, type LogMatch, type OpenedLog } from './common/api.ts';
import { pgWordsMigration } from './server/pgWords.ts';
import { searchMigration } from './server/schema.ts';
import { RANKED_MAX } from './server/search.ts';

type Client = ReturnType<TestServer['client']>;

let fake: FakeOpenAI;
beforeAll(async () => {
  fake = await startFakeOpenAI();
});
afterAll(async () => {
  await fake?.close();
});

describe.each(await engines())('log search on %s', (engine) => {
  let t: TestServer;
  let db: Kysely<Database>;
  let ada: Client;
  let bob: Client;
  let root: Client;
  let adaId = 0;
  let session = Date.now() - 50_000_000;

  const login = async (client: Client, username: string) => client.post('/api/user/login', { username, password: `${username}-password-1` });
  const account = async (username: string) => {
    const user = await t.server.accounts.create({ username, email: `${username}@example.org`, password: `${username}-password-1` });
    const client = t.client();
    await login(client, username);
    return { client, id: Number(user.user.id) };
  };

  beforeAll(async () => {
    t = await startTestServer(engine, { MODEL: 'gpt-4o-mini', OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'sk-test' });
    db = t.server.db.db;
    const a = await account('ada');
    [ada, adaId] = [a.client, a.id];
    bob = (await account('bob')).client;
    root = t.client();
    await t.client().post('/api/user/login', { username: 'root', password: 'root-password-1' });
    await login(root, 'root');
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  /** One chat turn through POST /api/generate (the turn's own write path); the fake answers "You said: <input>". */
  const say = async (client: ApiClient, input: string, id = (session += 1_000)) =>
    (await client.post<GenerateResult>('/api/generate', { session: id, user_input: input })).result!.info;
  /** Logs written as an import writes them: straight into the table (no hook of this plugin's runs). */
  async function insert(userId: number, rows: { input: string; output?: string }[]): Promise<number> {
    const id = (session += 1_000);
    const now = Date.now();
    await db.insertInto('sessions').values({ id, parent_id: null, branch_time: null, user_id: userId, device_id: null, shared: 0, created_at: now, updated_at: now }).execute();
    for (const [i, r] of rows.entries()) {
      await db
        .insertInto('logs')
        .values({ session: id, time: id + 10 + i, user_id: userId, device_id: null, model: 'm', input: r.input, output: r.output ?? 'ok', images: '[]', tools: '[]', input_tokens: 0, output_tokens: 0, created_at: now })
        .execute();
    }
    return id;
  }
  const search = async (client: ApiClient, text: string) => (await client.get<{ logs: LogMatch[] }>('/api/log/search', { text })).result!.logs;
  const inputs = async (client: ApiClient, text: string) => (await search(client, text)).map((m) => m.snippet);
  const marked = (m: LogMatch) => m.marks.map(([s, e]) => m.snippet.slice(s, e));

  it('finds the caller’s own logs only, in questions and answers, every word needed; root finds its own only', async () => {
    const first = await say(ada, 'Where is Zanzibar on the map?');
    await say(bob, 'Zanzibar spices for Bob');
    await insert(adaId, [{ input: 'travel notes', output: 'Zanzibar has a stone town' }]);
    const found = await search(ada, 'zanzibar');
    expect(found).toHaveLength(2);
    expect(found.map((m) => m.field).sort()).toEqual(['input', 'output']);
    expect(found.find((m) => m.field === 'input')).toMatchObject({ session: first.session, time: first.time, title: 'Where is Zanzibar on the map?' });
    expect(await inputs(ada, 'zanzibar spices')).toEqual([]);
    expect(await inputs(ada, 'zanzibar stone')).toEqual(['Zanzibar has a stone town']);
    expect(await inputs(bob, 'ZANZIBAR')).toEqual(['Zanzibar spices for Bob']);
    expect(await search(root, 'zanzibar')).toEqual([]);
    expect(await failure(t.client().get('/api/log/search', { text: 'zanzibar' }))).toEqual({ status: 401, error: 'Please login.' });
    expect((await failure(ada.get('/api/log/search', { text: ' ' }))).status).toBe(400);
    expect((await failure(ada.get('/api/log/search', { text: 'z'.repeat(SEARCH_TEXT_MAX + 1) }))).status).toBe(400);
    // Opening: one's own log, with its session's newest time; nobody else's.
    const opened = (await ada.get<OpenedLog>('/api/log/search/open', { session: String(first.session), time: String(first.time) })).result!;
    expect(opened).toMatchObject({ session: first.session, time: first.time, input: 'Where is Zanzibar on the map?', output: 'You said: Where is Zanzibar on the map?', head: first.time });
    expect(await failure(bob.get('/api/log/search/open', { session: String(first.session), time: String(first.time) }))).toEqual({ status: 404, error: 'No log found.' });
  });

  it('finds what a visitor asked once the account that logs in on that browser adopted it', async () => {
    const visitor = t.client();
    await say(visitor, 'Quokka facts before signing up');
    expect((await failure(visitor.get('/api/log/search', { text: 'quokka' }))).status).toBe(401);
    await t.server.accounts.create({ username: 'cleo', email: 'cleo@example.org', password: 'cleo-password-1' });
    await login(visitor, 'cleo');
    expect(await inputs(visitor, 'quokka')).toEqual(['Quokka facts before signing up']);
    expect(await search(ada, 'quokka')).toEqual([]);
  });

  it('ranks the better match first, and marks the matched words in a plain-text snippet', async () => {
    await insert(adaId, [
      { input: 'a long story', output: `${'filler words here and there '.repeat(40)} then a wombat appears` },
      { input: 'Wombat care: feeding a wombat', output: 'wombat diet and wombat burrows' },
    ]);
    const [best, next] = await search(ada, 'wombat');
    expect(best!.snippet).toBe('Wombat care: feeding a wombat');
    expect(marked(best!)).toEqual(['Wombat', 'wombat']);
    // Cut around the match, on one line, with the cut said.
    expect(next!.snippet.startsWith('…')).toBe(true);
    expect(next!.snippet.length).toBeLessThanOrEqual(162);
    expect(marked(next!)).toEqual(['wombat']);
    // Markup in a log is text: it comes back as written, and only words are marked.
    await insert(adaId, [{ input: '<img src=x onerror=alert(1)> <b>okapi</b> &amp; **okapi**' }]);
    const [html] = await search(ada, 'okapi');
    expect(html!.snippet).toBe('<img src=x onerror=alert(1)> <b>okapi</b> &amp; **okapi**');
    expect(marked(html!)).toEqual(['okapi', 'okapi']);
    // Case does not matter; accents neither (PostgreSQL's words are folded by the server as the terms are).
    await insert(adaId, [{ input: 'Crème brûlée über alles' }]);
    expect(await inputs(ada, 'CRÈME Brûlée')).toEqual(['Crème brûlée über alles']);
    expect(await inputs(ada, 'creme brulee uber')).toEqual(['Crème brûlée über alles']);
  });

  it('takes any query without an error: FTS syntax is only words', async () => {
    await insert(adaId, [{ input: 'the ship is NEAR the harbour, not far (or is it?) - said "captain" * 3' }]);
    const hostile = ['"', '""', '"unbalanced', '*', 'harb*', 'NEAR(ship harbour)', 'NEAR', '-ship', 'ship -harbour', '((', ')', 'ship AND', 'OR', 'NOT ship',
      ':', 'input:ship', '{input}:ship', '^ship', "'", '\\', '%', '_', '@@', '+ship', '~ship', '<ship', 'ship@harbour', '🚢', ';DROP TABLE logs;--', 'x'.repeat(SEARCH_TEXT_MAX)];
    for (const text of hostile) {
      const res = await ada.raw(`${t.url}/api/log/search?text=${encodeURIComponent(text)}`);
      expect([text, res.status]).toEqual([text, 200]);
    }
    // The words in them are words like any: NEAR finds the near, -ship the ship.
    expect(await inputs(ada, 'NEAR(ship harbour)')).toHaveLength(1);
    expect(await inputs(ada, '-ship "captain"')).toHaveLength(1);
    expect(await inputs(ada, 'harb*')).toEqual([]);
  });

  it('finds short words and stopwords (InnoDB skips them by default)', async () => {
    await insert(adaId, [{ input: 'Is it Go or C? The Who sang it' }, { input: 'go home' }]);
    expect(await inputs(ada, 'go')).toHaveLength(2);
    expect(await inputs(ada, 'the who')).toEqual(['Is it Go or C? The Who sang it']);
    expect(await inputs(ada, 'c go')).toEqual(['Is it Go or C? The Who sang it']);
    expect(await inputs(ada, 'it sang')).toEqual(['Is it Go or C? The Who sang it']);
  });

  it('follows edits and deletes of logs, and caps the results', async () => {
    const id = await insert(adaId, [{ input: 'an axolotl question' }]);
    expect(await inputs(ada, 'axolotl')).toHaveLength(1);
    await db.updateTable('logs').set({ input: 'a capybara question' }).where('session', '=', id).execute();
    expect(await inputs(ada, 'axolotl')).toEqual([]);
    expect(await inputs(ada, 'capybara')).toEqual(['a capybara question']);
    await db.deleteFrom('logs').where('session', '=', id).execute();
    expect(await inputs(ada, 'capybara')).toEqual([]);
    await insert(adaId, Array.from({ length: SEARCH_RESULTS_MAX + 5 }, (_, i) => ({ input: `pangolin ${i}` })));
    expect(await inputs(ada, 'pangolin')).toHaveLength(SEARCH_RESULTS_MAX);
  });

  it('ranks at most RANKED_MAX matches, the newest: a word in every log costs no more', { timeout: 30_000 }, async () => {
    const id = (session += 1_000);
    const now = Date.now();
    await db.insertInto('sessions').values({ id, parent_id: null, branch_time: null, user_id: adaId, device_id: null, shared: 0, created_at: now, updated_at: now }).execute();
    const row = (i: number, input: string) => ({ session: id, time: id + 10 + i, user_id: adaId, device_id: null, model: 'm', input, output: 'ok', images: '[]', tools: '[]', input_tokens: 0, output_tokens: 0, created_at: now });
    // The best match for "dugong" is written first, then RANKED_MAX weaker ones.
    await db.insertInto('logs').values(row(0, 'dugong dugong dugong sirenian')).execute();
    for (let start = 1; start <= RANKED_MAX; start += 500) {
      await db.insertInto('logs').values(Array.from({ length: 500 }, (_, i) => row(start + i, `a dugong ${'filler '.repeat(20)}`))).execute();
    }
    const ranked = await search(ada, 'dugong');
    expect(ranked).toHaveLength(SEARCH_RESULTS_MAX);
    expect(ranked.map((m) => m.snippet)).not.toContain('dugong dugong dugong sirenian');
    expect(await inputs(ada, 'dugong sirenian')).toEqual(['dugong dugong dugong sirenian']);
  });

  // SQLite only (its own ranking drops common words); defined there alone rather than skipped elsewhere.
  if (engine === 'sqlite') {
    it('leaves a word of most of the latest logs out of the MATCH when a rarer one is given, ranking both', { timeout: 30_000 }, async () => {
      await insert(adaId, [{ input: 'zebu and yak' }, { input: 'a yak alone' }]);
      await insert(adaId, Array.from({ length: 250 }, () => ({ input: 'zebu filler' })));
      const found = await search(ada, 'zebu yak');
      // "zebu" is in nearly every latest log: "yak" finds both, the one with both words first.
      expect(found.map((m) => m.snippet)).toEqual(['zebu and yak', 'a yak alone']);
      expect(marked(found[0]!)).toEqual(['zebu', 'yak']);
      // Alone, a common word is still searched.
      expect(await search(ada, 'zebu')).toHaveLength(SEARCH_RESULTS_MAX);
    });
  }

  it('keeps a huge log searchable with a bounded snippet', async () => {
    await insert(adaId, [{ input: 'big answer', output: `${'lorem ipsum dolor '.repeat(60_000)} narwhal` }]);
    const started = Date.now();
    const [m] = await search(ada, 'big answer');
    expect(m!.snippet).toBe('big answer');
    // A word past the first megabyte is found too.
    expect((await search(ada, 'narwhal'))[0]!.snippet.length).toBeLessThanOrEqual(162);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('indexes the logs already there when the migration runs (backfill), and leaves nothing once undone', { timeout: 30_000 }, async () => {
    // PostgreSQL's index is 0003's words (0001's GIN is replaced): that is the migration to undo and redo there.
    const migration = (engine === 'postgres' ? pgWordsMigration : searchMigration)(engine, {} as never);
    // One connection per step: MySQL's migration sets a session variable for its ALTER.
    await db.connection().execute(async (conn) => migration.down!(conn as never));
    await insert(adaId, [{ input: 'a tapir from before the index' }]);
    await db.connection().execute(async (conn) => migration.up(conn as never));
    if (engine === 'postgres') {
      // Filled by the migration itself, not left to the first search.
      const row = await sql<{ words: string[] | null }>`SELECT search_words AS words FROM logs WHERE input = 'a tapir from before the index'`.execute(db);
      expect(row.rows[0]!.words).toContain('tapir');
    }
    expect(await inputs(ada, 'tapir')).toEqual(['a tapir from before the index']);
    const objects = async () =>
      engine === 'sqlite'
        ? (await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE name LIKE 'logs_fts%'`.execute(db)).rows.map((r) => r.name).sort()
        : (
            await sql<{ name: string }>`SELECT indexname AS name FROM pg_indexes WHERE tablename = 'logs' AND indexname LIKE 'logs_search%'
              UNION SELECT column_name FROM information_schema.columns WHERE table_name = 'logs' AND column_name = 'search_words'
              UNION SELECT tgname FROM pg_trigger WHERE tgname LIKE 'logs_search%'`.execute(db)
          ).rows
            .map((r) => r.name)
            .sort();
    if (engine === 'mysql') return;
    expect(await objects()).toContain(engine === 'sqlite' ? 'logs_fts_au' : 'logs_search_words_reset');
    await db.connection().execute(async (conn) => migration.down!(conn as never));
    // Undone on PostgreSQL: 0001's index as it was, nothing of 0003's.
    expect(await objects()).toEqual(engine === 'sqlite' ? [] : ['logs_search']);
    await db.connection().execute(async (conn) => migration.up(conn as never));
  });

  // PostgreSQL alone keeps the words the server cut; defined there alone rather than skipped elsewhere.
  if (engine === 'postgres') {
    it('writes the words with a turn’s log, and fills those of logs written without them at a search, bounded', { timeout: 60_000 }, async () => {
      const words = async (input: string) => (await sql<{ w: string[] | null }>`SELECT search_words AS w FROM logs WHERE input = ${input}`.execute(db)).rows[0]?.w;
      await say(ada, 'Quokka selfies, Zürich');
      // The fake answers "You said: <question>".
      expect((await words('Quokka selfies, Zürich'))?.sort()).toEqual(['quokka', 'said', 'selfies', 'you', 'zurich']);
      // Written without them (a direct insert): found all the same, the first search fills them, FILL_PER_SEARCH at most.
      await insert(adaId, Array.from({ length: 5_200 }, (_, i) => ({ input: `numbat ${i}` })));
      expect(await inputs(ada, 'numbat 5199')).toEqual(['numbat 5199']);
      const unfilled = async () => Number((await sql<{ n: string }>`SELECT count(*) AS n FROM logs WHERE user_id = ${adaId} AND search_words IS NULL`.execute(db)).rows[0]!.n);
      expect(await unfilled()).toBe(200);
      await search(ada, 'numbat');
      expect(await unfilled()).toBe(0);
    });
  }
});
