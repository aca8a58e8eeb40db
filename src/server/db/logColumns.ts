// The plugins' columns of logs (SessionsApi.addLogColumn), one list per database: every writer of
// logs (a turn here, an import in its plugin) adds them to its rows, so each is computed once, by
// the server, from the text it writes.
import type { Kysely } from 'kysely';
import type { LogColumn, LogText } from '../../core/index.ts';

const byDatabase = new WeakMap<Kysely<never>, LogColumn[]>();

export function addLogColumn(db: Kysely<never>, column: LogColumn): void {
  const list = byDatabase.get(db) ?? [];
  if (list.some((c) => c.name === column.name)) throw new Error(`log column ${column.name} is added twice`);
  byDatabase.set(db, [...list, column]);
}

/** The values of the columns for a log about to be written; none when no plugin added one. */
export function logColumns(db: Kysely<never>, log: LogText): Record<string, unknown> {
  const list = byDatabase.get(db);
  if (!list) return {};
  return Object.fromEntries(list.map((c) => [c.name, c.value(log)]));
}
