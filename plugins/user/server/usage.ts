// Usage (spec parts 2, 3, 7, 8 and 9): `GET /api/user/usage` counts the caller's questions and
// tokens from the usage ledger that every turn writes; the limits of the caller's role
// (USAGE_LIMITS) refuse a question once one is reached (useLimit.ts).
// Uses are counted over rolling windows (24 hours, 7 days, 30 days), as the original did;
// months of the record are calendar months in UTC. Root has no limits; visitors who are not
// logged in have the `anonymous` role's, counted per browser (device cookie) and per address.
import type { Expression, ExpressionBuilder, Kysely, SqlBool } from 'kysely';
import {
  limitReached,
  ROLE_RANKS,
  rankOf,
  USAGE_WINDOWS_MS,
  type Database,
  type MigrationFactory,
  type ModelUsage,
  type ServiceUsage,
  type TokenPair,
  type UsageLimits,
  type UsageRecord,
  type UserRow,
} from '../../../src/core/index.ts';

/** Anonymous visitors' uses are found by their device: an index for that count. */
export const usageDeviceMigration: MigrationFactory = () => ({
  async up(db) {
    await db.schema.createIndex('usage_device').on('usage').columns(['device_id', 'created_at']).execute();
  },
  async down(db) {
    await db.schema.dropIndex('usage_device').on('usage').execute();
  },
});

type Who = { user: UserRow | null; deviceId?: string };
/** Which rows of the ledger a count is over. */
export type UsageRows = (eb: ExpressionBuilder<Database, 'usage'>) => Expression<SqlBool>;

export const mine = (who: Who): UsageRows => (eb) =>
  who.user ? eb('user_id', '=', who.user.id) : eb.and([eb('user_id', 'is', null), eb('device_id', '=', who.deviceId ?? '')]);

/** The limits that apply to someone: their role's, the `anonymous` entry's, or none (root). */
export function limitsFor(limits: Record<string, UsageLimits>, who: Who): UsageLimits | undefined {
  if (who.user && rankOf(who.user.role) >= ROLE_RANKS.root_user) return undefined;
  return limits[who.user ? who.user.role : 'anonymous'];
}

/** Questions asked in the last 24 hours, 7 days and 30 days (one `chat` row per question, from when it started). */
export async function useCounts(db: Kysely<Database>, rows: UsageRows, now: number): Promise<{ daily: number; weekly: number; monthly: number }> {
  const since = (ms: number) => now - ms;
  const row = await db
    .selectFrom('usage')
    .select((eb) => [
      eb.fn.countAll<number | string>().as('monthly'),
      eb.fn.sum<number | string | null>(eb.case().when('created_at', '>=', since(USAGE_WINDOWS_MS.weekly)).then(1).else(0).end()).as('weekly'),
      eb.fn.sum<number | string | null>(eb.case().when('created_at', '>=', since(USAGE_WINDOWS_MS.daily)).then(1).else(0).end()).as('daily'),
    ])
    .where(rows)
    .where('kind', '=', 'chat')
    .where('created_at', '>=', since(USAGE_WINDOWS_MS.monthly))
    .executeTakeFirst();
  return { daily: Number(row?.daily ?? 0), weekly: Number(row?.weekly ?? 0), monthly: Number(row?.monthly ?? 0) };
}

const monthStart = (now: number, back: number) => {
  const d = new Date(now);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - back, 1);
};
const pair = (): TokenPair => ({ input: 0, output: 0 });
/** Money, rounded as the spec rounds numbers (5 decimals). */
const round = (n: number) => Math.round(n * 1e5) / 1e5;

