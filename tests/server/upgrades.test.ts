// Upgrades (issue 41 item 4): a database made by an earlier version's own migrations, with rows
// in every table (tests/fixtures/upgrades/<commit>/, made by make.ts from git history), loaded on
// each engine and migrated by today's server on start: every row of every table is still there
// with the values it had, the balance moved to the ledger is the one it held, its accounts log
// in and read their account over HTTP, and new rows go in after the old ones.
import { readdirSync, readFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { connectDatabase } from '../../src/server/db/connect.ts';
import { engines, freshDatabase, startTestServer, type Engine } from './support.ts';

const FIXTURES = path.join(import.meta.dirname, '../fixtures/upgrades');
const COMMITS = readdirSync(FIXTURES, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();

/** Loads a dump with the engine's driver (no client tool needed). */
async function load(engine: Engine, url: string, dataDir: string, text: string): Promise<void> {
  if (engine === 'sqlite') {
    const { default: SQLite } = await import('better-sqlite3');
    const db = new SQLite(path.join(dataDir, 'shellchat.db'));
    db.exec(text);
    db.close();
  } else if (engine === 'postgres') {
    const pg = await import('pg');
    const client = new pg.default.Client({ connectionString: url });
    await client.connect();
    await client.query(text);
    await client.end();
  } else {
    const mysql = await import('mysql2/promise');
    const conn = await mysql.createConnection({ uri: url, multipleStatements: true, charset: 'utf8mb4' });
    await conn.query(text);
    await conn.end();
  }
}

type Rows = Record<string, { columns: string[]; rows: Record<string, unknown>[] }>;

/** Every ordinary table's columns and rows (bytes as hex, so rows compare as JSON). */
async function snapshot(url: string, dataDir: string): Promise<Rows> {
  const db = await connectDatabase(url, dataDir);
  try {
    const k = db.db as Kysely<any>;
    const out: Rows = {};
    for (const table of await k.introspection.getTables({ withInternalKyselyTables: true })) {
      if (table.isView || table.name === 'kysely_migration_lock' || /^store_chunks_(fts|vocab)/.test(table.name)) continue;
      const rows = (await sql<Record<string, unknown>>`select * from ${sql.table(table.name)}`.execute(k)).rows.map((r) =>
        Object.fromEntries(Object.entries(r).map(([key, v]) => [key, v instanceof Uint8Array ? Buffer.from(v).toString('hex') : v])),
      );
      out[table.name] = { columns: table.columns.map((c) => c.name), rows };
    }
    return out;
  } finally {
    await db.close();
  }
}

const project = (row: Record<string, unknown>, columns: string[]) => JSON.stringify(columns.map((c) => row[c]));

describe.each(await engines())('a database an earlier version made, upgraded on %s', (engine) => {
  it.each(COMMITS)('keeps every row of commit %s readable', async (commit) => {
    const database = await freshDatabase(engine);
    const dataDir = mkdtempSync(path.join(tmpdir(), `shellchat-upgrade-${commit}-`));
    try {
      await load(engine, database.url, dataDir, readFileSync(path.join(FIXTURES, commit, `${engine}.sql`), 'utf8'));
      const before = await snapshot(database.url, dataDir);
      const tables = Object.keys(before).filter((t) => t !== 'kysely_migration');
      expect(tables.length).toBeGreaterThanOrEqual(15);
      // Data in every table.
      for (const t of tables) expect(before[t]!.rows.length, t).toBe(2);

      const t = await startTestServer(engine, { DATABASE_URL: database.url, DATA_DIR: dataDir });
      try {
        // Readable through the app: an old account logs in and reads itself; a new one goes in after the old rows.
        const api = t.client();
        await api.post('/api/user/login', { username: 'k2', password: 'password-k2' });
        const info = (await api.get('/api/user/info')) as { username?: string; result?: { username?: string } };
        expect(JSON.stringify(info)).toContain('"k2"');
        await t.client().post('/api/user/add', { username: 'newcomer', email: 'newcomer@example.org', password: 'correct-horse-1' });
      } finally {
        await t.close();
      }

      const after = await snapshot(database.url, dataDir);
      let kept = 0;
      for (const table of tables) {
        expect(after[table], `table ${table}`).toBeDefined();
        const { columns, rows } = before[table]!;
        // Each old row, with the values of its old columns, is there (new columns may be added beside them).
        const now = new Set(after[table]!.rows.map((r) => project(r, columns)));
        for (const row of rows) expect(now.has(project(row, columns)), `${table}: ${project(row, columns)}`).toBe(true);
        kept += rows.length;
      }
      // What was applied then is still recorded (under its old name, and its new one when renamed).
      const applied = new Set(after.kysely_migration!.rows.map((r) => r.name));
      for (const row of before.kysely_migration!.rows) expect(applied.has(row.name)).toBe(true);
      // A balance held before the ledger is each account's opening entry, in cents.
      if (!before.users!.columns.includes('balance_cents')) {
        const cents = Object.fromEntries(after.users!.rows.map((r) => [r.username, Number(r.balance_cents)]));
        expect([cents.k1, cents.k2]).toEqual([100, 200]);
      }
      console.log(`${engine} ${commit}: ${tables.length} tables, ${kept} rows kept of ${kept}; ${applied.size - before.kysely_migration!.rows.length} migration records added`);
    } finally {
      await database.drop();
    }
  }, 120_000);
});
