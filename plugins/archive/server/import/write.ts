// Conversations into the importer's sessions and logs. A batch of conversations is written in
// one transaction with multi-row statements (a few round trips for the batch, not several per
// conversation: PostgreSQL's cost was its round trips); should the batch fail, each of its
// conversations is written again alone, in its own transaction, so one that cannot be written
// is refused and the others are not: never half of a conversation either way. Each
// conversation's source id is written with it, so the same conversation is skipped next time.
import { SESSION_ID_MAX, SESSION_ID_MIN, type Database, type LogText, type LogsTable, type SessionsTable, type UserRow } from '../../../../src/core/index.ts';
import type { Insertable, Kysely, Transaction } from 'kysely';
import type { ArchiveDb } from '../table.ts';
import type { ImportedConversation } from './model.ts';

export type Written = { status: 'imported'; session: number; sessions: number; logs: number } | { status: 'skipped'; session: number };

/** Rows per INSERT, and characters: MySQL's packet and PostgreSQL's 65,535 parameters stay far off. */
const BATCH_ROWS = 200;
const BATCH_CHARS = 2 * 1024 * 1024;
/** Session ids looked up at once. */
const IDS_AT_ONCE = 500;

/** The import's deadline: `check` throws the archive's refusal once it passed. */
export interface Deadline {
  check(): void;
}

const keyOf = (c: ImportedConversation) => `${c.source}\u0000${c.sourceId}`;

/**
 * Which of these conversations are there already (imported before, or shellchat's own sessions
 * read back into the same account): their first session, by position.
 */
export async function alreadyThere(db: ArchiveDb, user: UserRow, conversations: ImportedConversation[]): Promise<Map<number, number>> {
  const found = new Map<number, number>();
  if (!conversations.length) return found;
  const ids = [...new Set(conversations.map((c) => c.sourceId))];
  const known = new Map<string, number>();
  for (let i = 0; i < ids.length; i += IDS_AT_ONCE) {
    const rows = await db.selectFrom('archive_sources').select(['source', 'source_id', 'session_id']).where('user_id', '=', user.id).where('source_id', 'in', ids.slice(i, i + IDS_AT_ONCE)).execute();
    for (const r of rows) known.set(`${r.source}\u0000${r.source_id}`, Number(r.session_id));
  }
  const own = conversations.flatMap((c) => (c.source === 'shellchat' && c.sessions[0]!.id !== undefined ? [c.sessions[0]!.id] : []));
  const mine = new Set<number>();
  for (let i = 0; i < own.length; i += IDS_AT_ONCE) {
    const rows = await db.selectFrom('sessions').select('id').where('user_id', '=', user.id).where('id', 'in', own.slice(i, i + IDS_AT_ONCE)).execute();
    for (const r of rows) mine.add(Number(r.id));
  }
  conversations.forEach((c, i) => {
    const session = known.get(keyOf(c));
    if (session !== undefined) found.set(i, session);
    else if (c.source === 'shellchat' && c.sessions[0]!.id !== undefined && mine.has(c.sessions[0]!.id)) found.set(i, c.sessions[0]!.id);
  });
  return found;
}

/**
 * Free session ids for every session of these conversations, each at or after the one it wants
 * (session ids are times: a taken one moves a millisecond), looked up many at once. Many
 * conversations of one moment probe longer and longer: the import's deadline bounds that too.
 */
