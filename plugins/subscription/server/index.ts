// The subscription plugin's server (spec parts 2, 4, 6, 7, 8, 9): the plans, PayPal's client id,
// a user's standing, orders and captures, PayPal's webhook; and, while USE_SUBSCRIPTIONS is on,
// the plus plan's gates, the balance check before a turn, plans bought for later taking over
// at expiry, and a reconcile of open orders. Left out of app.config.ts, none of it exists.
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import type { AppEnv, ServerPluginContext, ServerPluginModule, UserRow } from '../../../src/core/index.ts';
import { formatRoleExpiry, rankOf } from '../../../src/core/roles.ts';
import { MESSAGES } from '../common/messages.ts';
import { addMonths, dollars, TOPUPS, type PaymentInfo, type SubscriptionStatus } from '../common/rules.ts';
import { addPaymentGuard, addPlusGates } from './gates.ts';
import { moneyOf } from './money.ts';
import { paypalClient } from './paypal.ts';
import { payments, type Refusal } from './payments.ts';
import { loadPlans } from './plans.ts';
import { subscriptionMigration, type SubscriptionDb } from './tables.ts';

const orderBody = z.union([
  z.object({ kind: z.literal('plan'), role: z.string().max(64) }),
  z.object({ kind: z.literal('topup'), amount: z.number() }),
]);
const captureBody = z.object({ orderId: z.string().min(1).max(64) });
/** How often open orders are looked at again. */
const RECONCILE_EVERY_MS = 5 * 60_000;
/** How long a payment PayPal declined is still named in the standing (it may have been declined after it was left PENDING). */
const DECLINED_SHOWN_MS = 7 * 86_400_000;

/** The plugin's state, shared by its routes and its registrations. */
function subscriptionBook(ctx: ServerPluginContext) {
  const db = ctx.db as unknown as SubscriptionDb;
  const plans = loadPlans(ctx);
  const { paypal: settings, on } = ctx.config.subscriptions;
  const client = on && settings.clientId && settings.clientSecret ? paypalClient(settings) : undefined;
  return { db, plans, on, settings, pay: payments(ctx, db, client, () => plans) };
}

async function statusOf(ctx: ServerPluginContext, db: SubscriptionDb, user: UserRow): Promise<SubscriptionStatus> {
  // Read again: a payment settled in this request changed the row the request began with.
  const row = (await db.selectFrom('users').selectAll().where('id', '=', user.id).executeTakeFirst()) ?? user;
  const current = await ctx.accounts.current(row as UserRow);
  const scheduled = await db.selectFrom('plan_schedules').select(['role', 'months']).where('user_id', '=', user.id).executeTakeFirst();
  const { balanceCents: balance, feeCents } = await moneyOf(ctx.db, user.id);
  const expiresAt = current.role_expires_at === null ? null : Number(current.role_expires_at);
  const declined = await db
    .selectFrom('payment_orders')
    .select(['amount_cents', 'updated_at'])
    .where('user_id', '=', user.id)
    .where('status', '=', 'declined')
    .where('updated_at', '>', ctx.now() - DECLINED_SHOWN_MS)
    .orderBy('updated_at', 'desc')
    .limit(5)
    .execute();
  return {
    role: current.role,
    rank: rankOf(current.role),
    expires_at: expiresAt,
    expires: formatRoleExpiry(expiresAt),
    scheduled: scheduled && expiresAt !== null ? { role: scheduled.role, from: expiresAt, until: addMonths(expiresAt, Number(scheduled.months)) } : null,
    balance: dollars(balance),
    balance_cents: balance,
    usage: dollars(feeCents),
    left_cents: balance - feeCents,
    declined: declined.map((d) => ({ amount: dollars(Number(d.amount_cents)), date: formatRoleExpiry(Number(d.updated_at)) })),
  };
}

