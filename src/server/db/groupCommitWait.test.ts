// A group-committed write while the database cannot be reached (groupCommit.ts): it is tried
// again until the database is back, within the wait; past the wait it fails with the cause; a
// write the database refuses is not waited on. The outage is a write that throws what pg throws
// when the server is down (ECONNREFUSED), on a real SQLite database.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql, type Kysely, type Transaction } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase, type Db } from './connect.ts';
import { isConnectionLost } from './connectionLost.ts';
import { GroupCommit } from './groupCommit.ts';

interface Notes {
  notes: { id: number; body: string };
}
const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

describe('a group-committed write while the database is away', () => {
  let db: Db;
  let notes: Kysely<Notes>;
  beforeAll(async () => {
    db = await connectDatabase('', mkdtempSync(path.join(tmpdir(), 'shellchat-wait-')));
    notes = db.db as unknown as Kysely<Notes>;
    await sql`create table notes (id integer primary key, body text not null)`.execute(notes);
  });
  afterAll(async () => db?.close());

  it('is written once the database is back, within the wait', async () => {
    let away = 3;
    const writer = new GroupCommit(notes, async (trx: Transaction<Notes>, id: number) => {
      if (away-- > 0) throw refused();
      await trx.insertInto('notes').values({ id, body: 'kept' }).execute();
      return id;
    }, 8, 5_000);
    expect(await Promise.all([writer.submit(1), writer.submit(2)])).toEqual([1, 2]);
    expect(await notes.selectFrom('notes').select('id').where('id', 'in', [1, 2]).execute()).toHaveLength(2);
  });

  it('fails with the cause past the wait, and does not wait on a write the database refuses', async () => {
    let tries = 0;
    const away = new GroupCommit(notes, async () => {
      tries++;
      throw refused();
    }, 8, 400);
    const started = Date.now();
    await expect(away.submit(3)).rejects.toSatisfy(isConnectionLost);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(tries).toBeGreaterThan(1);

    let refusedTries = 0;
    const bad = new GroupCommit(notes, async (trx: Transaction<Notes>) => {
      refusedTries++;
      await trx.insertInto('notes').values({ id: 1, body: 'a duplicate' }).execute();
    }, 8, 5_000);
    await expect(bad.submit(undefined)).rejects.toThrow(/UNIQUE/);
    // Once in the batch, once alone: no waiting.
    expect(refusedTries).toBe(2);
  });

  it('tells a database that cannot be reached from one that refused a query', () => {
    expect(isConnectionLost(refused())).toBe(true);
    expect(isConnectionLost(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }))).toBe(true);
    expect(isConnectionLost(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isConnectionLost(new AggregateError([refused()], ''))).toBe(true);
    expect(isConnectionLost(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
    expect(isConnectionLost(undefined)).toBe(false);
  });
});
