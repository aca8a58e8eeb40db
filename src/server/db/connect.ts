// One database layer on three engines (DESIGN.md §4): SQLite (better-sqlite3, WAL) in
// DATA_DIR by default; PostgreSQL or MySQL/MariaDB when DATABASE_URL says so.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Kysely, MysqlDialect, PostgresDialect } from 'kysely';
import type { Database } from '../../core/dbSchema.ts';
import { startCheckpointer } from './checkpointer.ts';
import { FairSqliteDialect } from './fairSqlite.ts';
import { withStatementCache } from './statementCache.ts';

export type Engine = 'sqlite' | 'postgres' | 'mysql';

export interface Db {
  db: Kysely<Database>;
  engine: Engine;
  close(): Promise<void>;
}

export function engineOf(databaseUrl: string): Engine {
  if (!databaseUrl || /^(sqlite|file):/i.test(databaseUrl)) return 'sqlite';
  if (/^postgres(ql)?:/i.test(databaseUrl)) return 'postgres';
  if (/^(mysql|mariadb):/i.test(databaseUrl)) return 'mysql';
  throw new Error('DATABASE_URL must start with sqlite:, postgres://, postgresql://, mysql:// or mariadb://');
}

/**
 * `onIdleError`: an idle pooled connection that the database closes (a restart, a failover, an
 * administrator) must not crash the process; the pool replaces it, and the error is reported.
 */
export async function connectDatabase(databaseUrl: string, dataDir: string, onIdleError: (err: Error) => void = () => {}): Promise<Db> {
  const engine = engineOf(databaseUrl);
  if (engine === 'sqlite') {
    const { default: SQLite } = await import('better-sqlite3');
    const file = databaseUrl ? databaseUrl.replace(/^(sqlite|file):(\/\/)?/i, '') : path.join(dataDir, 'shellchat.db');
    if (file !== ':memory:') mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    const sqlite = new SQLite(file);
    sqlite.pragma('journal_mode = WAL');
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
      engine,
      close: async () => {
        await checkpointer?.stop();
        await db.destroy();
      },
    };
  }
  if (engine === 'postgres') {
    const pg = await import('pg');
    // int8 and numeric come back as strings by default; our values fit in a double.
    pg.default.types.setTypeParser(20, (v) => Number(v));
    pg.default.types.setTypeParser(1700, (v) => Number(v));
    const pool = new pg.default.Pool({ connectionString: databaseUrl, max: 10 });
    pool.on('error', onIdleError);
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, engine, close: () => db.destroy() };
  }
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
  return { db, engine, close: () => db.destroy() };
}
