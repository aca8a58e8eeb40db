// A transaction that holds named locks, so that what it checks and then writes for a key (a
// person's uses, a visitor's uploads) is never checked by another request meanwhile, on every
// engine and across instances that share the database (issue 34: 20 questions sent at once all
// passed a limit of 3, each counting before any was written).
// - SQLite: one connection serves every query in turn (fairSqlite.ts), so a transaction is
//   already alone; several processes on one file are not a supported deployment.
// - PostgreSQL: transaction-level advisory locks, released by the commit or the rollback.
// - MySQL/MariaDB: GET_LOCK, taken on the connection before the transaction begins (so the
//   transaction's snapshot is taken after the lock) and released once it has ended.
// Keys are taken in one order, so two requests that need the same two keys cannot deadlock.
import { createHash } from 'node:crypto';
import { MysqlAdapter, PostgresAdapter, sql, type Kysely, type Transaction } from 'kysely';

/** How long a MySQL request waits for a lock before giving up, in seconds. */
const MYSQL_WAIT_S = 20;
/** The first half of PostgreSQL's two-part advisory lock key: what shellchat's locks share. */
const PG_NAMESPACE = 0x5c4a7c1;

const digest = (key: string) => createHash('sha256').update(key).digest();

export async function withKeyLocks<DB, T>(db: Kysely<DB>, keys: string[], work: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
  const ordered = [...new Set(keys)].sort();
  const adapter = db.getExecutor().adapter;
  if (adapter instanceof PostgresAdapter) {
    return db.transaction().execute(async (trx) => {
      for (const key of ordered) await sql`select pg_advisory_xact_lock(${PG_NAMESPACE}, ${digest(key).readInt32BE(0)})`.execute(trx);
      return work(trx);
    });
  }
  if (adapter instanceof MysqlAdapter) {
    // Lock names are at most 64 characters.
    const names = ordered.map((key) => `shellchat:${digest(key).toString('base64url').slice(0, 32)}`);
    return db.connection().execute(async (conn) => {
      const taken: string[] = [];
      try {
        for (const name of names) {
          const got = await sql<{ got: number | null }>`select get_lock(${name}, ${MYSQL_WAIT_S}) as got`.execute(conn);
          if (Number(got.rows[0]?.got) !== 1) throw new Error(`Timed out waiting for the lock ${name}`);
          taken.push(name);
        }
        return await conn.transaction().execute(work);
      } finally {
        // A lock not released here goes with the connection's session.
        for (const name of taken.reverse()) await sql`select release_lock(${name})`.execute(conn).catch(() => undefined);
      }
    });
  }
  return db.transaction().execute(work);
}
