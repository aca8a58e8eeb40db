// One database layer on three engines (DESIGN.md §4): SQLite (better-sqlite3, WAL) in
// DATA_DIR by default; PostgreSQL or MySQL/MariaDB when DATABASE_URL says so.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Kysely, MysqlDialect, PostgresDialect, sql } from 'kysely';
import type { Database } from '../../core/dbSchema.ts';
import { startCheckpointer } from './checkpointer.ts';
import { FairSqliteDialect } from './fairSqlite.ts';
import { withStatementCache } from './statementCache.ts';
import { causeOf, StartError } from '../startError.ts';

export type Engine = 'sqlite' | 'postgres' | 'mysql';

export interface Db {
  db: Kysely<Database>;
  engine: Engine;
  /** The pool's connections now (observability); null on SQLite, which has one connection and no pool. */
  connections(): { total: number; idle: number; waiting: number } | null;
  close(): Promise<void>;
}

export function engineOf(databaseUrl: string): Engine {
  if (!databaseUrl || /^(sqlite|file):/i.test(databaseUrl)) return 'sqlite';
  if (/^postgres(ql)?:/i.test(databaseUrl)) return 'postgres';
  if (/^(mysql|mariadb):/i.test(databaseUrl)) return 'mysql';
  throw new StartError('DATABASE_URL must start with sqlite:, postgres://, postgresql://, mysql:// or mariadb://');
}

/**
 * `onIdleError`: an idle pooled connection that the database closes (a restart, a failover, an
 * administrator) must not crash the process; the pool replaces it, and the error is reported.
 */
export async function connectDatabase(databaseUrl: string, dataDir: string, onIdleError: (err: Error) => void = () => {}): Promise<Db> {
  const engine = engineOf(databaseUrl);
  if (engine === 'sqlite') return openSqlite(databaseUrl, dataDir);
  const db = engine === 'postgres' ? await postgresPool(databaseUrl, onIdleError) : await mysqlPool(databaseUrl, onIdleError);
  await reachable(db, databaseUrl);
  return db;
}

/** The SQLite database's file: a sqlite:/file: DATABASE_URL's path, else shellchat.db in DATA_DIR. */
export function sqliteFile(databaseUrl: string, dataDir: string): string {
  return databaseUrl ? databaseUrl.replace(/^(sqlite|file):(\/\/)?/i, '') : path.join(dataDir, 'shellchat.db');
}

/** The SQLite file; one that cannot be opened stops the start naming where it is configured. */
async function openSqlite(databaseUrl: string, dataDir: string): Promise<Db> {
  const { default: SQLite } = await import('better-sqlite3');
  const file = sqliteFile(databaseUrl, dataDir);
  let sqlite: InstanceType<typeof SQLite>;
  try {
    if (file !== ':memory:') mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    sqlite = new SQLite(file);
    // The first statement reads the file: one that is not a database fails here.
    sqlite.pragma('journal_mode = WAL');
  } catch (err) {
    const where = databaseUrl ? 'DATABASE_URL' : 'DATA_DIR';
    throw new StartError(`${where}: cannot open the SQLite database ${path.resolve(file)}: ${causeOf(err)}`);
  }
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // With WAL, NORMAL loses nothing when the process dies (only a power loss can cost the
  // last commits) and spares an fsync per transaction.
  sqlite.pragma('synchronous = NORMAL');
  // Checkpoints run in a worker thread (checkpointer.ts) once the log passes 32 MB; this
  // connection checkpoints itself only past 20,000 pages (80 MB), if the worker cannot. A
  // turn rewrites the same few pages (the newest logs, their indexes, the session), and a
  // checkpoint copies each page once however often it changed: with 10,000 pages between
  // checkpoints instead of SQLite's 1,000, a turn's database CPU with 300 turns in flight
  // went from 172 to 137 µs.
  sqlite.pragma('wal_autocheckpoint = 20000');
  const checkpointer = file === ':memory:' ? undefined : startCheckpointer(path.resolve(file));
  const db = new Kysely<Database>({ dialect: new FairSqliteDialect({ database: withStatementCache(sqlite) }) });
  return {
    db,
    engine: 'sqlite',
    connections: () => null,
    close: async () => {
      await checkpointer?.stop();
      await db.destroy();
    },
  };
}

async function postgresPool(databaseUrl: string, onIdleError: (err: Error) => void): Promise<Db> {
  const pg = await import('pg');
  // int8 and numeric come back as strings by default; our values fit in a double.
  pg.default.types.setTypeParser(20, (v) => Number(v));
  pg.default.types.setTypeParser(1700, (v) => Number(v));
  const pool = new pg.default.Pool({ connectionString: databaseUrl, max: 10 });
  pool.on('error', onIdleError);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  const connections = () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount });
  return { db, engine: 'postgres', connections, close: () => db.destroy() };
}

async function mysqlPool(databaseUrl: string, onIdleError: (err: Error) => void): Promise<Db> {
  const mysql = await import('mysql2');
  const pool = mysql.createPool({
    uri: databaseUrl.replace(/^mariadb:/i, 'mysql:'),
    connectionLimit: 10,
    multipleStatements: false,
    supportBigNumbers: true,
    bigNumberStrings: false,
    decimalNumbers: true,
    charset: 'utf8mb4',
  });
  pool.on('error' as never, onIdleError);
  const db = new Kysely<Database>({ dialect: new MysqlDialect({ pool }) });
  // mysql2 exposes its pool's lists only as underscored fields (stable since 1.x).
  const lists = pool as unknown as { _allConnections?: { length: number }; _freeConnections?: { length: number }; _connectionQueue?: { length: number } };
  const connections = () => ({ total: lists._allConnections?.length ?? 0, idle: lists._freeConnections?.length ?? 0, waiting: lists._connectionQueue?.length ?? 0 });
  return { db, engine: 'mysql', connections, close: () => db.destroy() };
}

/** How long the first connection may take before the start gives up (pg alone has no timeout). */
const CONNECT_TIMEOUT_MS = 15_000;

/**
 * One query before the migrations: a database that cannot be reached stops the start with
 * where it was looked for (never the URL: it holds the password) and why.
 */
async function reachable(db: Db, databaseUrl: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      sql`select 1`.execute(db.db),
      new Promise((_, reject) => (timer = setTimeout(() => reject(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })), CONNECT_TIMEOUT_MS))),
    ]);
  } catch (err) {
    void db.close().catch(() => undefined);
    const url = URL.parse(databaseUrl);
    const kind = db.engine === 'postgres' ? 'PostgreSQL' : 'MySQL';
    const host = url?.hostname ? `${url.hostname}:${url.port || (db.engine === 'postgres' ? 5432 : 3306)}` : 'its local socket';
    throw new StartError(`DATABASE_URL: cannot connect to ${kind} at ${host}: ${causeOf(err)}`);
  } finally {
    clearTimeout(timer);
  }
}
