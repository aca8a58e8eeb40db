// The operator's plans: PLANS_FILE (plans.json in DATA_DIR) when it exists, else PLANS, else a
// free plan and a plus plan at $6 a month (the original's default). Each plan is a role with a
// price per month; its limits are the role's USAGE_LIMITS, so they are written once.
import { z } from 'zod';
import { ROLE_RANKS } from '../../../src/core/constants.ts';
import type { ServerPluginContext } from '../../../src/core/index.ts';
import { parseCents, PLUS_FEATURES, PLUS_RANK, type Plan } from '../common/rules.ts';

const DEFAULT_PLANS = [
  { role: 'user', price: '0' },
  { role: 'plus_user', price: '6.00' },
];

const planSchema = z.array(
  z.object({
    role: z.enum(['user', 'plus_user', 'super_user']),
    price: z.union([z.string(), z.number()]),
  }),
);

/** The plans, by rank; throws with a clear message when the operator's JSON is wrong. */
export function loadPlans(ctx: Pick<ServerPluginContext, 'config'>): Plan[] {
  const { plansFile, plans } = ctx.config.subscriptions;
  const source = plans ? { text: plans, where: plansFile } : undefined;
  let raw: unknown = DEFAULT_PLANS;
  if (source) {
    try {
      raw = JSON.parse(source.text);
    } catch {
      throw new Error(`${source.where} is not JSON: [{"role":"plus_user","price":"6.00"}]`);
    }
  }
  const parsed = planSchema.safeParse(raw);
  if (!parsed.success) throw new Error(`${source?.where ?? 'PLANS'}: each plan is {"role":"user|plus_user|super_user","price":"6.00"} (${parsed.error.issues[0]!.message})`);
  const seen = new Set<string>();
  return parsed.data
    .map((p): Plan => {
      const cents = parseCents(p.price);
      if (cents === undefined) throw new Error(`${source?.where ?? 'PLANS'}: the price of ${p.role} is not an amount of dollars: ${p.price}`);
      if (seen.has(p.role)) throw new Error(`${source?.where ?? 'PLANS'}: ${p.role} is listed twice`);
      seen.add(p.role);
      const rank = ROLE_RANKS[p.role];
      const limits = ctx.config.usageLimits[p.role];
      return {
        role: p.role,
        rank,
        price: `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`,
        price_cents: cents,
        limits: limits ? { daily: limits.daily ?? null, weekly: limits.weekly ?? null, monthly: limits.monthly ?? null } : null,
        adds: rank >= PLUS_RANK ? [...PLUS_FEATURES] : [],
      };
    })
    .sort((a, b) => a.rank - b.rank);
}
