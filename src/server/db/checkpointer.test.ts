// The checkpointer's worker, on a real database file: the server's connection never
// checkpoints itself (autocheckpoint off here), and the worker still copies its commits into
// the database file, so a new connection that reads the file alone, without the log, sees them.
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterEach, expect, it } from 'vitest';
import { startCheckpointer, type Checkpointer } from './checkpointer.ts';

let running: Checkpointer | undefined;
afterEach(async () => {
  await running?.stop();
  running = undefined;
});

/** A database in WAL mode whose own connection never checkpoints, with a table `t`. */
function walDatabase(): { file: string; db: SQLite.Database; insert: SQLite.Statement } {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'shellchat-checkpoint-')), 'db.sqlite');
  const db = new SQLite(file);
  db.pragma('journal_mode = WAL');
  db.pragma('wal_autocheckpoint = 0');
  db.exec('create table t (n integer)');
  return { file, db, insert: db.prepare('insert into t (n) values (?)') };
}

it('copies the log into the database file from its own thread', async () => {
  const { file, db, insert } = walDatabase();
  for (let i = 0; i < 500; i++) insert.run(i);

  // Without a checkpoint, the database file alone (copied without its log) has none of it.
  const before = path.join(path.dirname(file), 'before.sqlite');
  copyFileSync(file, before);
  const plain = new SQLite(before, { readonly: true });
  expect(plain.prepare("select count(*) as c from sqlite_master where name = 't'").get()).toEqual({ c: 0 });
  plain.close();

  running = startCheckpointer(file, { intervalMs: 20, thresholdBytes: 1 });
  const report = await running.next();
  expect(report.checkpointed).toBeGreaterThan(0);
  expect(report.checkpointed).toBe(report.log);

  const after = path.join(path.dirname(file), 'after.sqlite');
  copyFileSync(file, after);
  const copied = new SQLite(after, { readonly: true });
  expect(copied.prepare('select count(*) as c from t').get()).toEqual({ c: 500 });
  copied.close();
  db.close();
});

it('lets the server write on while it works, and stops cleanly', async () => {
  const { file, db, insert } = walDatabase();
  running = startCheckpointer(file, { intervalMs: 5, thresholdBytes: 1 });
  for (let round = 0; round < 20; round++) {
    for (let i = 0; i < 50; i++) insert.run(round * 50 + i);
    await new Promise((r) => setTimeout(r, 5));
  }
  const report = await running.next();
  expect(report.checkpoints).toBeGreaterThan(0);
  expect(db.prepare('select count(*) as c from t').get()).toEqual({ c: 1000 });
  await running.stop();
  running = undefined;
  db.close();
});
