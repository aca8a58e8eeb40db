// One conversation into the importer's sessions and logs, in one transaction: all of it, or
// nothing (a failure rolls it back and the report says why). The conversation's source id is
// written with it, so the same conversation is found, and skipped, the next time.
import { SESSION_ID_MAX, SESSION_ID_MIN, type Database, type LogsTable, type UserRow } from '../../../../src/core/index.ts';
import type { Insertable, Kysely, Transaction } from 'kysely';
import type { ArchiveDb } from '../table.ts';
import type { ImportedConversation } from './model.ts';

export type Written = { status: 'imported'; session: number; sessions: number; logs: number } | { status: 'skipped'; session: number };

/** Rows per INSERT, and characters: MySQL's packet stays far under its limit. */
const BATCH_ROWS = 200;
const BATCH_CHARS = 2 * 1024 * 1024;

/**
 * A free session id at or after `wanted` (session ids are times: a taken one moves a
 * millisecond). Many conversations of one moment probe longer and longer: the import's deadline
 * bounds that too.
 */
async function freeId(trx: Transaction<Database>, wanted: number, taken: Set<number>, deadline: Deadline): Promise<number> {
  let id = Math.min(Math.max(Math.round(wanted), SESSION_ID_MIN), SESSION_ID_MAX);
  for (let probes = 1; ; probes++) {
    if (probes % 100 === 0) deadline.check();
    if (!taken.has(id) && !(await trx.selectFrom('sessions').select('id').where('id', '=', id).executeTakeFirst())) return id;
    id++;
  }
}

/** The import's deadline: `check` throws the archive's refusal once it passed. */
export interface Deadline {
  check(): void;
}

export async function writeConversation(db: ArchiveDb, user: UserRow, conversation: ImportedConversation, now: number, deadline: Deadline): Promise<Written> {
  const found = await db
    .selectFrom('archive_sources')
    .select('session_id')
    .where('user_id', '=', user.id)
    .where('source', '=', conversation.source)
    .where('source_id', '=', conversation.sourceId)
    .executeTakeFirst();
  if (found) return { status: 'skipped', session: Number(found.session_id) };
  const root = conversation.sessions[0]!;
  // Shellchat's own export read back into the same account: its sessions are already there.
  if (conversation.source === 'shellchat' && root.id !== undefined) {
    const own = await db.selectFrom('sessions').select('id').where('id', '=', root.id).where('user_id', '=', user.id).executeTakeFirst();
    if (own) return { status: 'skipped', session: root.id };
  }
  return (db as unknown as Kysely<Database>).transaction().execute(async (trx) => {
    const ids = new Map<string, number>();
    const taken = new Set<number>();
    let logs = 0;
    for (const session of conversation.sessions) {
      const id = await freeId(trx, session.id ?? session.logs[0]?.time ?? session.createdAt, taken, deadline);
      taken.add(id);
      ids.set(session.key, id);
      const parent = session.parent === null ? null : (ids.get(session.parent) ?? null);
      await trx
        .insertInto('sessions')
        .values({ id, parent_id: parent, branch_time: parent === null ? null : session.branchTime, user_id: user.id, device_id: null, shared: 0, created_at: session.createdAt || id, updated_at: now })
        .execute();
      let batch: Insertable<LogsTable>[] = [];
      let chars = 0;
      const flush = async () => {
        if (batch.length) await trx.insertInto('logs').values(batch).execute();
        batch = [];
        chars = 0;
      };
      for (const log of session.logs) {
        batch.push({
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
        });
        chars += log.input.length + log.output.length;
        if (batch.length >= BATCH_ROWS || chars >= BATCH_CHARS) await flush();
      }
      await flush();
      logs += session.logs.length;
    }
    const first = ids.get(root.key)!;
    await (trx as unknown as ArchiveDb)
      .insertInto('archive_sources')
      .values({ user_id: user.id, source: conversation.source, source_id: conversation.sourceId, session_id: first, created_at: now })
      .execute();
    return { status: 'imported' as const, session: first, sessions: conversation.sessions.length, logs };
  });
}
