// Searches and page reads in the usage ledger (a `web_search` or `web_fetch` row each, no
// tokens, no cost) and their limits per role (WEB_USAGE_LIMITS, counted over those rows in
// rolling windows, a visitor per browser and per address; root has none), and the per-question bound: one question's searches and
// reads, counted by the turn's own signal, stop at WEB_TURN_MAX_CALLS (a visitor's at
// WEB_VISITOR_TURN_MAX_CALLS), its web text at WEB_TURN_MAX_CHARS.
import type { Expression, ExpressionBuilder, SqlBool, Transaction } from 'kysely';
import { MessageError } from '../../../src/core/messages.ts';
import { rankOf, ROLE_RANKS, USAGE_WINDOWS_MS, type Database, type ServerPluginContext, type SessionOwner } from '../../../src/core/index.ts';
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

/** What the ledger needs of the server: the locked transaction a question's use takes, and the clock. */
export interface LedgerDeps {
  withUseLocks: ServerPluginContext['withUseLocks'];
  now(): number;
  /** How many visitors' worth of the `anonymous` limits one address gets (VISITORS_PER_ADDRESS). */
  visitorsPerAddress: number;
}

type Rows = (eb: ExpressionBuilder<Database, 'usage'>) => Expression<SqlBool>;

export function createLedger(config: WebConfig, deps: LedgerDeps) {
  // A visitor is counted per browser and per address (issue 34): dropping the cookie does not
  // reset the limits, the address's visitors share VISITORS_PER_ADDRESS times them.
  const mine = (owner: SessionOwner): Rows => (eb) =>
    owner.user ? eb('user_id', '=', owner.user.id) : eb.and([eb('user_id', 'is', null), eb('device_id', '=', owner.deviceId)]);
  const fromAddress = (address: string): Rows => (eb) => eb.and([eb('user_id', 'is', null), eb('address', '=', address)]);

  /** Rows of `rows` since each of `sinces`, counted in one query (a search's limit check is on its path). */
  async function used(db: Transaction<Database>, rows: Rows, sinces: number[]): Promise<number[]> {
    const row = await db
      .selectFrom('usage')
      .select((eb) => sinces.map((since, i) => eb.fn.sum<number | string | null>(eb.case().when('created_at', '>=', since).then(1).else(0).end()).as(`n${i}`)))
      .where(rows)
      .where('kind', 'in', ['web_search', 'web_fetch'])
      .where('created_at', '>=', Math.min(...sinces))
      .executeTakeFirst();
    return sinces.map((_, i) => Number((row as Record<string, unknown> | undefined)?.[`n${i}`] ?? 0));
  }

  /** Throws the refusal when the question's bound is reached (counts the call in `budget`). */
  function checkTurn(owner: SessionOwner, budget: TurnBudget | undefined): void {
    if (!budget) return;
    const max = owner.user ? config.turnMaxCalls : config.visitorTurnMaxCalls;
    if (budget.calls >= max) throw new MessageError(MESSAGES.turnLimit(max));
    budget.calls++;
  }

  /** Throws the refusal when the role's limits are reached, counted in the locked transaction. */
  async function checkRole(db: Transaction<Database>, owner: SessionOwner, at: number): Promise<void> {
    const root = owner.root || (owner.user !== null && rankOf(owner.user.role) >= ROLE_RANKS.root_user);
    const limits = root ? undefined : config.usageLimits[owner.user ? owner.user.role : 'anonymous'];
    if (!limits) return;
    const counted: [Rows, number][] = [[mine(owner), 1]];
    if (!owner.user && owner.address) counted.push([fromAddress(owner.address), deps.visitorsPerAddress]);
    const windows = WINDOWS.filter((w) => limits[w] !== null);
    if (!windows.length) return;
    for (const [rows, factor] of counted) {
      const counts = await used(db, rows, windows.map((w) => at - USAGE_WINDOWS_MS[w]));
      windows.forEach((w, i) => {
        const limit = limits[w]! * factor;
        if (counts[i]! >= limit) throw new MessageError(MESSAGES.limit(counts[i]!, limit, WINDOW_WORDS[w]));
      });
    }
  }

  return {
    /**
     * Throws the refusal a search or read would get now, counting nothing: a `+web[...]`
     * question is refused by it before anything is asked or spent (its guard).
     */
    async check(owner: SessionOwner): Promise<void> {
      checkTurn(owner, { calls: 0, chars: 0, sources: [] });
      await deps.withUseLocks(owner, (db) => checkRole(db, owner, deps.now()));
    },
    /**
     * Counts one search or read for `owner` in `budget`'s question, or throws the refusal: the
     * question's own bound first, then the role's limits, checked and recorded under the asker's
     * locks, so that searches sent at once are counted one after the other.
     */
    async spend(owner: SessionOwner, kind: WebUse, budget: TurnBudget | undefined): Promise<void> {
      checkTurn(owner, budget);
      await deps.withUseLocks(owner, async (db) => {
        const at = deps.now();
        await checkRole(db, owner, at);
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
            created_at: at,
          })
          .execute();
      });
    },
  };
}

export type Ledger = ReturnType<typeof createLedger>;
