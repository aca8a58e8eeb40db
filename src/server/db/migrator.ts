// Applies the core's and every enabled plugin's migrations on start. Each owner numbers its own
// ('0001_<what>'); a plugin's is recorded as '<id>/0001_<what>', the core's bare, so the core's
// (digits) sort, and so run, before any plugin's (letters), and a plugin added to an existing
// database runs its own from its first. A migration renamed since it was applied declares its
// former name: a database that applied it under that name records it under the new one and
// does not run it again.
import type { Kysely } from 'kysely';
import { Migrator, type Migration } from 'kysely/migration';
import type { MigrationFactory } from '../../core/index.ts';
import { columns } from './columns.ts';
import type { Engine } from './connect.ts';
import { isUniqueViolation } from './uniqueViolation.ts';

export type { MigrationFactory };

export interface OwnedMigrations {
  /** The plugin id; '' for the core. */
  owner: string;
  /** By the owner's own numbers: '0001_<what>'. */
  migrations: Record<string, MigrationFactory>;
  /** A migration's key → the name a database may have applied it under before. */
  formerNames?: Record<string, string>;
}

const OWN_NAME = /^\d{4}_[a-z0-9_]+$/;
/** Kysely's record of applied migrations (its default table). */
const APPLIED = 'kysely_migration';

type Named = { name: string; formerName?: string; factory: MigrationFactory };

function named(owners: OwnedMigrations[]): Named[] {
  return owners.flatMap(({ owner, migrations, formerNames = {} }) =>
    Object.entries(migrations).map(([key, factory]) => {
      if (!OWN_NAME.test(key)) throw new Error(`migration ${owner ? `${owner}/` : ''}${key}: name it by the owner's own number, as 0001_<what>`);
      return { name: owner ? `${owner}/${key}` : key, formerName: formerNames[key], factory };
    }),
  );
}

/** The names applied so far; none in a new database (no table yet). */
async function appliedNames(db: Kysely<any>): Promise<Map<string, string>> {
  try {
    const rows: { name: string; timestamp: string }[] = await db.selectFrom(APPLIED).select(['name', 'timestamp']).execute();
    return new Map(rows.map((r) => [r.name, r.timestamp]));
  } catch {
    return new Map();
  }
}

/**
 * Records each renamed migration applied under its former name under its new one too (the
 * former's row stays: another owner's migration may have been split out of the same one).
 */
async function recordRenamed(db: Kysely<any>, all: Named[], applied: Map<string, string>): Promise<void> {
  for (const { name, formerName } of all) {
    const at = formerName === undefined ? undefined : applied.get(formerName);
    if (at === undefined || applied.has(name)) continue;
    try {
      await db.insertInto(APPLIED).values({ name, timestamp: at }).execute();
    } catch (err) {
      // Another instance starting at the same time recorded it first.
      if (!isUniqueViolation(err)) throw err;
    }
    applied.set(name, at);
  }
}

export async function migrate(db: Kysely<unknown>, engine: Engine, owners: OwnedMigrations[]): Promise<void> {
  const all = named(owners);
  const applied = await appliedNames(db as Kysely<any>);
  await recordRenamed(db as Kysely<any>, all, applied);
  const c = columns(engine);
  const migrations: Record<string, Migration> = Object.fromEntries(all.map(({ name, factory }) => [name, factory(engine, c)]));
  // A former name the database holds is still a migration Kysely must know of; it never runs.
  for (const { formerName } of all) if (formerName && applied.has(formerName)) migrations[formerName] ??= { up: async () => {} };
  // Per-owner numbers are not one global order: a plugin's next migration may sort before another's applied one.
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations }, allowUnorderedMigrations: true });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (!error && !failed) return;
  // An error before any migration ran (the migrations' own table) has no migration to name.
  const cause = error instanceof Error ? error.message : String(error);
  if (!failed) throw new Error(`the migrations cannot start: ${cause}`);
  throw new Error(`migration ${failed.migrationName} failed: ${cause}; ${afterFailure(engine)}`);
}

/**
 * What a failed start left (docs/backup.md, Upgrades). SQLite and PostgreSQL run one start's
 * migrations in one transaction, rolled back whole; MariaDB and MySQL commit each CREATE and
 * ALTER at once, so the operator has to put the database back.
 */
function afterFailure(engine: Engine): string {
  if (engine !== 'mysql') return 'nothing this start migrated was kept: the database is as it was';
  return 'MariaDB/MySQL cannot undo schema changes, so the migrations before it stay applied and this one may be partly applied: restore the backup taken before the upgrade (docs/backup.md) and start again once the cause is fixed';
}
