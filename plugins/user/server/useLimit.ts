// The usage limits of USAGE_LIMITS, counted when a question starts (issue 34): the server calls
// this limit inside a transaction that holds the asker's locks, then records the use
// (src/server/turn/uses.ts), so questions sent at once are counted one after the other.
// A visitor without an account is counted per browser and per address: the visitors at one
// address share VISITORS_PER_ADDRESS times the `anonymous` limits, so a visitor who drops the
// device cookie is still counted with the others there.
// The refusal says what one can do next (issue 33): when the next question will be taken (the
// time the use that holds the limit leaves its rolling window), and to a visitor how to sign up
// or log in.
import type { Kysely } from 'kysely';
import { limitReached, USAGE_WINDOWS_MS, type Database, type Message, type ServerPluginContext, type UsageLimits } from '../../../src/core/index.ts';
import { MESSAGES } from '../common/messages.ts';
import { waitFor } from '../common/rules.ts';
import { limitsFor, mine, useCounts, type UsageRows } from './usage.ts';

const WINDOWS = ['daily', 'weekly', 'monthly'] as const;

/** A visitor's uses from one address (whichever browser). */
const fromAddress =
  (address: string): UsageRows =>
  (eb) =>
    eb.and([eb('user_id', 'is', null), eb('address', '=', address)]);

/** The limits times `factor` (an address's share of the anonymous limits). */
const times = (limits: UsageLimits, factor: number): UsageLimits => ({
  daily: limits.daily === null ? null : limits.daily * factor,
  weekly: limits.weekly === null ? null : limits.weekly * factor,
  monthly: limits.monthly === null ? null : limits.monthly * factor,
});

/**
 * When the next question will be taken, for the uses of `rows` under `limits`: undefined when
 * one may ask now, Infinity when never (a limit of 0). With n uses in a window whose limit is
 * L, the count falls below L when the (n - L + 1)th oldest of them leaves the window.
 */
async function nextAllowed(db: Kysely<Database>, rows: UsageRows, limits: UsageLimits, now: number): Promise<number | undefined> {
  const counts = await useCounts(db, rows, now);
  if (!limitReached(counts, limits)) return undefined;
  let at = now;
  for (const w of WINDOWS) {
    const limit = limits[w];
    if (limit === null || counts[w] < limit) continue;
    const holding = await db
      .selectFrom('usage')
      .select('created_at')
      .where(rows)
      .where('kind', '=', 'chat')
      .where('created_at', '>=', now - USAGE_WINDOWS_MS[w])
      .orderBy('created_at')
      .orderBy('id')
      .limit(1)
      .offset(counts[w] - limit)
      .executeTakeFirst();
    at = Math.max(at, holding ? Number(holding.created_at) + USAGE_WINDOWS_MS[w] : Infinity);
  }
  return at;
}

/** The refusal: the spec's sentence, then what one can do next. */
function refusal(visitor: boolean, at: number, now: number): Message {
  if (visitor) return Number.isFinite(at) ? MESSAGES.usageLimitVisitor(waitFor(at - now)) : MESSAGES.usageLimitSignUp;
  return Number.isFinite(at) ? MESSAGES.usageLimitUser(waitFor(at - now)) : MESSAGES.usageLimit;
}

/** Registers the limits, when USAGE_LIMITS sets any (a server without them records uses with the log alone). */
export function registerUseLimit(ctx: ServerPluginContext): void {
  const limits = ctx.config.usageLimits;
  if (!Object.keys(limits).length) return;
  const perAddress = ctx.config.visitorsPerAddress;
  ctx.generation.addUseLimit(async ({ db, owner, now }) => {
    const applied = limitsFor(limits, owner);
    if (!applied) return undefined;
    const waits = [await nextAllowed(db, mine(owner), applied, now)];
    if (!owner.user && owner.address) waits.push(await nextAllowed(db, fromAddress(owner.address), times(applied, perAddress), now));
    const refused = waits.filter((t) => t !== undefined);
    if (!refused.length) return undefined;
    const at = Math.max(...refused);
    return Number.isFinite(at) ? { said: refusal(!owner.user, at, now), retryAt: at } : refusal(!owner.user, at, now);
  });
}
