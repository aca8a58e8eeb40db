// Migrations numbered per owner (src/server/db/migrator.ts): a database the code with global
// numbers made starts under the new names without running anything again and ends with the
// schema a new database gets; a plugin added to an existing database makes its tables then.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import { Migrator } from 'kysely/migration';
import { describe, expect, it } from 'vitest';
import appConfig from '../../app.config.ts';
import type { ServerPluginModule } from '../../src/core/index.ts';
import { pluginFile } from '../../src/core/pluginLayout.ts';
import { columns } from '../../src/server/db/columns.ts';
import { connectDatabase, type Db } from '../../src/server/db/connect.ts';
import { CORE_MIGRATIONS } from '../../src/server/db/migrations.ts';
import { engines, freshDatabase, startTestServer, type Engine } from './support.ts';

const LEGACY_SQLITE = path.join(import.meta.dirname, '../fixtures/legacySqliteSchema.sql');
const ROOT = path.join(import.meta.dirname, '../..');

async function serverModules(): Promise<Record<string, ServerPluginModule>> {
  const found: Record<string, ServerPluginModule> = {};
  for (const id of appConfig.plugins) {
    try {
      found[id] = (await import(path.join(ROOT, pluginFile(id, 'server')))).default as ServerPluginModule;
    } catch (err) {
      if ((err as { code?: string }).code !== 'ERR_MODULE_NOT_FOUND') throw err;
    }
  }
  return found;
}

const applied = async (db: Kysely<any>) => (await db.selectFrom('kysely_migration').select('name').orderBy('name').execute()).map((r) => r.name as string);

/** Each table's and index's definition on SQLite, by name. */
async function sqliteSchema(db: Kysely<any>): Promise<Record<string, string>> {
  const rows = await sql<{ name: string; sql: string }>`select name, sql from sqlite_master where sql is not null and name not like 'kysely_%'`.execute(db);
  return Object.fromEntries(rows.rows.map((r) => [r.name, r.sql]));
}

async function withDb<T>(url: string, dataDir: string, run: (db: Db) => Promise<T>): Promise<T> {
  const db = await connectDatabase(url, dataDir);
  try {
    return await run(db);
  } finally {
    await db.close();
  }
}

function configWithout(id: string): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'shellchat-config-')), 'app.config.ts');
  writeFileSync(file, `export default ${JSON.stringify({ plugins: appConfig.plugins.filter((p) => p !== id) })};\n`);
  return file;
}

describe('a SQLite database made before migrations were numbered per plugin', () => {
  it('starts under the new names, runs nothing again, and has the schema of a new database', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'shellchat-legacy-'));
    const text = readFileSync(LEGACY_SQLITE, 'utf8').split('\n').filter((line) => !line.startsWith('--')).join('\n');
    const statements = text.split(/;\n/).filter((statement) => statement.trim());
    await withDb('', dataDir, async (db) => {
      for (const statement of statements) await sql.raw(statement).execute(db.db);
      const now = Date.now();
      await (db.db as Kysely<any>).insertInto('models').values({ name: 'kept', scope: 'user', owner_id: 1, provider: 'openai-compatible', model: 'm', base_url: 'https://8.8.8.8/v1', api_key: '', price_input: 0, price_output: 0, capabilities: '{}', created_at: now, updated_at: now }).execute();
    });
    const before = await withDb('', dataDir, (db) => applied(db.db as Kysely<any>));
    expect(before).toContain('0300_store');

    const upgraded = await startTestServer('sqlite', { DATA_DIR: dataDir });
    const after = await applied(upgraded.server.db.db as Kysely<any>);
    const upgradedSchema = await sqliteSchema(upgraded.server.db.db as Kysely<any>);
    expect(await (upgraded.server.db.db as Kysely<any>).selectFrom('models').select('name').execute()).toEqual([{ name: 'kept' }]);
    await upgraded.close();

    // Every former name stays (Kysely must still find what it applied), and each new name is recorded once.
    expect(after).toEqual(expect.arrayContaining(before));
    expect(after).toEqual(expect.arrayContaining(['0002_sessions', '0004_ledger', 'model/0001_models', 'node/0001_nodes', 'store/0001_stores', 'user/0002_usage_device']));
    expect(new Set(after).size).toBe(after.length);

    const fresh = await startTestServer('sqlite');
    expect(upgradedSchema).toEqual(await sqliteSchema(fresh.server.db.db as Kysely<any>));
    const freshNames = await applied(fresh.server.db.db as Kysely<any>);
    await fresh.close();
    // A new database has only the new names; the upgraded one has them all too.
    expect(freshNames.every((name) => after.includes(name))).toBe(true);
    expect(freshNames.filter((name) => before.includes(name))).toEqual(['0001_accounts']);

    // A second start applies nothing.
    const again = await startTestServer('sqlite', { DATA_DIR: dataDir });
    expect(await applied(again.server.db.db as Kysely<any>)).toEqual(after);
    await again.close();
  }, 60_000);
});

