// Group commit on every database engine: writes that arrive together share one transaction,
// each caller still gets its own result, a bad write fails alone while its batch-mates are
// kept, and inside a caller's transaction a write happens there and then (and rolls back
// with it). Also the server's own use: chat turns finishing together all keep their logs.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql, type Kysely, type Transaction } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GenerateResult } from '../../src/core/index.ts';
import { connectDatabase, type Db } from '../../src/server/db/connect.ts';
import { grouped } from '../../src/server/db/groupCommit.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fakeOpenAI.ts';
import { engines, freshDatabase, startTestServer, type TestServer } from './support.ts';

interface Notes {
  notes: { id: number; body: string };
}

describe.each(await engines())('group commit on %s', (engine) => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let db: Db;
  let notes: Kysely<Notes>;
  // Every transaction a write ran in, to see which writes shared one.
  const seen: Transaction<Notes>[] = [];
  const insert = grouped(async (trx: Transaction<Notes>, note: { id: number; body: string }) => {
    seen.push(trx);
    await trx.insertInto('notes').values(note).execute();
    return `saved ${note.id}`;
  }, 8);
  const count = async () => Number((await sql<{ n: number }>`select count(*) as n from notes`.execute(notes)).rows[0]!.n);

  beforeAll(async () => {
    database = await freshDatabase(engine);
    db = await connectDatabase(database.url, mkdtempSync(path.join(tmpdir(), 'shellchat-group-')));
    notes = db.db as unknown as Kysely<Notes>;
    await sql`create table notes (id integer primary key, body varchar(50) not null)`.execute(notes);
  });
  afterAll(async () => {
    await db?.close();
    await database?.drop();
  });

  it('writes what arrives together in shared transactions, of at most the batch size, and answers each caller', async () => {
    seen.length = 0;
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => insert(notes, { id: 100 + i, body: `note ${i}` })));
    expect(results).toEqual(Array.from({ length: 20 }, (_, i) => `saved ${100 + i}`));
    expect(await count()).toBe(20);
    // 20 writes, batches of at most 8: three transactions, in the order the writes came.
    const transactions = [...new Set(seen)];
    expect(transactions.length).toBe(3);
    expect(transactions.map((trx) => seen.filter((s) => s === trx).length)).toEqual([8, 8, 4]);
  });

  it('fails a bad write alone and keeps the others of its batch', async () => {
    const before = await count();
    const outcomes = await Promise.allSettled([
      insert(notes, { id: 200, body: 'first' }),
      insert(notes, { id: 100, body: 'a duplicate key' }),
      insert(notes, { id: 201, body: 'third' }),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await count()).toBe(before + 2);
    const bodies = await notes.selectFrom('notes').select('body').where('id', 'in', [100, 200, 201]).orderBy('id').execute();
    expect(bodies.map((b) => b.body)).toEqual(['note 0', 'first', 'third']);
    // And the writer goes on: a later write is committed as usual.
    await insert(notes, { id: 202, body: 'after' });
    expect(await count()).toBe(before + 3);
  });

  it('writes inside the caller\'s transaction at once, and rolls back with it', async () => {
    const before = await count();
    await expect(
      notes.transaction().execute(async (trx) => {
        await insert(trx, { id: 300, body: 'inside' });
        // Visible in the transaction: it did not wait for a batch (which would wait for this
        // transaction's connection, forever on SQLite's single connection).
        expect((await trx.selectFrom('notes').select('id').where('id', '=', 300).execute()).length).toBe(1);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await count()).toBe(before);
  });
});

describe.each(await engines())('chat turns finishing together on %s', (engine) => {
  let fake: FakeOpenAI;
  let t: TestServer;
  beforeAll(async () => {
    fake = await startFakeOpenAI();
    // One browser sends 24 turns at once here: past the caps on answers in flight, lifted.
    t = await startTestServer(engine, { MODEL: 'gpt-4o-mini', OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'sk-test', MAX_ANSWERS_PER_VISITOR: '0', MAX_ANSWERS_PER_ADDRESS: '0' });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  it('keeps every log, with distinct times, of turns that end at the same moment', async () => {
    const client = t.client();
    const shared = Date.now() - 1_000_000;
    // The first turn gives this anonymous browser its device cookie, which owns the session.
    const first = (await client.post<GenerateResult>('/api/generate', { session: shared, user_input: 'question first' })).result!.info.time;
    // Twelve turns into one session and twelve into new sessions of their own, all at once.
    const turns = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        client.post<GenerateResult>('/api/generate', { session: i < 12 ? shared : shared + 1 + i, user_input: `question ${i}` }),
      ),
    );
    const infos = turns.map((turn) => turn.result!.info);
    expect(infos.every((info) => info.time > 0)).toBe(true);
    const sharedTimes = infos.slice(0, 12).map((info) => info.time);
    expect(new Set(sharedTimes).size).toBe(12);
    const session = (await client.get<{ logs: { input: string; time: number }[] }>(`/api/session/${shared}`)).result!;
    expect(session.logs.map((log) => log.input).sort()).toEqual([...Array.from({ length: 12 }, (_, i) => `question ${i}`), 'question first'].sort());
    expect(session.logs.map((log) => log.time)).toEqual([first, ...sharedTimes].sort((a, b) => a - b));
    for (let i = 12; i < 24; i++) {
      const own = (await client.get<{ logs: { input: string }[] }>(`/api/session/${shared + 1 + i}`)).result!;
      expect(own.logs.map((log) => log.input)).toEqual([`question ${i}`]);
    }
  });

  it('puts turns sent at once into a new session all into that session', async () => {
    const client = t.client();
    const first = Date.now() - 2_000_000;
    // The device cookie first (from a turn elsewhere), then eight turns into one new session.
    await client.post<GenerateResult>('/api/generate', { session: first, user_input: 'hello' });
    const fresh = first + 5_000;
    const turns = await Promise.all(
      Array.from({ length: 8 }, (_, i) => client.post<GenerateResult>('/api/generate', { session: fresh, user_input: `at once ${i}` })),
    );
    expect(turns.map((turn) => turn.result!.info.session)).toEqual(Array(8).fill(fresh));
    const session = (await client.get<{ logs: { input: string }[] }>(`/api/session/${fresh}`)).result!;
    expect(session.logs.map((log) => log.input).sort()).toEqual(Array.from({ length: 8 }, (_, i) => `at once ${i}`));
  });
});
