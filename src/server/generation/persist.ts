// A finished turn is one log row plus its usage rows, written in one transaction, so a
// crash can lose an unfinished answer but never leaves a log without its cost (or the reverse).
import type { Kysely } from 'kysely';
import type { Database, ToolResult } from '../../core/index.ts';
import { precompiled } from '../db/precompiled.ts';
import type { Owner } from './owner.ts';
import { maxLogTime } from './sessions.ts';

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
const insertLog = precompiled(
  (
    db,
    session: number,
    time: number,
    userId: number | null,
    deviceId: string | null,
    model: string,
    input: string,
    output: string,
    images: string,
    tools: string,
    inputTokens: number,
    outputTokens: number,
    now: number,
  ) => {
    const insert = db.insertInto('logs').values({
      session,
      time,
      user_id: userId,
      device_id: deviceId,
      model,
      input,
      output,
      images,
      tools,
      input_tokens: inputTokens,
      output_tokens: outputTokens,
      created_at: now,
    });
    // The new row's id: RETURNING where the engine has it (SQLite, PostgreSQL), else MySQL's insertId.
    return db.getExecutor().adapter.supportsReturning ? insert.returning('id') : insert;
  },
);
const insertUsage = precompiled(
  (db, userId: number | null, deviceId: string | null, logId: number, kind: string, model: string, inputTokens: number, outputTokens: number, cost: number, now: number) =>
    db.insertInto('usage').values({ user_id: userId, device_id: deviceId, log_id: logId, kind, model, input_tokens: inputTokens, output_tokens: outputTokens, cost, created_at: now }),
);
const touchSession = precompiled((db, id: number, now: number) => db.updateTable('sessions').set({ updated_at: now }).where('id', '=', id));

export async function saveTurn(db: Kysely<Database>, turn: TurnRecord): Promise<{ time: number; logId: number }> {
  return db.transaction().execute(async (trx) => {
    const last = (await maxLogTime(trx, turn.session)).rows[0];
    // Times are unique within a session and never before the session itself.
    const time = Math.max(Date.now(), Number(last?.time ?? 0) + 1, turn.session);
    const now = Date.now();
    const userId = turn.owner.user?.id ?? null;
    const deviceId = turn.owner.user ? null : turn.owner.deviceId;
    const inserted = await insertLog(
      trx,
      turn.session,
      time,
      userId,
      deviceId,
      turn.model,
      turn.input,
      turn.output,
      JSON.stringify(turn.images),
      JSON.stringify(turn.tools),
      turn.usage.inputTokens,
      turn.usage.outputTokens,
      now,
    );
    const logId = Number((inserted.rows[0] as { id?: number } | undefined)?.id ?? inserted.insertId);
    const usage = [{ kind: 'chat', model: turn.model, ...turn.usage }, ...(turn.evalUsage ? [{ kind: 'eval', ...turn.evalUsage }] : [])];
    for (const u of usage) await insertUsage(trx, userId, deviceId, logId, u.kind, u.model, u.inputTokens, u.outputTokens, u.cost, now);
    await touchSession(trx, turn.session, now);
    return { time, logId };
  });
}
