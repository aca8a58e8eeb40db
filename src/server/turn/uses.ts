// A question counts from when it starts (issue 34). With usage limits on, a turn first takes
// the asker's locks (db/keyLock.ts), lets the limits count the uses so far, and records its own
// use in the same transaction: a `chat` row of the usage ledger, which the finished turn then
// completes with its log, model, tokens and cost (persist.ts) rather than adding a second one.
// Twenty questions sent at once are so counted one after the other, on every engine and across
// instances that share the database. A use is removed again when the turn ends before its
// model was asked (a guard, a session or a model that is not there, a stop meanwhile); once
// the model was asked it counts, whatever the answer became.
// A question goes on after the browser runs its tools (the server hands the calls over, and the
// browser sends the turn again with their results): the use waits in its session (`awaiting`)
// and the next round takes it over instead of counting another, at most MAX_TOOL_ROUNDS times.
// A local model's turn (/api/generate_msg) waits the same way for its /api/log/add.
import type { ExpressionBuilder, Kysely, Transaction } from 'kysely';
import { MAX_TOOL_ROUNDS, type Database, type UseLimit } from '../../core/index.ts';
import { withKeyLocks } from '../db/keyLock.ts';
import { GenerationError } from './errors.ts';
import type { Owner } from './owner.ts';

/** A question's use: its row of the usage ledger. */
export interface Use {
  id: number;
  /** Recorded by this turn (not taken over from an earlier round): removed if the model is never asked. */
  fresh: boolean;
  /** The model has been asked: the use counts whatever happens next. */
  asked: boolean;
  /** The model the use is for, once the turn knows it. */
  model: string;
}

/** What a person's uses are counted under: the user, or a visitor's browser and address. */
export function useLockKeys(owner: Owner): string[] {
  if (owner.user) return [`user:${owner.user.id}`];
  return [`device:${owner.deviceId}`, ...(owner.address ? [`address:${owner.address}`] : [])];
}

/** The ledger rows that are this owner's. */
export const ownedBy = (owner: Owner) => (eb: ExpressionBuilder<Database, 'usage'>) =>
  owner.user ? eb('user_id', '=', owner.user.id) : eb.and([eb('user_id', 'is', null), eb('device_id', '=', owner.deviceId)]);

/** The use waiting in `session` for this owner, taken over (no longer waiting); undefined when there is none. */
async function takeWaiting(trx: Transaction<Database>, owner: Owner, session: number, maxContinued: number): Promise<number | undefined> {
  const waiting = await trx
    .selectFrom('usage')
    .select(['id', 'continued'])
    .where(ownedBy(owner))
    .where('kind', '=', 'chat')
    .where('awaiting', '=', session)
    .orderBy('id', 'desc')
    .executeTakeFirst();
  if (!waiting || Number(waiting.continued) >= maxContinued) return undefined;
  await trx
    .updateTable('usage')
    .set((eb) => ({ awaiting: null, continued: eb('continued', '+', 1) }))
    .where('id', '=', waiting.id)
    .execute();
  return Number(waiting.id);
}

/**
 * Records a question's use once the limits let it through (else throws their refusal as a
 * GenerationError). `continues`: the session of a round that carries the browser's tool
 * results, which takes over the use that waits there.
 */
export async function reserveUse(db: Kysely<Database>, limits: UseLimit[], owner: Owner, what: { model: string; continues?: number; tag?: string }): Promise<Use> {
  return withKeyLocks(db, useLockKeys(owner), async (trx) => {
    if (what.continues !== undefined) {
      const id = await takeWaiting(trx, owner, what.continues, MAX_TOOL_ROUNDS);
      if (id !== undefined) return { id, fresh: false, asked: false, model: what.model };
    }
    const now = Date.now();
    for (const limit of limits) {
      const refusal = await limit({ db: trx, owner, now });
      if (typeof refusal === 'object' && 'retryAt' in refusal) throw new GenerationError(refusal.said, refusal.retryAt);
      if (refusal) throw new GenerationError(refusal);
    }
    const insert = trx.insertInto('usage').values({
      user_id: owner.user?.id ?? null,
      device_id: owner.user ? null : owner.deviceId,
      address: owner.user ? null : (owner.address ?? null),
      log_id: null,
      kind: 'chat',
      tag: what.tag ?? null,
      model: what.model,
      input_tokens: 0,
      output_tokens: 0,
      cost: 0,
      created_at: now,
    });
    const id = trx.getExecutor().adapter.supportsReturning
      ? (await insert.returning('id').executeTakeFirstOrThrow()).id
      : (await insert.executeTakeFirstOrThrow()).insertId;
    return { id: Number(id), fresh: true, asked: false, model: what.model };
  });
}

/**
 * A turn that ended without a log: its use is removed when the model was never asked, else it
 * stays counted (for the model it was for).
 */
export async function settleUse(db: Kysely<Database>, use: Use | undefined): Promise<void> {
  if (!use) return;
  if (!use.asked) {
    if (use.fresh) await db.deleteFrom('usage').where('id', '=', use.id).execute();
    return;
  }
  await db.updateTable('usage').set({ model: use.model }).where('id', '=', use.id).execute();
}

/**
 * A round whose tool calls the browser runs: its tokens go on the use, which waits in the
 * session for the round that brings their results.
 */
export async function awaitToolResults(db: Kysely<Database>, use: Use, session: number, used: { inputTokens: number; outputTokens: number; cost: number }): Promise<void> {
  await db
    .updateTable('usage')
    .set((eb) => ({
      model: use.model,
      input_tokens: eb('input_tokens', '+', used.inputTokens),
      output_tokens: eb('output_tokens', '+', used.outputTokens),
      cost: eb('cost', '+', used.cost),
      awaiting: session,
    }))
    .where('id', '=', use.id)
    .execute();
}

/** A local model's turn: its use waits in the session its /api/log/add will name. */
export async function awaitLocalLog(db: Kysely<Database>, use: Use, session: number): Promise<void> {
  await db.updateTable('usage').set({ awaiting: session }).where('id', '=', use.id).execute();
}
