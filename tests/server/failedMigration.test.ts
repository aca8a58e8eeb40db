// A migration that fails on start (issue 41 item 4): the start stops naming the step; on SQLite
// and PostgreSQL the database is exactly as it was (schema, rows, the record of what was applied);
// on MariaDB the start says the step may be partly applied and to restore the backup.
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { ServerPluginModule } from '../../src/core/index.ts';
import { connectDatabase } from '../../src/server/db/connect.ts';
import { engines, freshDatabase, startTestServer } from './support.ts';

/** Two steps: the first changes a core table and its rows, the second makes a table and then fails. */
const failing: ServerPluginModule = {
  migrations: {
    '0001_adds': () => ({
      async up(db) {
        await db.schema.alterTable('users').addColumn('probe_note', 'varchar(50)').execute();
        await sql`update users set probe_note = 'changed', email = 'changed@example.org'`.execute(db);
        await db.schema.createTable('probe_first').addColumn('id', 'integer', (c) => c.primaryKey()).execute();
      },
    }),
    '0002_fails': () => ({
      async up(db) {
        await db.schema.createTable('probe_second').addColumn('id', 'integer', (c) => c.primaryKey()).execute();
        await sql`insert into no_such_table (id) values (1)`.execute(db);
      },
    }),
  },
};

/** Runs a MariaDB client tool on the database a URL names; its output. */
function mariadb(tool: string, url: string, args: string[], input?: Buffer): Buffer {
  const u = new URL(url);
  const db = u.pathname.slice(1);
  const result = spawnSync(tool, ['-h', u.hostname, '-P', u.port || '3306', '-u', decodeURIComponent(u.username), ...args, ...(db ? [db] : [])], { input, env: { ...process.env, MYSQL_PWD: decodeURIComponent(u.password) }, maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`${tool}: ${String(result.stderr) || result.error?.message}`);
  return result.stdout;
}

/** What a start could change: each table's columns and rows, and the applied migrations. */
async function state(url: string, dataDir: string): Promise<Record<string, unknown>> {
  const db = await connectDatabase(url, dataDir);
  try {
    const k = db.db as Kysely<any>;
    const tables = await k.introspection.getTables({ withInternalKyselyTables: true });
    const out: Record<string, unknown> = {};
    for (const table of tables.filter((t) => !t.isView && !/^store_chunks_(fts|vocab)/.test(t.name)).sort((a, b) => a.name.localeCompare(b.name))) {
      if (table.name === 'kysely_migration_lock') continue;
      const rows = (await sql`select * from ${sql.table(table.name)}`.execute(k)).rows.map((r) => JSON.stringify(r)).sort();
      out[table.name] = { columns: table.columns.map((c) => c.name).sort(), rows };
    }
    return out;
  } finally {
    await db.close();
  }
}

describe.each(await engines())('a migration that fails on %s', (engine) => {
  it('stops the start naming the step, and leaves the database as it was where the engine can', async () => {
    const database = await freshDatabase(engine);
    const dataDir = mkdtempSync(path.join(tmpdir(), 'shellchat-failed-migration-'));
    try {
      const env = { DATABASE_URL: database.url, DATA_DIR: dataDir };
      const first = await startTestServer(engine, env);
      const api = first.client();
      await api.post('/api/user/add', { username: 'kept', email: 'kept@example.org', password: 'correct-horse-1' });
      await first.close();
      const before = await state(database.url, dataDir);
      expect(Object.keys(before)).toContain('users');
      // docs/backup.md: MariaDB needs the backup taken before the upgrade.
      const dump = engine === 'mysql' ? mariadb('mariadb-dump', database.url, ['--single-transaction', '--hex-blob', '--default-character-set=utf8mb4']) : undefined;

      const started = await startTestServer(engine, env, [failing]).then(
        async (t) => (await t.close(), 'started'),
        (err: Error) => err.message,
      );
      expect(started).toMatch(/^(DATABASE_URL|DATA_DIR): migration extra-0\/0002_fails failed: /);
      const after = await state(database.url, dataDir);
      if (engine === 'mysql') {
        expect(started).toMatch(/MariaDB\/MySQL cannot undo schema changes, so the migrations before it stay applied and this one may be partly applied: restore the backup taken before the upgrade \(docs\/backup\.md\)/);
        // What MariaDB left: the first step whole and recorded, the second's table without its record.
        expect(Object.keys(after)).toEqual(expect.arrayContaining(['probe_first', 'probe_second']));
        // The remedy it names: the database emptied and the backup loaded.
        const name = new URL(database.url).pathname.slice(1);
        const admin = new URL(database.url);
        admin.pathname = '/';
        mariadb('mariadb', admin.toString(), ['-e', `DROP DATABASE ${name}; CREATE DATABASE ${name} CHARACTER SET utf8mb4`]);
        mariadb('mariadb', database.url, ['--default-character-set=utf8mb4'], dump);
        expect(await state(database.url, dataDir)).toEqual(before);
      } else {
        expect(started).toMatch(/; nothing this start migrated was kept: the database is as it was$/);
        expect(after).toEqual(before);
      }
      // Once the step is fixed (here: the failing plugin gone), the server starts on it.
      const again = await startTestServer(engine, env);
      expect((await again.client().post('/api/user/login', { username: 'kept', password: 'correct-horse-1' }).then(() => 'in', (e: Error) => e.message))).toBe('in');
      await again.close();
    } finally {
      await database.drop();
    }
  }, 90_000);
});