export function subscriptionRoutes(ctx: ServerPluginContext) {
  const { validate, requireUser, answer, refuse } = ctx;
  const { db, plans, settings, pay } = subscriptionBook(ctx);
  const me = (c: Context<AppEnv>) => c.get('user') as UserRow;
  const refused = <S extends Refusal['status']>(c: Context<AppEnv>, r: Refusal & { status: S }) => refuse(c, r.status, r.said);

  return new Hono<AppEnv>()
    .get('/api/subscription/list', (c) => answer(c, { plans }))
    .get('/api/payment/info', (c) =>
      answer(c, { client_id: pay.configured ? settings.clientId : '', sdk_url: settings.sdkUrl, currency: 'USD', intent: 'capture', topups: [...TOPUPS] } satisfies PaymentInfo),
    )
    // It credits what PayPal approved, calling PayPal: not for another site's link.
    .get('/api/subscription/status', requireUser, ctx.sameSiteOnly, async (c) => {
      // A buyer who approved and closed the tab is credited when they come back.
      await pay.reconcile(me(c).id);
      return answer(c, await statusOf(ctx, db, me(c)));
    })
    .post('/api/payment/order', requireUser, validate('json', orderBody), async (c) => {
      const done = await pay.order(me(c), c.req.valid('json'));
      return 'refused' in done ? refused(c, done) : answer(c, done);
    })
    .post('/api/payment/capture', requireUser, validate('json', captureBody), async (c) => {
      const done = await pay.capture(me(c), c.req.valid('json').orderId);
      if ('refused' in done) return refused(c, done);
      if (done.kind === 'mismatch') return refuse(c, 409, done.said);
      return answer(c, await statusOf(ctx, db, me(c)), done.said);
    })
    .post('/api/payment/webhook', async (c) => {
      const event = (await c.req.json().catch(() => undefined)) as Parameters<typeof pay.webhook>[1] | undefined;
      const ok = !!event && (await pay.webhook((name) => c.req.header(name), event));
      return ok ? answer(c) : refuse(c, 400, MESSAGES.webhookRefused);
    });
}

export type SubscriptionRoutes = ReturnType<typeof subscriptionRoutes>;

function registerSubscriptions(ctx: ServerPluginContext): void {
  const { db, on, pay } = subscriptionBook(ctx);
  // A plan bought for later takes over when the current one ends.
  ctx.accounts.onRoleExpired(async (user) => {
    const scheduled = await db.selectFrom('plan_schedules').selectAll().where('user_id', '=', user.id).executeTakeFirst();
    if (!scheduled || user.role_expires_at === null) return undefined;
    await db.deleteFrom('plan_schedules').where('user_id', '=', user.id).execute();
    const expiresAt = addMonths(Number(user.role_expires_at), Number(scheduled.months));
    // The server's own change (no request, no actor): the plan bought for later takes over.
    ctx.audit.record(null, { kind: 'user.plan', target: `user:${user.username}`, before: { role: user.role, expires_at: Number(user.role_expires_at) }, after: { role: scheduled.role, expires_at: expiresAt }, actorId: null, actor: null });
    return { role: scheduled.role as never, expiresAt };
  });
  if (!on) return;
  // Said once at start: the plans are shown, but without both credentials nothing can be bought.
  if (!pay.configured) ctx.log.warn({}, 'USE_SUBSCRIPTIONS is on, but PAYPAL_CLIENT_ID and PAYPAL_CLIENT_SECRET are not both set: plans are shown, nothing can be bought');
  addPlusGates(ctx);
  addPaymentGuard(ctx);
  // The spec's "call to update the role or balance after approval": a user's own call, with
  // the order's id in `details`, is a capture like any other (root's adjustments stay root's).
  ctx.addGate(async (c) => {
    const user = c.get('user');
    if (c.req.method !== 'POST' || !user || user.role === 'root_user' || !['/api/user/update/balance', '/api/user/update/role'].includes(c.req.path)) return undefined;
    const body = (await c.req.json().catch(() => ({}))) as { details?: { id?: unknown }; username?: unknown };
    if (body.username !== undefined && body.username !== user.username) return undefined;
    const orderId = typeof body.details?.id === 'string' ? body.details.id : '';
    if (!orderId) return undefined;
    const done = await pay.capture(user, orderId);
    if ('refused' in done) return ctx.refuse(c, done.status, done.said);
    if (done.kind === 'mismatch') return ctx.refuse(c, 409, done.said);
    return ctx.answer(c, await statusOf(ctx, db, user), done.said);
  });
  if (pay.configured) {
    const timer = setInterval(() => void pay.reconcile().catch(() => undefined), RECONCILE_EVERY_MS);
    timer.unref();
  }
}

const plugin: ServerPluginModule = {
  migrations: { '0001_payments': subscriptionMigration },
  formerMigrationNames: { '0001_payments': '0700_subscription' },
  routes: subscriptionRoutes,
  register: registerSubscriptions,
};

export default plugin;
