// A finished turn is one log row plus its usage rows, written in one transaction, so a
// crash can lose an unfinished answer but never leaves a log without its cost (or the reverse).
// Turns that finish together share that transaction (group commit); the turn is reported done
// only once it is committed. Where the question's use was recorded when it started (uses.ts),
// the turn completes that row instead of adding one.
import type { Kysely, Transaction } from 'kysely';
import type { Database, ToolResult } from '../../core/index.ts';
import { grouped } from '../db/groupCommit.ts';
import { logColumns } from '../db/logColumns.ts';
import { precompiled } from '../db/precompiled.ts';
import type { Owner } from './owner.ts';
import { maxLogTime } from './sessions.ts';
import { ownedBy } from './uses.ts';

export interface TurnRecord {
  session: number;
  owner: Owner;
  model: string;
  input: string;
  output: string;
  images: string[];
  tools: ToolResult[];
  usage: { inputTokens: number; outputTokens: number; cost: number };
  /** Self-evaluation tokens, counted too. */
  evalUsage?: { model: string; inputTokens: number; outputTokens: number; cost: number };
  /** The question's use, recorded when it started (uses.ts): completed rather than added. */
  useId?: number;
  /** A local model's log (/api/log/add): it completes the use waiting in its session, if there is one. */
  localTurn?: boolean;
  /** The ledger rows' tag (a server turn's: ServerTurnInput.tag). */
  tag?: string;
  /** Usage rows only, no log (a server turn asked for none, or a round that handed tool calls over). */
  noLog?: boolean;
  /** The plugins' columns of the log (logColumns.ts), computed before the turn waits for its transaction. */
  columns?: Record<string, unknown>;
}

/**
 * Tokens of a turn the provider never reported (it was stopped before the stream's usage
 * chunk): about 4 bytes of UTF-8 per token, which also counts CJK text about right.
 */
export function estimateUsage(messages: unknown, output: string): { inputTokens: number; outputTokens: number } {
  const tokens = (text: string) => Math.ceil(Buffer.byteLength(text) / 4);
  return { inputTokens: tokens(JSON.stringify(messages)), outputTokens: tokens(output) };
}

// The queries of every turn, compiled once (see precompiled.ts).
interface LogValues {
  session: number;
  time: number;
  userId: number | null;
  deviceId: string | null;
  model: string;
  input: string;
  output: string;
  images: string;
  tools: string;
  inputTokens: number;
  outputTokens: number;
  now: number;
}
const logRow = (a: LogValues) => ({
  session: a.session,
  time: a.time,
  user_id: a.userId,
  device_id: a.deviceId,
  model: a.model,
  input: a.input,
  output: a.output,
  images: a.images,
  tools: a.tools,
  input_tokens: a.inputTokens,
  output_tokens: a.outputTokens,
  created_at: a.now,
});
const insertLog = precompiled((db, a: LogValues) => {
  const insert = db.insertInto('logs').values(logRow(a));
  // The new row's id: RETURNING where the engine has it (SQLite, PostgreSQL), else MySQL's insertId.
  return db.getExecutor().adapter.supportsReturning ? insert.returning('id') : insert;
});
/** The insert with plugins' columns (logColumns.ts): not precompiled, their names known only at run time. */
async function insertLogWith(db: Kysely<Database>, a: LogValues, columns: Record<string, unknown>): Promise<{ rows: { id: number }[]; insertId?: bigint }> {
  const insert = db.insertInto('logs').values({ ...logRow(a), ...columns });
  if (db.getExecutor().adapter.supportsReturning) return { rows: await insert.returning('id').execute() };
  return { rows: [], insertId: (await insert.executeTakeFirst()).insertId };
}
interface UsageValues {
  userId: number | null;
  deviceId: string | null;
  address: string | null;
  logId: number | null;
  kind: string;
  model: string;
  inputTokens: number;
  outputTokens: number;
  cost: number;
  now: number;
  tag: string | null;
}
const insertUsage = precompiled((db, a: UsageValues) =>
  db.insertInto('usage').values({
    user_id: a.userId,
    device_id: a.deviceId,
    address: a.address,
    log_id: a.logId,
    tag: a.tag,
    kind: a.kind,
    model: a.model,
    input_tokens: a.inputTokens,
    output_tokens: a.outputTokens,
    cost: a.cost,
    created_at: a.now,
  }),
);
/** The use recorded when the question started gets its log, model, tokens and cost (adding to an earlier round's). */
const completeUse = precompiled((db, a: { id: number; logId: number | null; model: string; inputTokens: number; outputTokens: number; cost: number; tag: string | null }) =>
  db
    .updateTable('usage')
    .set((eb) => ({
      log_id: a.logId,
      tag: a.tag,
      model: a.model,
      input_tokens: eb('input_tokens', '+', a.inputTokens),
      output_tokens: eb('output_tokens', '+', a.outputTokens),
      cost: eb('cost', '+', a.cost),
      awaiting: null,
    }))
    .where('id', '=', a.id),
);
const touchSession = precompiled((db, a: { id: number; now: number }) => db.updateTable('sessions').set({ updated_at: a.now }).where('id', '=', a.id));

