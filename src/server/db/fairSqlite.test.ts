// The SQLite connection's lock: transactions of concurrent callers never interleave (each sees
// and writes its own consistent state), callers are served in the order they asked, and a
// failed transaction releases the connection to the next one.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connectDatabase, type Db } from './connect.ts';

let db: Db;
beforeAll(async () => {
  db = await connectDatabase('', mkdtempSync(path.join(tmpdir(), 'shellchat-fair-')));
  await sql`create table counter (n integer not null)`.execute(db.db);
  await sql`insert into counter (n) values (0)`.execute(db.db);
});
afterAll(() => db.close());

const read = async (q: Db['db']) =>
  Number((await sql<{ n: number }>`select n from counter`.execute(q)).rows[0]!.n);

it('runs concurrent transactions one after another, each with a consistent read-modify-write', async () => {
  await Promise.all(
    Array.from({ length: 60 }, (_, i) =>
      db.db.transaction().execute(async (trx) => {
        const n = await read(trx);
        // Yield between the read and the write: another caller would get in here if it could.
        await new Promise((r) => setTimeout(r, i % 3));
        await sql`update counter set n = ${n + 1}`.execute(trx);
      }),
    ),
  );
  expect(await read(db.db)).toBe(60);
});

it('serves callers in the order they asked, queries and transactions alike', async () => {
  const order: number[] = [];
  await Promise.all(
    Array.from({ length: 40 }, (_, i) =>
      i % 2
        ? db.db.transaction().execute(async (trx) => {
            order.push(i);
            await read(trx);
          })
        : read(db.db).then(() => order.push(i)),
    ),
  );
  expect(order).toEqual(Array.from({ length: 40 }, (_, i) => i));
});

it('hands the connection on after a transaction fails, and the failure changed nothing', async () => {
  const before = await read(db.db);
  const results = await Promise.allSettled([
    db.db.transaction().execute(async (trx) => {
      await sql`update counter set n = n + 100`.execute(trx);
      throw new Error('give up');
    }),
    db.db.transaction().execute(async (trx) => {
      await sql`update counter set n = n + 1`.execute(trx);
    }),
  ]);
  expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled']);
  expect(await read(db.db)).toBe(before + 1);
});
