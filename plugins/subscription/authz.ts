// The authorization matrix, payments area (the subscription plugin): the plans and PayPal's
// client id are public; a standing and an order are the caller's own; a capture credits only
// the order's owner (anyone else's capture of it is 'Order not found.'); root buys nothing; the
// webhook is public but does nothing without PayPal's signature.
import { expect } from 'vitest';
import { paypalEnv, startFakePaypal, type FakePaypal } from '../../tests/fixtures/fakePaypal.ts';
import { call, resultOf, t, type AuthzServer, type Cases, type Matrix, type Person } from '../../tests/security/authzSupport.ts';

// prettier-ignore
export const matrix: Matrix = {
  //                                           scope      anonymous owner other member root
  'GET /api/subscription/list':                ['public', 200,      200,  200,  200,   200],
  'GET /api/payment/info':                     ['public', 200,      200,  200,  200,   200],
  'GET /api/subscription/status':              ['self',   401,      200,  200,  200,   200],
  'POST /api/payment/order':                   ['self',   401,      200,  200,  200,   403],
  'POST /api/payment/capture':                 ['owner',  401,      200,  404,  404,   404],
  'POST /api/payment/webhook':                 ['public', 400,      400,  400,  400,   400],
};

/** The fake PayPal the matrix's server is given (subscriptions on). */
const paypal: { fake?: FakePaypal } = {};
export const server: AuthzServer = {
  start: async () => paypalEnv((paypal.fake = await startFakePaypal())),
  stop: async () => paypal.fake?.close(),
};

const balanceOf = async (p: Person) => Number((await t.server.db.db.selectFrom('users').select('balance_cents').where('id', '=', p.id).executeTakeFirstOrThrow()).balance_cents);

export const cases: Cases = {
  'GET /api/subscription/list': {
    effect: async ({ res }) => expect(resultOf<{ plans: unknown[] }>(res).plans.length).toBeGreaterThan(1),
  },
  'GET /api/payment/info': {
    // The client id is public by design; the secret never leaves the server.
    effect: async ({ res }) => expect(res.text).not.toContain('fake-client-secret'),
  },
  'GET /api/subscription/status': {
    effect: async ({ me, allowed, res }) => {
      if (allowed) expect(resultOf<{ role: string }>(res).role).toBe(me!.username === 'root' ? 'root_user' : 'user');
    },
  },
  'POST /api/payment/order': {
    body: () => ({ kind: 'topup', amount: 5 }),
    effect: async ({ me, allowed, res }) => {
      if (!allowed) return;
      const row = await t.server.db.db.selectFrom('payment_orders' as never).selectAll().where('id' as never, '=', resultOf<{ id: string }>(res).id as never).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ user_id: me!.id, amount_cents: 552 });
    },
  },
  'POST /api/payment/capture': {
    prepare: async (w) => {
      const order = await call('POST', '/api/payment/order', w.owner.token, { body: { kind: 'topup', amount: 5 } });
      const id = resultOf<{ id: string }>(order).id;
      paypal.fake!.approve(id);
      return { id, before: String(await balanceOf(w.owner)) };
    },
    body: (w) => ({ orderId: w.prepared.id }),
    effect: async ({ w, allowed }) => {
      // Only the owner's capture credits the owner, by the order's amount; nobody else gains.
      expect(await balanceOf(w.owner)).toBe(Number(w.prepared.before) + (allowed ? 500 : 0));
      expect(paypal.fake!.capturesOf(w.prepared.id!)).toHaveLength(allowed ? 1 : 0);
    },
  },
  'POST /api/payment/webhook': {
    prepare: async (w) => {
      const order = await call('POST', '/api/payment/order', w.owner.token, { body: { kind: 'topup', amount: 5 } });
      return { id: resultOf<{ id: string }>(order).id, before: String(await balanceOf(w.owner)) };
    },
    // An event without PayPal's signature headers.
    body: (w) => ({ event_type: 'PAYMENT.CAPTURE.COMPLETED', resource: { id: 'FORGED', status: 'COMPLETED', amount: { currency_code: 'USD', value: '5.52' }, supplementary_data: { related_ids: { order_id: w.prepared.id } } } }),
    effect: async ({ w }) => expect(await balanceOf(w.owner)).toBe(Number(w.prepared.before)),
  },
};
