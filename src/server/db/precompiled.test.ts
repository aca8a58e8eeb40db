// Precompiled queries against a real SQLite database: the same rows as the query built each
// time, arguments in the right places whatever their order in the SQL, constants of the query
// kept, inside a transaction too; a builder that uses an argument as anything but a value fails
// at once. (The turn's queries also run on PostgreSQL and MySQL in tests/server/sessions.test.ts.)
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connectDatabase, type Db } from './connect.ts';
import { CORE_MIGRATIONS } from './migrations.ts';
import { migrate } from './migrator.ts';
import { precompiled } from './precompiled.ts';

let db: Db;
beforeAll(async () => {
  db = await connectDatabase('', mkdtempSync(path.join(tmpdir(), 'shellchat-precompiled-')));
  await migrate(db.db as never, db.engine, [CORE_MIGRATIONS]);
});
afterAll(() => db.close());

const insert = precompiled((d, a: { id: number; device: string | null; now: number }) =>
  d.insertInto('sessions').values({ id: a.id, parent_id: null, branch_time: null, user_id: null, device_id: a.device, shared: 0, created_at: a.now, updated_at: a.now }),
);
// The arguments appear in the SQL in another order than the type lists them.
const find = precompiled((d, a: { device: string; below: number; above: number }) =>
  d.selectFrom('sessions').select(['id', 'updated_at']).where('id', '>', a.above).where('id', '<', a.below).where('device_id', '=', a.device).orderBy('id'),
);

it('runs with each call’s arguments, in their places, and keeps the query’s own constants (shared: 0)', async () => {
  await insert(db.db, { id: 10, device: 'a', now: 1000 });
  await insert(db.db, { id: 20, device: 'a', now: 2000 });
  await insert(db.db, { id: 30, device: 'b', now: 3000 });
  await insert(db.db, { id: 40, device: 'a', now: 4000 });
  const rows = (await find(db.db, { device: 'a', below: 40, above: 10 })).rows;
  expect(rows).toEqual([{ id: 20, updated_at: 2000 }]);
  expect(await db.db.selectFrom('sessions').select(['shared', 'created_at']).where('id', '=', 30).executeTakeFirst()).toEqual({ shared: 0, created_at: 3000 });
  const built = await db.db.selectFrom('sessions').select(['id', 'updated_at']).where('id', '>', 0).where('id', '<', 100).where('device_id', '=', 'a').orderBy('id').execute();
  expect((await find(db.db, { device: 'a', below: 100, above: 0 })).rows).toEqual(built);
  expect(built.map((r) => r.id)).toEqual([10, 20, 40]);
  // A value that looks like SQL is only ever a value.
  await insert(db.db, { id: 50, device: "x' or 1=1 --", now: 5000 });
  expect((await find(db.db, { device: "x' or 1=1 --", below: 100, above: 0 })).rows).toEqual([{ id: 50, updated_at: 5000 }]);
});

it('runs inside a transaction, and a rollback undoes it', async () => {
  await db.db
    .transaction()
    .execute(async (trx) => {
      await insert(trx, { id: 60, device: 'c', now: 6000 });
      expect((await find(trx, { device: 'c', below: 100, above: 0 })).rows).toHaveLength(1);
      throw new Error('roll back');
    })
    .catch(() => {});
  expect((await find(db.db, { device: 'c', below: 100, above: 0 })).rows).toEqual([]);
});

it('refuses a builder that uses an argument as something other than a value', async () => {
  const inlined = precompiled((d, a: { id: number }) => d.selectFrom('sessions').select('id').where('id', '=', sql.lit(a.id)));
  await expect(inlined(db.db, { id: 10 })).rejects.toThrow(/argument id is not a parameter/);
  const computed = precompiled((d, a: { id: number }) => d.selectFrom('sessions').select('id').where('id', '=', a.id + 1));
  await expect(computed(db.db, { id: 10 })).rejects.toThrow(/an argument was computed with/);
});
