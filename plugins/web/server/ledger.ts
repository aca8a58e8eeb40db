// Searches and page reads in the usage ledger (a `web_search` or `web_fetch` row each, no
// tokens, no cost) and their limits per role (WEB_USAGE_LIMITS, counted over those rows in
// rolling windows; root has none), and the per-question bound: one question's searches and
// reads, counted by the turn's own signal, stop at WEB_TURN_MAX_CALLS (a visitor's at
// WEB_VISITOR_TURN_MAX_CALLS), its web text at WEB_TURN_MAX_CHARS.
import type { Kysely } from 'kysely';
import { MessageError } from '../../../src/core/messages.ts';
import { rankOf, ROLE_RANKS, USAGE_WINDOWS_MS, type Database, type SessionOwner } from '../../../src/core/index.ts';
import { MESSAGES } from '../common/messages.ts';
import type { WebConfig } from './env.ts';

export type WebUse = 'web_search' | 'web_fetch';

/** One question's web spending: its calls, its characters, and its sources by number. */
export interface TurnBudget {
  calls: number;
  chars: number;
  sources: string[];
}

const turns = new WeakMap<AbortSignal, TurnBudget>();

/** The budget of the question whose turn carries `signal` (a route's request gets its own). */
export function budgetOf(signal: AbortSignal): TurnBudget {
  let budget = turns.get(signal);
  if (!budget) turns.set(signal, (budget = { calls: 0, chars: 0, sources: [] }));
  return budget;
}

/** The number a source goes by in this question (the same URL keeps its number). */
export function sourceNumber(budget: TurnBudget, url: string): number {
  const at = budget.sources.indexOf(url);
  if (at >= 0) return at + 1;
  budget.sources.push(url);
  return budget.sources.length;
}

const WINDOWS = ['daily', 'weekly', 'monthly'] as const;
const WINDOW_WORDS = { daily: 'day', weekly: 'week', monthly: 'month' } as const;

export function createLedger(db: Kysely<Database>, config: WebConfig, now: () => number) {
  async function used(owner: SessionOwner, since: number): Promise<number> {
    const row = await db
      .selectFrom('usage')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where((eb) => (owner.user ? eb('user_id', '=', owner.user.id) : eb.and([eb('user_id', 'is', null), eb('device_id', '=', owner.deviceId)])))
      .where('kind', 'in', ['web_search', 'web_fetch'])
      .where('created_at', '>=', since)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  return {
    /**
     * Counts one search or read for `owner` in `budget`'s question, or throws the refusal:
     * the question's own bound first, then the role's limits; the use is recorded before it runs.
     */
    async spend(owner: SessionOwner, kind: WebUse, budget: TurnBudget | undefined): Promise<void> {
      await this.check(owner, budget);
      await this.record(owner, kind);
    },

    /** Throws the refusal when the question's bound or the role's limits are reached (counts the call in `budget`). */
    async check(owner: SessionOwner, budget: TurnBudget | undefined): Promise<void> {
      if (budget) {
        const max = owner.user ? config.turnMaxCalls : config.visitorTurnMaxCalls;
        if (budget.calls >= max) throw new MessageError(MESSAGES.turnLimit(max));
        budget.calls++;
      }
      const root = owner.root || (owner.user !== null && rankOf(owner.user.role) >= ROLE_RANKS.root_user);
      const limits = root ? undefined : config.usageLimits[owner.user ? owner.user.role : 'anonymous'];
      const at = now();
      if (limits) {
        for (const w of WINDOWS) {
          const limit = limits[w];
          if (limit === null) continue;
          const n = await used(owner, at - USAGE_WINDOWS_MS[w]);
          if (n >= limit) throw new MessageError(MESSAGES.limit(n, limit, WINDOW_WORDS[w]));
        }
      }
    },

    /** Writes the use's row of the ledger. */
    async record(owner: SessionOwner, kind: WebUse): Promise<void> {
      await db
        .insertInto('usage')
        .values({
          user_id: owner.user?.id ?? null,
          device_id: owner.user ? null : owner.deviceId,
          address: owner.user ? null : (owner.address ?? null),
          log_id: null,
          kind,
          model: 'web',
          input_tokens: 0,
          output_tokens: 0,
          cost: 0,
          created_at: now(),
        })
        .execute();
    },
  };
}

export type Ledger = ReturnType<typeof createLedger>;
