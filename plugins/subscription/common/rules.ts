// Subscription rules shared by the commands, the page and the server (spec parts 4, 6, 9): plans,
// money in whole cents, the banking fee, and what buying a plan does to a standing (extend,
// upgrade, a downgrade deferred to the current plan's end).
import type { Message } from '../../../src/core/messages.ts';
import { ROLE_RANKS } from '../../../src/core/constants.ts';
import { formatRoleExpiry, rankOf } from '../../../src/core/roles.ts';
import { MESSAGES } from './messages.ts';

/** The top-up choices of spec part 9, in dollars. */
export const TOPUPS = [1, 5, 10, 20, 50] as const;
/** What the plus plan adds (spec parts 2 and 6), in the spec's order. */
export const PLUS_FEATURES = ['mcp', 'roles', 'stores', 'nodes', 'cli'] as const;
export type PlusFeature = (typeof PLUS_FEATURES)[number];
export const PLUS_RANK = ROLE_RANKS.plus_user;
const DAY = 86_400_000;

/** A plan as the operator defines it and the API lists it. */
export interface Plan {
  role: string;
  rank: number;
  /** Dollars, exact: "6.00". */
  price: string;
  price_cents: number;
  /** Questions per 24 h, 7 days and 30 days for the role (USAGE_LIMITS), when it has any. */
  limits: { daily: number | null; weekly: number | null; monthly: number | null } | null;
  /** What the plan adds over the free one. */
  adds: PlusFeature[];
}

/** A plan's price as the page and `:subscription ls` show it: 'Free', or '$6.00 per month'. */
export const priceText = (plan: Plan): Message => (plan.price_cents === 0 ? MESSAGES.free : MESSAGES.perMonth(plan.price));

/** Whole cents as dollars, exactly: 552 → "5.52". */
export const dollars = (cents: number) => `${cents < 0 ? '-' : ''}${Math.floor(Math.abs(cents) / 100)}.${String(Math.abs(cents) % 100).padStart(2, '0')}`;

/** "6", "6.5", "6.00" or 6 as whole cents; undefined when it is not an amount of money. */
export function parseCents(value: unknown): number | undefined {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  const m = /^(\d{1,7})(?:\.(\d{1,2}))?$/.exec(text);
  return m ? Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0')) : undefined;
}

/** The banking fee of spec part 9: 4.4% of the amount plus $0.30, rounded to the cent (half up). */
export const feeCents = (amountCents: number) => Math.floor((amountCents * 44 + 30_000 + 500) / 1000);

/** One calendar month later (UTC), the day clamped to the month's last (Jan 31 → Feb 28 or 29). */
export function addMonths(at: number, months = 1): number {
  const d = new Date(at);
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + months);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  return d.getTime();
}

/** Where a user stands: their role and its expiry (null: none), and a plan bought for later. */
export interface Standing {
  role: string;
  expiresAt: number | null;
  scheduled: { role: string; months: number } | null;
}

export type PlanChange =
  /** Now: a first plan (or one after the last ended), the same plan one month more, or a higher plan. */
  | { kind: 'start' | 'extend' | 'upgrade'; role: string; from: number; until: number; creditCents: number }
  /** Later: a lower plan from the end of the current one (added to one already scheduled for the same plan). */
  | { kind: 'downgrade'; role: string; from: number; until: number; months: number }
  | { kind: 'refused'; said: Message };

/**
 * What buying one month of `plan` does (spec part 4). An upgrade starts now; the unused part of
 * the plan it replaces is worth its price by the day (a month counted as 30 days, whole days
 * left, rounded down to the cent) and goes to the balance, with a lower plan already paid for
 * later. A downgrade waits for the current plan's end; a plan that never expires blocks
 * extension to itself or a lower plan.
 */
export function planChange(standing: Standing, plan: Plan, plans: readonly Plan[], now: number): PlanChange {
  const rank = rankOf(standing.role);
  if (standing.role === 'root_user') return { kind: 'refused', said: MESSAGES.root };
  if (plan.price_cents === 0) return { kind: 'refused', said: MESSAGES.freePlan };
  const unlimited = standing.expiresAt === null && rank > ROLE_RANKS.user;
  const active = unlimited || (standing.expiresAt !== null && standing.expiresAt > now && rank > ROLE_RANKS.user);
  if (unlimited && plan.rank <= rank) return { kind: 'refused', said: MESSAGES.unlimitedBlocks(standing.role) };
  if (!active) return { kind: 'start', role: plan.role, from: now, until: addMonths(now), creditCents: 0 };
  const expiresAt = standing.expiresAt ?? now;
  if (plan.rank === rank) return { kind: 'extend', role: plan.role, from: now, until: addMonths(Math.max(now, expiresAt)), creditCents: 0 };
  if (plan.rank > rank) {
    const priceOf = (role: string) => plans.find((p) => p.role === role)?.price_cents ?? 0;
    const daysLeft = unlimited ? 0 : Math.floor((expiresAt - now) / DAY);
    const unused = Math.floor((priceOf(standing.role) * daysLeft) / 30);
    const later = standing.scheduled ? priceOf(standing.scheduled.role) * standing.scheduled.months : 0;
    return { kind: 'upgrade', role: plan.role, from: now, until: addMonths(now), creditCents: unused + later };
  }
  const scheduled = standing.scheduled;
  if (scheduled && scheduled.role !== plan.role) return { kind: 'refused', said: MESSAGES.scheduledOther(scheduled.role, formatRoleExpiry(expiresAt)) };
  const months = (scheduled?.months ?? 0) + 1;
  return { kind: 'downgrade', role: plan.role, from: expiresAt, until: addMonths(expiresAt, months), months };
}

/** What a change says once applied. */
export function changeMessage(change: Exclude<PlanChange, { kind: 'refused' }>): Message {
  const date = formatRoleExpiry(change.until);
  switch (change.kind) {
    case 'start':
      return MESSAGES.started(change.role, date);
    case 'extend':
      return MESSAGES.extended(change.role, date);
    case 'upgrade':
      return change.creditCents > 0 ? MESSAGES.upgraded(change.role, date, dollars(change.creditCents)) : MESSAGES.started(change.role, date);
    case 'downgrade':
      return MESSAGES.scheduled(change.role, formatRoleExpiry(change.from), date);
  }
}

/** What GET /api/subscription/status answers. */
export interface SubscriptionStatus {
  role: string;
  rank: number;
  expires_at: number | null;
  /** MM/DD/YYYY or 'Unlimited'. */
  expires: string;
  scheduled: { role: string; from: number; until: number } | null;
  balance: string;
  balance_cents: number;
  /** Fees so far (the usage ledger), in dollars. */
  usage: string;
  /** The balance less the fees, whole cents: below 0 is owed, and questions are refused. */
  left_cents: number;
  /** Payments PayPal declined in the last days (MM/DD/YYYY), nothing credited for them. */
  declined: { amount: string; date: string }[];
}

/** The balance, the fees and what is left or owed, in one sentence (`:subscription` and the page). */
export const moneyMessage = (s: Pick<SubscriptionStatus, 'balance' | 'usage' | 'left_cents'>): Message =>
  s.left_cents < 0 ? MESSAGES.moneyOwed(s.balance, s.usage, dollars(-s.left_cents)) : MESSAGES.money(s.balance, s.usage, dollars(s.left_cents));

/** What GET /api/payment/info answers: enough for the browser to load PayPal's script. */
export interface PaymentInfo {
  client_id: string;
  sdk_url: string;
  currency: 'USD';
  intent: 'capture';
  topups: number[];
}
