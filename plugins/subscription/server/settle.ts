// Crediting a payment, once. A capture is credited only when PayPal says COMPLETED with the
// amount and currency the server stored and our reference; then, in one transaction, its id is
// written (payment_captures' primary key: a second credit of the same capture, from a replay,
// the webhook after the browser's call or two calls at once, fails there), the order is marked,
// and the balance or the plan changes. The plan change is decided at this moment, from the
// standing as it is now; one that can no longer apply (root made the plan unlimited meanwhile)
// credits what was paid to the balance instead, so money is never lost. A capture PayPal
// declined (at once, or after it was PENDING) ends its order: nothing is credited, and neither
// the status route nor the reconcile asks PayPal about it again.
import type { Message, ServerPluginContext, UserRow } from '../../../src/core/index.ts';
import { MESSAGES } from '../common/messages.ts';
import { changeMessage, dollars, parseCents, planChange, type Plan, type Standing } from '../common/rules.ts';
import type { PaypalCapture } from './paypal.ts';
import type { PaymentOrdersTable, SubscriptionDb } from './tables.ts';

export type Settled =
  | { kind: 'credited'; said: Message }
  | { kind: 'already'; said: Message }
  | { kind: 'pending'; said: Message }
  | { kind: 'declined'; said: Message }
  | { kind: 'mismatch'; said: Message };

export interface SettleDeps {
  ctx: ServerPluginContext;
  db: SubscriptionDb;
  plans: () => Plan[];
}

/** Does this capture pay exactly for this order? */
export function matches(order: PaymentOrdersTable, capture: PaypalCapture): boolean {
  return capture.amount?.currency_code === 'USD' && parseCents(capture.amount.value) === Number(order.amount_cents) && (capture.custom_id === undefined || capture.custom_id === order.reference);
}

/** Where a user stands, read through `db` (the settling transaction, or the database). */
export async function standingOf(db: SubscriptionDb, userId: number, now: number): Promise<Standing> {
  const row = await db.selectFrom('users').select(['role', 'role_expires_at']).where('id', '=', userId).executeTakeFirstOrThrow();
  const scheduled = await db.selectFrom('plan_schedules').select(['role', 'months']).where('user_id', '=', userId).executeTakeFirst();
  const expiresAt = row.role_expires_at === null ? null : Number(row.role_expires_at);
  // A role past its expiry is the free one (the accounts' hook applies a plan bought for later first).
  const expired = expiresAt !== null && expiresAt <= now && row.role !== 'root_user';
  return { role: expired ? 'user' : row.role, expiresAt: expired ? null : expiresAt, scheduled: scheduled ? { role: scheduled.role, months: Number(scheduled.months) } : null };
}

/** Capture statuses PayPal never turns into COMPLETED: the order ends there. */
const ENDED = new Set(['DECLINED', 'FAILED']);

/** Ends an order whose capture PayPal declined; a credited order is left as it is. */
async function decline(deps: SettleDeps, order: PaymentOrdersTable, capture: PaypalCapture): Promise<Settled> {
  const { ctx, db } = deps;
  await db.updateTable('payment_orders').set({ status: 'declined', capture_id: capture.id, updated_at: ctx.now() }).where('id', '=', order.id).where('status', '!=', 'completed').execute();
  const row = await db.selectFrom('payment_orders').select('status').where('id', '=', order.id).executeTakeFirst();
  if (row?.status === 'completed') return { kind: 'already', said: MESSAGES.already };
  ctx.log.warn({ order: order.id, capture: capture.id, user: order.user_id }, 'payment declined by PayPal; nothing credited');
  return { kind: 'declined', said: MESSAGES.captureDeclined };
}

/** Settles a capture (settleOnce), and says how it ended: on the server's events, and a credit in the audit trail. */
export async function settle(deps: SettleDeps, order: PaymentOrdersTable, capture: PaypalCapture): Promise<Settled> {
  const { ctx, db } = deps;
  let settled: Settled;
  try {
    settled = await settleOnce(deps, order, capture);
  } catch (err) {
    ctx.events.emit('payment', { outcome: 'error' });
    throw err;
  }
  ctx.events.emit('payment', { outcome: settled.kind });
  if (settled.kind === 'credited') {
    const payer = await db.selectFrom('users').select('username').where('id', '=', order.user_id).executeTakeFirst();
    // The payer is the actor: the webhook and the reconcile act for them, with no request of theirs.
    ctx.audit.record(null, {
      kind: 'payment.credit',
      target: `user:${payer?.username ?? order.user_id}`,
      after: { order: Number(order.id), kind: order.kind, item: order.item, paid_cents: Number(order.amount_cents) },
      actorId: Number(order.user_id),
      actor: payer?.username ?? null,
    });
  }
  return settled;
}

