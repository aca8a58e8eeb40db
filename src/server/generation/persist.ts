// A finished turn is one log row plus its usage rows, written in one transaction, so a
// crash can lose an unfinished answer but never leaves a log without its cost (or the reverse).
import type { Kysely } from 'kysely';
import type { Database, ToolResult } from '../../core/index.ts';
import type { Owner } from './owner.ts';

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

export async function saveTurn(db: Kysely<Database>, turn: TurnRecord): Promise<{ time: number; logId: number }> {
  return db.transaction().execute(async (trx) => {
    const last = await trx.selectFrom('logs').select((eb) => eb.fn.max('time').as('time')).where('session', '=', turn.session).executeTakeFirst();
    // Times are unique within a session and never before the session itself.
    const time = Math.max(Date.now(), Number(last?.time ?? 0) + 1, turn.session);
    const now = Date.now();
    const owner = { user_id: turn.owner.user?.id ?? null, device_id: turn.owner.user ? null : turn.owner.deviceId };
    const insert = trx
      .insertInto('logs')
      .values({
        session: turn.session,
        time,
        ...owner,
        model: turn.model,
        input: turn.input,
        output: turn.output,
        images: JSON.stringify(turn.images),
        tools: JSON.stringify(turn.tools),
        input_tokens: turn.usage.inputTokens,
        output_tokens: turn.usage.outputTokens,
        created_at: now,
      });
    // The new row's id: RETURNING where the engine has it (SQLite, PostgreSQL), else MySQL's insertId.
    const log = trx.getExecutor().adapter.supportsReturning
      ? await insert.returning('id').executeTakeFirstOrThrow()
      : { id: Number((await insert.executeTakeFirstOrThrow()).insertId) };
    const usage = [{ kind: 'chat', model: turn.model, ...turn.usage }, ...(turn.evalUsage ? [{ kind: 'eval', ...turn.evalUsage }] : [])];
    for (const u of usage) {
      await trx
        .insertInto('usage')
        .values({ ...owner, log_id: log.id, kind: u.kind, model: u.model, input_tokens: u.inputTokens, output_tokens: u.outputTokens, cost: u.cost, created_at: now })
        .execute();
    }
    await trx.updateTable('sessions').set({ updated_at: now }).where('id', '=', turn.session).execute();
    return { time, logId: log.id };
  });
}
