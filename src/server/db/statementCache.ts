// Kysely's SQLite driver prepares every query again (about 11% of the server's CPU on a short
// chat turn, measured with --cpu-prof). better-sqlite3 statements are reusable, so the same
// SQL text gets the same prepared statement from a bounded LRU cache. SQLite re-prepares a
// cached statement itself after a schema change.
import type { Database as SQLiteDatabase, Statement } from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';

export function withStatementCache(db: SQLiteDatabase, size = 500): SqliteDatabase {
  const cache = new Map<string, Statement>();
  return {
    close: () => {
      cache.clear();
      db.close();
    },
    prepare(sql: string) {
      let statement = cache.get(sql);
      if (statement) {
        // Most recently used last, so the oldest is first to go.
        cache.delete(sql);
      } else {
        statement = db.prepare(sql);
        if (cache.size >= size) cache.delete(cache.keys().next().value!);
      }
      cache.set(sql, statement);
      return statement as never;
    },
  };
}