async function freeIds(trx: Transaction<Database>, conversations: ImportedConversation[], deadline: Deadline): Promise<number[][]> {
  const taken = new Set<number>();
  const wanted = conversations.map((c) => c.sessions.map((s) => Math.min(Math.max(Math.round(s.id ?? s.logs[0]?.time ?? s.createdAt), SESSION_ID_MIN), SESSION_ID_MAX)));
  // Within the batch first: two sessions never want the same id.
  const ids = wanted.map((list) =>
    list.map((id) => {
      while (taken.has(id)) id++;
      taken.add(id);
      return id;
    }),
  );
  // Then against the table: the ids in use move on, until none is.
  for (let round = 1; ; round++) {
    if (round % 10 === 0) deadline.check();
    const all = ids.flat();
    const used = new Set<number>();
    for (let i = 0; i < all.length; i += IDS_AT_ONCE) {
      for (const r of await trx.selectFrom('sessions').select('id').where('id', 'in', all.slice(i, i + IDS_AT_ONCE)).execute()) used.add(Number(r.id));
    }
    if (!used.size) return ids;
    for (const list of ids) {
      for (let j = 0; j < list.length; j++) {
        if (!used.has(list[j]!)) continue;
        let id = list[j]! + 1;
        while (taken.has(id)) id++;
        taken.add(id);
        list[j] = id;
      }
    }
  }
}

/** Inserts rows a batch at a time (rows, and characters for the logs). */
async function insertAll<T>(rows: T[], chars: (row: T) => number, write: (rows: T[]) => Promise<unknown>): Promise<void> {
  let batch: T[] = [];
  let size = 0;
  for (const row of rows) {
    batch.push(row);
    size += chars(row);
    if (batch.length >= BATCH_ROWS || size >= BATCH_CHARS) {
      await write(batch);
      batch = [];
      size = 0;
    }
  }
  if (batch.length) await write(batch);
}

/** How a batch is written: its time, the import's deadline, and the plugins' columns of each log (ctx.sessions.logColumns). */
export interface WriteOptions {
  now: number;
  deadline: Deadline;
  columns(log: LogText): Record<string, unknown>;
}

/** Writes conversations (none there yet) in one transaction: all of them, or none. */
export async function writeAll(db: ArchiveDb, user: UserRow, conversations: ImportedConversation[], { now, deadline, columns }: WriteOptions): Promise<Written[]> {
  return (db as unknown as Kysely<Database>).transaction().execute(async (trx) => {
    const ids = await freeIds(trx, conversations, deadline);
    const sessions: Insertable<SessionsTable>[] = [];
    const logs: Insertable<LogsTable>[] = [];
    const sources: { user_id: number; source: string; source_id: string; session_id: number; created_at: number }[] = [];
    const written = conversations.map((conversation, c): Written => {
      const byKey = new Map<string, number>();
      let count = 0;
      conversation.sessions.forEach((session, s) => {
        const id = ids[c]![s]!;
        byKey.set(session.key, id);
        const parent = session.parent === null ? null : (byKey.get(session.parent) ?? null);
        // Parents come before their branches (model.ts), so a multi-row insert meets them in order.
        sessions.push({ id, parent_id: parent, branch_time: parent === null ? null : session.branchTime, user_id: user.id, device_id: null, shared: 0, created_at: session.createdAt || id, updated_at: now });
        for (const log of session.logs) {
          logs.push({
            session: id,
            time: log.time,
            user_id: user.id,
            device_id: null,
            model: log.model,
            input: log.input,
            output: log.output,
            images: JSON.stringify(log.images),
            tools: JSON.stringify(log.tools ?? []),
            input_tokens: log.inputTokens ?? 0,
            output_tokens: log.outputTokens ?? 0,
            created_at: now,
            ...columns(log),
          });
        }
        count += session.logs.length;
      });
      const first = ids[c]![0]!;
      sources.push({ user_id: user.id, source: conversation.source, source_id: conversation.sourceId, session_id: first, created_at: now });
      return { status: 'imported', session: first, sessions: conversation.sessions.length, logs: count };
    });
    await insertAll(sessions, () => 0, (rows) => trx.insertInto('sessions').values(rows).execute());
    await insertAll(logs, (l) => String(l.input).length + String(l.output).length, (rows) => trx.insertInto('logs').values(rows).execute());
    await insertAll(sources, () => 0, (rows) => (trx as unknown as ArchiveDb).insertInto('archive_sources').values(rows).execute());
    return written;
  });
}
