// A plugin's column of logs (ctx.sessions.addLogColumn): computed by the server from the text of
// every log a turn writes, on every engine, and given to a plugin that writes logs itself.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerPluginContext, ServerPluginModule } from '../../src/core/index.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fakeOpenAI.ts';
import { engines, startTestServer, type TestServer } from './support.ts';

/** The context the plugin below was last registered with (one server at a time here). */
let registered: ServerPluginContext | undefined;
/** A plugin keeping each log's character counts in a column of its own. */
const counted: ServerPluginModule = {
  migrations: {
    '0001_counts': () => ({
      up: async (db) => void (await sql`ALTER TABLE logs ADD COLUMN probe_counts varchar(40)`.execute(db)),
    }),
  },
  register(ctx) {
    registered = ctx;
    ctx.sessions.addLogColumn({ name: 'probe_counts', value: ({ input, output }) => `${input.length}/${output.length}` });
  },
};

let fake: FakeOpenAI;
beforeAll(async () => {
  fake = await startFakeOpenAI();
});
afterAll(async () => {
  await fake?.close();
});

describe.each(await engines())('plugins’ log columns on %s', (engine) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(engine, { MODEL: 'gpt-4o-mini', OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'sk-test' }, [counted]);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });
  const counts = async (session: number) =>
    (await sql<{ c: string | null }>`SELECT probe_counts AS c FROM logs WHERE session = ${session}`.execute(t.server.db.db)).rows.map((r) => r.c);

  it('writes the column with the log of a turn, a visitor’s too', async () => {
    const session = Date.now();
    await t.client().post('/api/generate', { session, user_input: 'hello columns' });
    // The fake answers "You said: <question>".
    expect(await counts(session)).toEqual(['13/23']);
  });

  it('gives a plugin that writes logs the same values', () => {
    // Beside the enabled plugins' own (the search plugin's words on PostgreSQL).
    expect(registered!.sessions.logColumns({ input: 'ab', output: 'cde' }).probe_counts).toBe('2/3');
  });
});