interface SavedTurn {
  time: number;
  /** Null when the turn kept no log (TurnRecord.noLog). */
  logId: number | null;
}

const saveGrouped = grouped(writeTurn);
/** Saves a turn; turns that finish together share a transaction (groupCommit.ts). */
export const saveTurn = (db: Kysely<Database>, turn: TurnRecord): Promise<SavedTurn> =>
  saveGrouped(db, turn.noLog ? turn : { ...turn, columns: logColumns(db as never, turn) });

async function writeTurn(trx: Transaction<Database>, turn: TurnRecord): Promise<SavedTurn> {
  if (turn.noLog) {
    await writeUsage(trx, turn, null, Date.now());
    return { time: 0, logId: null };
  }
  const last = (await maxLogTime(trx, { session: turn.session })).rows[0];
  // Times are unique within a session and never before the session itself.
  const time = Math.max(Date.now(), Number(last?.time ?? 0) + 1, turn.session);
  const now = Date.now();
  const userId = turn.owner.user?.id ?? null;
  const deviceId = turn.owner.user ? null : turn.owner.deviceId;
  const row = {
    session: turn.session,
    time,
    userId,
    deviceId,
    model: turn.model,
    input: turn.input,
    output: turn.output,
    images: JSON.stringify(turn.images),
    tools: JSON.stringify(turn.tools),
    inputTokens: turn.usage.inputTokens,
    outputTokens: turn.usage.outputTokens,
    now,
  };
  const inserted = turn.columns && Object.keys(turn.columns).length ? await insertLogWith(trx, row, turn.columns) : await insertLog(trx, row);
  const logId = Number((inserted.rows[0] as { id?: number } | undefined)?.id ?? inserted.insertId);
  await writeUsage(trx, turn, logId, now);
  await touchSession(trx, { id: turn.session, now });
  return { time, logId };
}

/** The turn's usage rows: its use completed (or a row added), and the self-evaluation's. */
async function writeUsage(trx: Transaction<Database>, turn: TurnRecord, logId: number | null, now: number): Promise<void> {
  const userId = turn.owner.user?.id ?? null;
  const deviceId = turn.owner.user ? null : turn.owner.deviceId;
  const address = turn.owner.user ? null : (turn.owner.address ?? null);
  const tag = turn.tag ?? null;
  const useId = turn.useId ?? (turn.localTurn ? await waitingLocalUse(trx, turn) : undefined);
  if (useId !== undefined) await completeUse(trx, { id: useId, logId, model: turn.model, ...turn.usage, tag });
  else await insertUsage(trx, { userId, deviceId, address, logId, kind: 'chat', model: turn.model, ...turn.usage, now, tag });
  if (turn.evalUsage) await insertUsage(trx, { userId, deviceId, address, logId, kind: 'eval', ...turn.evalUsage, now, tag });
}

/** The use a local model's turn recorded at /api/generate_msg, waiting for this log in its session. */
async function waitingLocalUse(trx: Transaction<Database>, turn: TurnRecord): Promise<number | undefined> {
  const row = await trx
    .selectFrom('usage')
    .select('id')
    .where(ownedBy(turn.owner))
    .where('kind', '=', 'chat')
    .where('awaiting', '=', turn.session)
    .orderBy('id')
    .executeTakeFirst();
  return row ? Number(row.id) : undefined;
}
