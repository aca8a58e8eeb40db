// Orders and captures: the server prices what is bought (a plan's price, or a top-up plus the
// banking fee), creates the PayPal order bound to the user and the item, captures it when the
// buyer approved, and credits it through settle.ts. A buyer who approves and closes the tab is
// still credited: PayPal's signed webhook, and a reconcile of the orders still open.
import type { Message, ServerPluginContext, UserRow } from '../../../src/core/index.ts';
import { MESSAGES } from '../common/messages.ts';
import { dollars, feeCents, planChange, TOPUPS, type Plan } from '../common/rules.ts';
import { captureOf, PaypalError, type PaypalCapture, type PaypalClient, type PaypalOrder } from './paypal.ts';
import { settle, standingOf, type Settled } from './settle.ts';
import type { PaymentOrdersTable, SubscriptionDb } from './tables.ts';

export type OrderRequest = { kind: 'plan'; role: string } | { kind: 'topup'; amount: number };
export type Refusal = { refused: true; status: 400 | 403 | 404 | 409 | 429 | 502 | 503; said: Message };

/** Orders left open longer than this are looked at again (the buyer may have closed the tab). */
const RECONCILE_AFTER_MS = 60_000;
/** PayPal keeps an unapproved order for 3 days; after that it is dropped here too. */
const ORDER_LIFETIME_MS = 3 * 86_400_000;
/**
 * Orders a user may leave open at once: each costs a PayPal call to create, and one to read at
 * every reconcile, so the cap bounds what one account can make the server ask of PayPal.
 */
export const MAX_OPEN_ORDERS = 10;