describe.each(await engines())('migrations numbered per plugin on %s', (engine: Engine) => {
  it('upgrade a database the global names made (replayed by those names), without running anything again', async () => {
    const database = await freshDatabase(engine);
    const dataDir = mkdtempSync(path.join(tmpdir(), 'shellchat-replay-'));
    try {
      const modules = await serverModules();
      // The code before: one global sequence, the users' models made by the core's chat migration.
      await withDb(database.url, dataDir, async (db) => {
        const c = columns(db.engine);
        const core = CORE_MIGRATIONS.migrations;
        const models = modules.model!.migrations!['0001_models']!;
        const chat = core['0002_sessions']!;
        const old: Record<string, ReturnType<typeof chat>> = {
          '0001_accounts': core['0001_accounts']!(db.engine, c),
          '0002_chat': { up: async (k) => { await chat(db.engine, c).up(k); await models(db.engine, c).up(k); } },
          '0400_uploads': core['0003_uploads']!(db.engine, c),
          '0600_ledger': core['0004_ledger']!(db.engine, c),
          '0820_visitor_addresses': core['0005_visitor_addresses']!(db.engine, c),
        };
        for (const module of Object.values(modules)) {
          for (const [key, former] of Object.entries(module.formerMigrationNames ?? {})) {
            if (former !== '0002_chat') old[former] = module.migrations![key]!(db.engine, c);
          }
        }
        const { error } = await new Migrator({ db: db.db as Kysely<unknown>, provider: { getMigrations: async () => old } }).migrateToLatest();
        expect(error).toBeUndefined();
      });
      const t = await startTestServer(engine, { DATABASE_URL: database.url, DATA_DIR: dataDir });
      const names = await applied(t.server.db.db as Kysely<any>);
      await t.close();
      expect(names).toEqual(expect.arrayContaining(['0002_chat', '0002_sessions', 'model/0001_models', 'role/0001_roles', 'subscription/0001_payments', 'user/0001_invitations']));
    } finally {
      await database.drop();
    }
  }, 60_000);

  it('a plugin added to a database made without it makes its tables then', async () => {
    const database = await freshDatabase(engine);
    const dataDir = mkdtempSync(path.join(tmpdir(), 'shellchat-later-'));
    try {
      const without = await startTestServer(engine, { DATABASE_URL: database.url, DATA_DIR: dataDir, SHELLCHAT_APP_CONFIG: configWithout('model') });
      expect(await applied(without.server.db.db as Kysely<any>)).not.toContain('model/0001_models');
      // Only the system's models without the plugin that keeps users' own.
      expect((await fetch(`${without.url}/api/model/list`)).status).toBe(404);
      await without.close();
      const withIt = await startTestServer(engine, { DATABASE_URL: database.url, DATA_DIR: dataDir });
      expect(await applied(withIt.server.db.db as Kysely<any>)).toContain('model/0001_models');
      expect(await (withIt.server.db.db as Kysely<any>).selectFrom('models').select('id').execute()).toEqual([]);
      await withIt.close();
    } finally {
      await database.drop();
    }
  }, 60_000);
});