/** The usage record of spec part 3 for one user (or browser), at `now`. */
export async function usageOf(db: Kysely<Database>, who: Who, limits: Record<string, UsageLimits>, now = Date.now()): Promise<UsageRecord> {
  const thisMonth = monthStart(now, 0);
  const lastMonth = monthStart(now, 1);
  const rows = await db
    .selectFrom('usage')
    .select(['kind', 'model', 'input_tokens', 'output_tokens', 'cost', 'created_at'])
    .where(mine(who))
    .where('created_at', '>=', Math.min(lastMonth, now - USAGE_WINDOWS_MS.monthly))
    .execute();
  const uses = { this_month: 0, last_month: 0 };
  const models = new Map<string, ModelUsage>();
  for (const r of rows) {
    const at = Number(r.created_at);
    const month = at >= thisMonth ? 'this_month' : at >= lastMonth ? 'last_month' : undefined;
    if (r.kind === 'chat' && month) uses[month]++;
    let m = models.get(r.model);
    if (!m) {
      m = { model: r.model, token: { this_month: pair(), last_month: pair() }, fee: { this_month: 0, last_month: 0 }, token_frequencies: { daily: pair(), weekly: pair(), monthly: pair() } };
      models.set(r.model, m);
    }
    const add = (p: TokenPair) => {
      p.input += Number(r.input_tokens);
      p.output += Number(r.output_tokens);
    };
    if (month) {
      add(m.token[month]);
      m.fee[month] += Number(r.cost);
    }
    for (const w of ['daily', 'weekly', 'monthly'] as const) if (at >= now - USAGE_WINDOWS_MS[w]) add(m.token_frequencies[w]);
  }
  const counts = await useCounts(db, mine(who), now);
  const applied = limitsFor(limits, who);
  return {
    use_count_monthly: uses,
    model_usage: [...models.values()].map((m) => ({ ...m, fee: { this_month: round(m.fee.this_month), last_month: round(m.fee.last_month) } })),
    use_count_frequencies: {
      ...counts,
      daily_limit: applied?.daily ?? null,
      weekly_limit: applied?.weekly ?? null,
      monthly_limit: applied?.monthly ?? null,
      exceeded: limitReached(counts, applied),
    },
  };
}

/** What a user's questions have cost so far (spec part 3's `usage`, in dollars). */
export async function totalFees(db: Kysely<Database>, user: UserRow): Promise<number> {
  const row = await db
    .selectFrom('usage')
    .select((eb) => eb.fn.sum<number | string | null>('cost').as('fees'))
    .where('user_id', '=', user.id)
    .executeTakeFirst();
  return round(Number(row?.fees ?? 0));
}

/** Every user's and visitor's uses, tokens and fees by model, this month and last (one query). */
async function servicesUsage(db: Kysely<Database>, now: number): Promise<ServiceUsage[]> {
  const thisMonth = monthStart(now, 0);
  const rows = await db
    .selectFrom('usage')
    .select((eb) => {
      const sum = (column: 'input_tokens' | 'output_tokens' | 'cost' | 'uses', current: boolean) => {
        const inMonth = eb.case().when('created_at', current ? '>=' : '<', thisMonth);
        const value = column === 'uses' ? inMonth.then(eb.case().when('kind', '=', 'chat').then(1).else(0).end()) : inMonth.then(eb.ref(column));
        return eb.fn.sum<number | string | null>(value.else(0).end());
      };
      return [
        'model',
        sum('uses', true).as('uses_this'),
        sum('uses', false).as('uses_last'),
        sum('input_tokens', true).as('in_this'),
        sum('output_tokens', true).as('out_this'),
        sum('input_tokens', false).as('in_last'),
        sum('output_tokens', false).as('out_last'),
        sum('cost', true).as('fee_this'),
        sum('cost', false).as('fee_last'),
      ];
    })
    .where('created_at', '>=', monthStart(now, 1))
    .groupBy('model')
    .orderBy('model')
    .execute();
  const n = (v: number | string | null) => Number(v ?? 0);
  return rows.map((r) => ({
    model: r.model,
    uses: { this_month: n(r.uses_this), last_month: n(r.uses_last) },
    token: { this_month: { input: n(r.in_this), output: n(r.out_this) }, last_month: { input: n(r.in_last), output: n(r.out_last) } },
    fee: { this_month: round(n(r.fee_this)), last_month: round(n(r.fee_last)) },
  }));
}

/** GET /api/user/usage: the caller's record; super users and root see the whole service as well (spec part 2's services-usage block). */
export async function usageFor(db: Kysely<Database>, user: UserRow, limits: Record<string, UsageLimits>): Promise<UsageRecord> {
  const record = await usageOf(db, { user }, limits);
  if (rankOf(user.role) >= ROLE_RANKS.super_user) record.services_usage = await servicesUsage(db, Date.now());
  const fees = await db.selectFrom('usage').select((eb) => eb.fn.sum<number | string | null>('cost').as('fees')).where('user_id', '=', user.id).executeTakeFirst();
  const balance = await db.selectFrom('users').select('balance_cents').where('id', '=', user.id).executeTakeFirst();
  return { ...record, fees_total: Number(fees?.fees ?? 0), balance: Number(balance?.balance_cents ?? 0) / 100 };
}