export function payments(ctx: ServerPluginContext, db: SubscriptionDb, paypal: PaypalClient | undefined, plans: () => Plan[]) {
  const deps = { ctx, db, plans };
  const off: Refusal = { refused: true, status: 503, said: MESSAGES.paymentsOff };

  /** A PayPal failure, logged, in the words the person sees (spec part 8). */
  const failed = (err: unknown, what: string): Refusal => {
    const issue = err instanceof PaypalError ? err.issue : 'NETWORK';
    ctx.log.error({ err: { message: (err as Error)?.message, issue } }, `payment ${what} failed`);
    if (issue === 'INSTRUMENT_DECLINED') return { refused: true, status: 409, said: MESSAGES.declined };
    if (issue === 'ORDER_NOT_APPROVED') return { refused: true, status: 409, said: MESSAGES.notApproved };
    return { refused: true, status: 502, said: MESSAGES.paymentFailed(err instanceof PaypalError ? err.message : 'PayPal could not be reached.') };
  };

  /** Captures (or reads, when it was captured already) and credits one order. */
  async function complete(order: PaymentOrdersTable): Promise<Settled | Refusal> {
    let paid: PaypalOrder;
    try {
      // Captured before (PENDING, or declined): PayPal's answer to that capture is stale, so read the order as it is now.
      paid = order.capture_id ? await paypal!.getOrder(order.id) : await paypal!.captureOrder(order.id);
    } catch (err) {
      if (!(err instanceof PaypalError && err.issue === 'ORDER_ALREADY_CAPTURED')) {
        if (err instanceof PaypalError && err.issue === 'INSTRUMENT_DECLINED') {
          await db.updateTable('payment_orders').set({ status: 'declined', updated_at: ctx.now() }).where('id', '=', order.id).where('status', '=', 'created').execute();
        }
        return failed(err, 'capture');
      }
      try {
        paid = await paypal!.getOrder(order.id);
      } catch (again) {
        return failed(again, 'lookup');
      }
    }
    const capture = captureOf(paid);
    if (!capture) return { refused: true, status: 409, said: MESSAGES.notApproved };
    return settle(deps, order, capture);
  }

  return {
    configured: !!paypal,

    /** Prices the purchase and creates the PayPal order; its id goes to the browser's buttons. */
    async order(user: UserRow, request: OrderRequest): Promise<{ id: string; amount: string; fee: string } | Refusal> {
      if (!paypal) return off;
      if (user.role === 'root_user') return { refused: true, status: 403, said: MESSAGES.root };
      let amount: number;
      let item: string;
      let fee = 0;
      if (request.kind === 'topup') {
        if (!(TOPUPS as readonly number[]).includes(request.amount)) return { refused: true, status: 400, said: MESSAGES.amountInvalid };
        item = String(request.amount * 100);
        fee = feeCents(request.amount * 100);
        amount = request.amount * 100 + fee;
      } else {
        const plan = plans().find((p) => p.role === request.role);
        if (!plan) return { refused: true, status: 404, said: MESSAGES.planNotFound(request.role) };
        // Refused before anyone pays for what cannot be applied.
        const change = planChange(await standingOf(db, user.id, ctx.now()), plan, plans(), ctx.now());
        if (change.kind === 'refused') return { refused: true, status: 409, said: change.said };
        item = plan.role;
        amount = plan.price_cents;
      }
      const open = await db
        .selectFrom('payment_orders')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('user_id', '=', user.id)
        .where('status', 'in', ['created', 'pending'])
        .where('created_at', '>', ctx.now() - ORDER_LIFETIME_MS)
        .executeTakeFirst();
      if (Number(open?.n ?? 0) >= MAX_OPEN_ORDERS) return { refused: true, status: 429, said: MESSAGES.tooManyOrders(MAX_OPEN_ORDERS) };
      const reference = crypto.randomUUID();
      let created: PaypalOrder;
      try {
        created = await paypal.createOrder(reference, amount, request.kind === 'topup' ? `shellchat balance +$${dollars(Number(item))}` : `shellchat ${item}, one month`);
      } catch (err) {
        return failed(err, 'order');
      }
      const now = ctx.now();
      await db.insertInto('payment_orders').values({ id: created.id, reference, user_id: user.id, kind: request.kind, item, amount_cents: amount, status: 'created', capture_id: null, created_at: now, updated_at: now }).execute();
      return { id: created.id, amount: dollars(amount), fee: dollars(fee) };
    },

    /** After the buyer approved: capture and credit, once. Another user's order is not found. */
    async capture(user: UserRow, orderId: string): Promise<Settled | Refusal> {
      if (!paypal) return off;
      const order = await db.selectFrom('payment_orders').selectAll().where('id', '=', orderId).where('user_id', '=', user.id).executeTakeFirst();
      if (!order) return { refused: true, status: 404, said: MESSAGES.orderNotFound };
      if (order.status === 'completed') return { kind: 'already', said: MESSAGES.already };
      const done = await complete(order);
      return 'kind' in done && done.kind === 'declined' ? { refused: true, status: 409, said: done.said } : done;
    },

    /** A PayPal webhook: verified with PayPal, then the capture it reports is credited or ended (or the approved order captured). */
    async webhook(header: (name: string) => string | undefined, event: { event_type?: string; resource?: Record<string, unknown> }): Promise<boolean> {
      if (!paypal) return false;
      let verified = false;
      try {
        verified = await paypal.verifyWebhook(header, event);
      } catch (err) {
        ctx.log.error({ err: { message: (err as Error).message } }, 'webhook verification failed');
      }
      if (!verified) return false;
      const resource = event.resource ?? {};
      const orderId =
        event.event_type === 'CHECKOUT.ORDER.APPROVED'
          ? String(resource.id ?? '')
          : String(((resource.supplementary_data as { related_ids?: { order_id?: string } } | undefined)?.related_ids?.order_id) ?? '');
      const order = orderId ? await db.selectFrom('payment_orders').selectAll().where('id', '=', orderId).executeTakeFirst() : undefined;
      if (!order || order.status === 'completed') return true;
      if (event.event_type === 'CHECKOUT.ORDER.APPROVED') await complete(order);
      else if (event.event_type === 'PAYMENT.CAPTURE.COMPLETED') await settle(deps, order, resource as never);
      // A capture PayPal refused, at once or after it was PENDING: the order ends, nothing credited.
      else if (event.event_type === 'PAYMENT.CAPTURE.DENIED' || event.event_type === 'PAYMENT.CAPTURE.DECLINED') await settle(deps, order, { ...(resource as never as PaypalCapture), status: 'DECLINED' });
      return true;
    },

    /** Looks again at open orders (all, or one user's): captures approved ones, credits completed ones. */
    async reconcile(userId?: number): Promise<number> {
      if (!paypal) return 0;
      const now = ctx.now();
      let query = db.selectFrom('payment_orders').selectAll().where('status', 'in', ['created', 'pending']).where('created_at', '<=', now - (userId ? 0 : RECONCILE_AFTER_MS));
      if (userId !== undefined) query = query.where('user_id', '=', userId);
      let credited = 0;
      for (const order of await query.execute()) {
        if (Number(order.created_at) < now - ORDER_LIFETIME_MS && order.status === 'created') {
          await db.updateTable('payment_orders').set({ status: 'expired', updated_at: now }).where('id', '=', order.id).where('status', '=', 'created').execute();
          continue;
        }
        try {
          const current = await paypal.getOrder(order.id);
          const capture = captureOf(current);
          const done = current.status === 'APPROVED' ? await complete(order) : capture ? await settle(deps, order, capture) : undefined;
          if (done && 'kind' in done && done.kind === 'credited') credited++;
        } catch (err) {
          ctx.log.warn({ err: { message: (err as Error).message }, order: order.id }, 'reconcile: order not read');
        }
      }
      return credited;
    },
  };
}

export type Payments = ReturnType<typeof payments>;