async function settleOnce(deps: SettleDeps, order: PaymentOrdersTable, capture: PaypalCapture): Promise<Settled> {
  const { ctx, db } = deps;
  if (ENDED.has(capture.status)) return decline(deps, order, capture);
  if (capture.status !== 'COMPLETED') {
    // A capture PayPal declined stays declined (a stale PENDING read does not reopen it); an
    // order declined before any capture (INSTRUMENT_DECLINED, paid again another way) may go on.
    await db
      .updateTable('payment_orders')
      .set({ status: 'pending', capture_id: capture.id, updated_at: ctx.now() })
      .where('id', '=', order.id)
      .where((eb) => eb.or([eb('status', 'in', ['created', 'pending']), eb.and([eb('status', '=', 'declined'), eb('capture_id', 'is', null)])]))
      .execute();
    return { kind: 'pending', said: MESSAGES.pending };
  }
  if (!matches(order, capture)) {
    ctx.log.error({ order: order.id, capture: capture.id, amount: capture.amount }, 'payment does not match its order; nothing credited');
    return { kind: 'mismatch', said: MESSAGES.mismatch };
  }
  // An expired role gives way first (to a plan bought for later), outside the transaction.
  const user = await db.selectFrom('users').selectAll().where('id', '=', order.user_id).executeTakeFirst();
  if (user) await ctx.accounts.current(user as UserRow);
  try {
    const said = await db.transaction().execute(async (trx) => {
      const now = ctx.now();
      // Two payments of one user settle one after the other: each extends what the other left.
      if (ctx.engine !== 'sqlite') await trx.selectFrom('users').select('id').where('id', '=', order.user_id).forUpdate().execute();
      await trx.insertInto('payment_captures').values({ capture_id: capture.id, order_id: order.id, user_id: order.user_id, amount_cents: Number(order.amount_cents), created_at: now }).execute();
      await trx.updateTable('payment_orders').set({ status: 'completed', capture_id: capture.id, updated_at: now }).where('id', '=', order.id).execute();
      const toBalance = async (cents: number) => {
        await ctx.accounts.creditIn(trx as never, { userId: order.user_id, cents, kind: 'topup', reference: `capture:${capture.id}` });
        const row = await trx.selectFrom('users').select('balance_cents').where('id', '=', order.user_id).executeTakeFirstOrThrow();
        return dollars(Number(row.balance_cents));
      };
      if (order.kind === 'topup') {
        const cents = Number(order.item);
        return MESSAGES.toppedUp(dollars(cents), await toBalance(cents));
      }
      const plan = deps.plans().find((p) => p.role === order.item);
      const standing = await standingOf(trx as never, order.user_id, now);
      const change = plan ? planChange(standing, plan, deps.plans(), now) : { kind: 'refused' as const, said: MESSAGES.planNotFound(order.item) };
      if (change.kind === 'refused') {
        await toBalance(Number(order.amount_cents));
        return MESSAGES.paidToBalance(change.said, dollars(Number(order.amount_cents)));
      }
      if (change.kind === 'downgrade') {
        await trx.deleteFrom('plan_schedules').where('user_id', '=', order.user_id).execute();
        await trx.insertInto('plan_schedules').values({ user_id: order.user_id, role: change.role, months: change.months, created_at: now }).execute();
      } else {
        await trx.updateTable('users').set({ role: change.role, role_expires_at: change.until, updated_at: now }).where('id', '=', order.user_id).execute();
        // An upgrade replaces a lower plan bought for later too; its price is in the credit.
        if (change.kind === 'upgrade') await trx.deleteFrom('plan_schedules').where('user_id', '=', order.user_id).execute();
        if (change.creditCents > 0) await ctx.accounts.creditIn(trx as never, { userId: order.user_id, cents: change.creditCents, kind: 'prorate', reference: `prorate:${capture.id}` });
      }
      return changeMessage(change);
    });
    ctx.log.info({ order: order.id, capture: capture.id, user: order.user_id, kind: order.kind, item: order.item }, 'payment credited');
    return { kind: 'credited', said };
  } catch (err) {
    const done = await db.selectFrom('payment_captures').select('capture_id').where((eb) => eb.or([eb('capture_id', '=', capture.id), eb('order_id', '=', order.id)])).executeTakeFirst();
    if (done) return { kind: 'already', said: MESSAGES.already };
    throw err;
  }
}
