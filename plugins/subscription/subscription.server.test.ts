// The subscription plugin against the real server over HTTP and a fake PayPal speaking the real
// REST wire format, on every engine, with a clock the test moves: plans, top-ups with the fee,
// buying, extending, upgrading and a deferred downgrade (same day, last day, already expired),
// a role that expires on the next request, PayPal's failures, the webhook, the plus plan's
// gates, and fees over the balance.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FAKE_CLIENT_ID, paypalEnv, startFakePaypal, type FakePaypal } from '../../tests/fixtures/fakePaypal.ts';
import { engines, failure, startTestServer, type TestServer } from '../../tests/server/support.ts';
import { addMonths, feeCents } from './common/rules.ts';
import { MAX_OPEN_ORDERS } from './server/payments.ts';
import type { SubscriptionStatus } from './common/rules.ts';

const PW = 'hunter2hunter2';
const DAY = 86_400_000;
const PLANS = JSON.stringify([
  { role: 'user', price: '0' },
  { role: 'plus_user', price: '6.00' },
  { role: 'super_user', price: '30.00' },
]);

describe('the banking fee of spec part 9', () => {
  it('is 4.4% plus $0.30, rounded to the cent, for each top-up choice', () => {
    expect([100, 500, 1000, 2000, 5000].map(feeCents)).toEqual([34, 52, 74, 118, 250]);
  });
  it('adds calendar months, the day clamped to the month', () => {
    expect(new Date(addMonths(Date.UTC(2027, 0, 31))).toISOString()).toBe('2027-02-28T00:00:00.000Z');
    expect(new Date(addMonths(Date.UTC(2028, 0, 31))).toISOString()).toBe('2028-02-29T00:00:00.000Z');
    expect(new Date(addMonths(Date.UTC(2027, 11, 15), 2)).toISOString()).toBe('2028-02-15T00:00:00.000Z');
  });
});

for (const engine of await engines()) {
  describe(`subscriptions on ${engine}`, () => {
    let fake: FakePaypal;
    let t: TestServer;
    const START = Date.UTC(2027, 0, 10, 12);
    let now = START;
    let seq = 0;
    beforeEach(() => {
      now = START;
    });

    beforeAll(async () => {
      fake = await startFakePaypal();
      t = await startTestServer(
        engine,
        {
          ...paypalEnv(fake),
          PLANS,
          TRIAL_BALANCE: '1',
        },
        [],
        { clock: () => now },
      );
    }, 60_000);
    afterAll(async () => {
      await t?.close();
      await fake?.close();
    });

    async function buyer() {
      const api = t.client();
      const username = `buyer${++seq}`;
      await api.post('/api/user/add', { username, email: `${username}@example.org`, password: PW });
      await api.post('/api/user/login', { username, password: PW });
      return Object.assign(api, { username });
    }
    type Buyer = Awaited<ReturnType<typeof buyer>>;
    const status = async (api: Buyer) => (await api.get<SubscriptionStatus>('/api/subscription/status')).result!;
    /** Orders, approves in PayPal, and captures: the capture's answer. */
    async function pay(api: Buyer, body: { kind: 'plan'; role: string } | { kind: 'topup'; amount: number }) {
      const order = (await api.post<{ id: string; amount: string; fee: string }>('/api/payment/order', body)).result!;
      fake.approve(order.id);
      return { order, answer: await api.post<SubscriptionStatus>('/api/payment/capture', { orderId: order.id }) };
    }

    it('lists the plans with their price, and gives the browser what loading PayPal needs', async () => {
      const { plans } = (await t.client().get<{ plans: { role: string; price: string; price_cents: number; adds: string[] }[] }>('/api/subscription/list')).result!;
      expect(plans.map((p) => [p.role, p.price, p.price_cents])).toEqual([
        ['user', '0.00', 0],
        ['plus_user', '6.00', 600],
        ['super_user', '30.00', 3000],
      ]);
      expect(plans[1]!.adds).toEqual(['mcp', 'roles', 'stores', 'nodes', 'cli']);
      expect((await t.client().get('/api/payment/info')).result).toEqual({ client_id: FAKE_CLIENT_ID, sdk_url: fake.sdkUrl, currency: 'USD', intent: 'capture', topups: [1, 5, 10, 20, 50] });
    });

    it('tops up $5: PayPal charges $5.52, the balance grows by $5.00, once', async () => {
      const api = await buyer();
      expect((await status(api)).balance).toBe('1.00'); // the trial balance
      const { order, answer } = await pay(api, { kind: 'topup', amount: 5 });
      expect(order).toMatchObject({ amount: '5.52', fee: '0.52' });
      expect(fake.orders.get(order.id)!.purchase_units[0]!.amount).toEqual({ currency_code: 'USD', value: '5.52' });
      expect(answer).toMatchObject({ message: '$5.00 added: your balance is $6.00.', code: 'subscription.toppedUp', result: { balance: '6.00' } });
      // A replay, the webhook after it, and two at once credit nothing more.
      expect((await api.post('/api/payment/capture', { orderId: order.id })).message).toBe('This payment was already credited.');
      const [captured] = fake.capturesOf(order.id);
      expect((await fake.sendWebhook(`${t.url}/api/payment/webhook`, 'PAYMENT.CAPTURE.COMPLETED', { ...captured, supplementary_data: { related_ids: { order_id: order.id } } })).status).toBe(200);
      await Promise.all([api.post('/api/payment/capture', { orderId: order.id }), api.post('/api/payment/capture', { orderId: order.id })]);
      expect((await status(api)).balance).toBe('6.00');
      expect(fake.capturesOf(order.id)).toHaveLength(1);
      // The amount is the server's: a browser cannot choose another.
      expect(await failure(api.post('/api/payment/order', { kind: 'topup', amount: 7 }))).toEqual({ status: 400, error: 'Top up $1, $5, $10, $20 or $50.' });
    });

    it('caps the orders one account leaves open in PayPal, and frees a place when one is paid or expires', async () => {
      const api = await buyer();
      const created = fake.orders.size;
      const ids: string[] = [];
      for (let i = 0; i < MAX_OPEN_ORDERS; i++) ids.push((await api.post<{ id: string }>('/api/payment/order', { kind: 'topup', amount: 1 })).result!.id);
      const refused = { status: 429, error: `You have ${MAX_OPEN_ORDERS} payments waiting for approval in PayPal. Finish or cancel one, or try again in 3 days.` };
      expect(await failure(api.post('/api/payment/order', { kind: 'topup', amount: 1 }))).toEqual(refused);
      expect(await failure(api.post('/api/payment/order', { kind: 'plan', role: 'plus_user' }))).toEqual(refused);
      // Nothing more was asked of PayPal, and another account is not held back.
      expect(fake.orders.size).toBe(created + MAX_OPEN_ORDERS);
      expect((await (await buyer()).post('/api/payment/order', { kind: 'topup', amount: 1 })).success).toBe(true);
      // One paid: a place is free again.
      fake.approve(ids[0]!);
      expect((await api.post('/api/payment/capture', { orderId: ids[0] })).success).toBe(true);
      expect((await api.post('/api/payment/order', { kind: 'topup', amount: 1 })).success).toBe(true);
      expect(await failure(api.post('/api/payment/order', { kind: 'topup', amount: 1 }))).toEqual(refused);
      // Three days on, PayPal has dropped the unapproved ones: so are they here.
      now += 3 * DAY + 1;
      expect((await api.post('/api/payment/order', { kind: 'topup', amount: 1 })).success).toBe(true);
    });

    it('refuses another user’s order, and credits nothing for an order whose amount was changed', async () => {
      const alice = await buyer();
      const bob = await buyer();
      const order = (await alice.post<{ id: string }>('/api/payment/order', { kind: 'topup', amount: 10 })).result!;
      fake.approve(order.id);
      expect(await failure(bob.post('/api/payment/capture', { orderId: order.id }))).toEqual({ status: 404, error: 'Order not found.' });
      fake.orders.get(order.id)!.purchase_units[0]!.amount.value = '0.01';
      expect(await failure(alice.post('/api/payment/capture', { orderId: order.id }))).toEqual({ status: 409, error: 'The payment does not match the order, so nothing was credited.' });
      expect((await status(alice)).balance).toBe('1.00');
      expect((await status(bob)).balance).toBe('1.00');
    });

    it('buys a plan, extends it (same day and last day), and the role ends on the next request after expiry', async () => {
      const start = now;
      const api = await buyer();
      expect((await pay(api, { kind: 'plan', role: 'plus_user' })).answer.message).toBe(`You are on the plus_user plan until 02/10/2027.`);
      expect(await status(api)).toMatchObject({ role: 'plus_user', expires_at: addMonths(start), balance: '1.00' });
      // Same day: one month more from the current expiry.
      await pay(api, { kind: 'plan', role: 'plus_user' });
      expect((await status(api)).expires_at).toBe(addMonths(addMonths(start)));
      // The last millisecond: still from the expiry, not from now.
      now = addMonths(addMonths(start)) - 1;
      await pay(api, { kind: 'plan', role: 'plus_user' });
      expect((await status(api)).expires_at).toBe(addMonths(addMonths(addMonths(start))));
      // Past the expiry: a user again, from the next request.
      now = addMonths(addMonths(addMonths(start)));
      expect(await status(api)).toMatchObject({ role: 'user', expires_at: null, expires: 'Unlimited' });
      // Already expired: a new plan starts now.
      await pay(api, { kind: 'plan', role: 'plus_user' });
      expect((await status(api)).expires_at).toBe(addMonths(now));
    });

    it('upgrades now, crediting the unused days of the plan it replaces, and defers a downgrade to the end', async () => {
      const start = now;
      const api = await buyer();
      await pay(api, { kind: 'plan', role: 'plus_user' });
      now = start + 10 * DAY + 3_600_000; // 20 whole days of plus left (and 23 hours): $6.00 × 20 / 30
      const up = (await pay(api, { kind: 'plan', role: 'super_user' })).answer;
      expect(up.message).toBe('You are on the super_user plan until 02/20/2027; $4.00 for the unused part of your previous plan went to your balance.');
      expect(await status(api)).toMatchObject({ role: 'super_user', expires_at: addMonths(now), balance: '5.00' });
      const superEnds = addMonths(now);
      const down = (await pay(api, { kind: 'plan', role: 'plus_user' })).answer;
      expect(down.message).toBe('Your plus_user plan starts on 02/20/2027, when your current plan ends, and runs until 03/20/2027.');
      expect((await status(api)).scheduled).toEqual({ role: 'plus_user', from: superEnds, until: addMonths(superEnds) });
      // The higher plan goes on until its end; then the one bought for later takes over.
      now = superEnds - 1;
      expect((await status(api)).role).toBe('super_user');
      now = superEnds;
      expect(await status(api)).toMatchObject({ role: 'plus_user', expires_at: addMonths(superEnds), scheduled: null });
      now = addMonths(superEnds);
      expect((await status(api)).role).toBe('user');
    });

    it('a plan without expiry blocks extending it or a lower one, and root buys nothing', async () => {
      const api = await buyer();
      const root = t.client();
      await root.post('/api/user/login', { username: 'root', password: 'root-password-1' });
      await root.post('/api/user/update/role', { username: api.username, role: 'plus_user' });
      expect(await failure(api.post('/api/payment/order', { kind: 'plan', role: 'plus_user' }))).toEqual({ status: 409, error: 'Your plus_user plan does not expire: it cannot be extended or replaced by a lower plan.' });
      expect(await failure(root.post('/api/payment/order', { kind: 'topup', amount: 5 }))).toEqual({ status: 403, error: 'You are the root_user.' });
      // A higher plan is an upgrade (nothing unused to credit: the plan had no end).
      expect((await pay(api, { kind: 'plan', role: 'super_user' })).answer.message).toBe('You are on the super_user plan until 02/10/2027.');
    });

    it('says what PayPal answered: declined, pending (credited by the webhook), already captured, a 5xx (credited by the reconcile)', async () => {
      const api = await buyer();
      fake.nextCaptures('declined');
      const declined = (await api.post<{ id: string }>('/api/payment/order', { kind: 'topup', amount: 1 })).result!;
      fake.approve(declined.id);
      expect(await failure(api.post('/api/payment/capture', { orderId: declined.id }))).toEqual({ status: 409, error: 'The payment was declined. Try another card or account.' });

      fake.nextCaptures('pending');
      const { order: pending, answer } = await pay(api, { kind: 'topup', amount: 20 });
      expect(answer.message).toBe('PayPal is still completing the payment; it is credited as soon as it completes.');
      expect((await status(api)).balance).toBe('1.00');
      const [capture] = fake.capturesOf(pending.id);
      // A forged webhook is refused; PayPal's, once the capture completes, credits.
      expect((await fake.sendWebhook(`${t.url}/api/payment/webhook`, 'PAYMENT.CAPTURE.COMPLETED', { ...capture, status: 'COMPLETED', supplementary_data: { related_ids: { order_id: pending.id } } }, { badSignature: true })).status).toBe(400);
      expect((await status(api)).balance).toBe('1.00');
      capture!.status = 'COMPLETED';
      await fake.sendWebhook(`${t.url}/api/payment/webhook`, 'PAYMENT.CAPTURE.COMPLETED', { ...capture, supplementary_data: { related_ids: { order_id: pending.id } } });
      expect((await status(api)).balance).toBe('21.00');

      fake.nextCaptures('error500');
      const broken = (await api.post<{ id: string }>('/api/payment/order', { kind: 'topup', amount: 10 })).result!;
      fake.approve(broken.id);
      expect(await failure(api.post('/api/payment/capture', { orderId: broken.id }))).toEqual({ status: 502, error: 'The payment could not be completed: An internal server error occurred.' });
      expect(t.logs()).toContain('payment capture failed');
      // The buyer closed the tab; coming back, the open order is captured and credited.
      expect((await status(api)).balance).toBe('31.00');
    });

    /** The order's row as the server keeps it. */
    const orderRow = (id: string) => t.server.db.db.selectFrom('payment_orders' as never).selectAll().where('id' as never, '=', id as never).executeTakeFirstOrThrow() as Promise<{ status: string; capture_id: string | null }>;
    /** How often the server has read this order from PayPal. */
    const readsOf = (id: string) => fake.requests.filter((r) => r.method === 'GET' && r.path === `/v2/checkout/orders/${id}`).length;
    const DECLINED = 'PayPal declined the payment: nothing was charged or credited. Try again with another card or account.';

    it('ends an order whose capture PayPal answers DECLINED: the buyer is told, nothing is credited, PayPal is not asked again', async () => {
      const api = await buyer();
      fake.nextCaptures('declinedCapture');
      const order = (await api.post<{ id: string }>('/api/payment/order', { kind: 'topup', amount: 10 })).result!;
      fake.approve(order.id);
      expect(await failure(api.post('/api/payment/capture', { orderId: order.id }))).toEqual({ status: 409, error: DECLINED });
      expect(fake.capturesOf(order.id).map((c) => c.status)).toEqual(['DECLINED']);
      expect(await orderRow(order.id)).toMatchObject({ status: 'declined', capture_id: fake.capturesOf(order.id)[0]!.id });
      expect(t.logs()).toContain('payment declined by PayPal; nothing credited');
      // The standing names it, and neither it nor the reconcile behind it asks PayPal again.
      const reads = readsOf(order.id);
      const after = await status(api);
      expect(after).toMatchObject({ balance: '1.00', declined: [{ amount: '10.74', date: '01/10/2027' }] });
      await status(api);
      expect(readsOf(order.id)).toBe(reads);
      // Trying the same order again says the same, reading (not capturing) it; it holds no place among the open orders.
      expect(await failure(api.post('/api/user/update/balance', { amount: 10, details: { id: order.id } }))).toEqual({ status: 409, error: DECLINED });
      expect(fake.capturesOf(order.id)).toHaveLength(1);
      expect((await status(api)).balance).toBe('1.00');
      const ids: string[] = [];
      for (let i = 0; i < MAX_OPEN_ORDERS; i++) ids.push((await api.post<{ id: string }>('/api/payment/order', { kind: 'topup', amount: 1 })).result!.id);
      expect(ids).toHaveLength(MAX_OPEN_ORDERS);
    });

    it('ends a PENDING capture that PayPal declines later: seen by the status route, by PAYMENT.CAPTURE.DENIED and by PAYMENT.CAPTURE.DECLINED', async () => {
      const api = await buyer();
      const webhook = `${t.url}/api/payment/webhook`;
      const pendingOrder = async (amount: number) => {
        fake.nextCaptures('pending');
        const { order, answer } = await pay(api, { kind: 'topup', amount });
        expect(answer.message).toBe('PayPal is still completing the payment; it is credited as soon as it completes.');
        expect((await orderRow(order.id)).status).toBe('pending');
        return { order, capture: fake.capturesOf(order.id)[0]! };
      };

      // No webhook: the buyer's next look at the standing reads it once, then never again.
      const polled = await pendingOrder(20);
      await fake.declinePending(polled.capture.id);
      const reads = readsOf(polled.order.id);
      expect(await status(api)).toMatchObject({ balance: '1.00', declined: [{ amount: '21.18', date: '01/10/2027' }] });
      expect(readsOf(polled.order.id)).toBe(reads + 1);
      expect((await orderRow(polled.order.id)).status).toBe('declined');
      await status(api);
      expect(readsOf(polled.order.id)).toBe(reads + 1);
      expect(await failure(api.post('/api/payment/capture', { orderId: polled.order.id }))).toEqual({ status: 409, error: DECLINED });

      // PayPal's PAYMENT.CAPTURE.DENIED ends it before anyone looks (a forged one does not).
      const denied = await pendingOrder(5);
      denied.capture.status = 'DECLINED';
      expect((await fake.sendWebhook(webhook, 'PAYMENT.CAPTURE.DENIED', { ...denied.capture, supplementary_data: { related_ids: { order_id: denied.order.id } } }, { badSignature: true })).status).toBe(400);
      expect((await orderRow(denied.order.id)).status).toBe('pending');
      denied.capture.status = 'PENDING';
      await fake.declinePending(denied.capture.id, webhook);
      expect((await orderRow(denied.order.id)).status).toBe('declined');
      const deniedReads = readsOf(denied.order.id);
      await status(api);
      expect(readsOf(denied.order.id)).toBe(deniedReads);

      // PAYMENT.CAPTURE.DECLINED does the same.
      const declined = await pendingOrder(1);
      declined.capture.status = 'DECLINED';
      expect((await fake.sendWebhook(webhook, 'PAYMENT.CAPTURE.DECLINED', { ...declined.capture, supplementary_data: { related_ids: { order_id: declined.order.id } } })).status).toBe(200);
      expect((await orderRow(declined.order.id)).status).toBe('declined');
      expect((await status(api)).balance).toBe('1.00');

      // A credited payment stays credited, whatever a later event says.
      const { order: paid } = await pay(api, { kind: 'topup', amount: 5 });
      const [completed] = fake.capturesOf(paid.id);
      expect((await fake.sendWebhook(webhook, 'PAYMENT.CAPTURE.DENIED', { ...completed, status: 'DECLINED', supplementary_data: { related_ids: { order_id: paid.id } } })).status).toBe(200);
      expect((await orderRow(paid.id)).status).toBe('completed');
      expect((await status(api)).balance).toBe('6.00');
    });

    it('credits a buyer who approved and closed the tab: PayPal’s CHECKOUT.ORDER.APPROVED webhook captures it', async () => {
      const api = await buyer();
      const order = (await api.post<{ id: string }>('/api/payment/order', { kind: 'topup', amount: 50 })).result!;
      fake.approve(order.id);
      await fake.sendWebhook(`${t.url}/api/payment/webhook`, 'CHECKOUT.ORDER.APPROVED', { id: order.id, status: 'APPROVED' });
      expect(fake.capturesOf(order.id)).toHaveLength(1);
      expect((await t.server.db.db.selectFrom('users').select('balance_cents').where('username', '=', api.username).executeTakeFirstOrThrow()).balance_cents).toBe(5100);
    });

    it('takes the spec’s “update the role or balance after approval” call through the same check', async () => {
      const api = await buyer();
      const order = (await api.post<{ id: string }>('/api/payment/order', { kind: 'topup', amount: 5 })).result!;
      fake.approve(order.id);
      // The amount the browser claims is ignored: the order's is credited.
      expect((await api.post('/api/user/update/balance', { amount: 500, details: { id: order.id } })).message).toBe('$5.00 added: your balance is $6.00.');
      expect((await api.post('/api/user/update/balance', { amount: 500, details: { id: order.id } })).message).toBe('This payment was already credited.');
      expect(await failure(api.post('/api/user/update/role', { role: 'super_user', details: { id: 'NOSUCHORDER' } }))).toEqual({ status: 404, error: 'Order not found.' });
      expect(await failure(api.post('/api/user/update/role', { role: 'super_user' }))).toMatchObject({ status: 403 });
    });

    it('gates the plus plan’s features for a user, and opens them once it is bought', async () => {
      const api = await buyer();
      const plus = 'needs the plus_user plan or above. See :subscription ls.';
      expect(await failure(api.post('/api/role/add', { roleName: 'r', prompt: 'p' }))).toEqual({ status: 403, error: `Adding and changing roles ${plus}` });
      expect(await failure(api.get('/api/store/list'))).toEqual({ status: 403, error: `Using data stores ${plus}` });
      expect(await failure(api.get('/api/node/list'))).toEqual({ status: 403, error: `Using nodes ${plus}` });
      const cli = await api.raw(`${t.url}/api/model/list`, { headers: { 'x-shellchat-client': 'cli' } });
      expect(cli.status).toBe(403);
      expect((await api.raw(`${t.url}/api/user/info`, { headers: { 'x-shellchat-client': 'cli' } })).status).toBe(200);
      expect(await failure(api.post('/api/generate', { session: 1_800_000_000_001, user_input: 'hi', mcp_tools: [{ name: 'echo' }] }))).toEqual({ status: 400, error: `Using MCP functions ${plus}` });
      // Reading roles and chatting stay free; anonymous visitors get the routes' own 'Please login.'.
      expect((await api.get('/api/role/list')).success).toBe(true);
      expect(await failure(t.client().post('/api/role/add', { roleName: 'r', prompt: 'p' }))).toEqual({ status: 401, error: 'Please login.' });
      await pay(api, { kind: 'plan', role: 'plus_user' });
      expect((await api.post('/api/role/add', { roleName: 'r', prompt: 'p' })).success).toBe(true);
      expect((await api.get('/api/store/list')).success).toBe(true);
    });

    it('refuses a question when the fees are more than the balance, saying how to top up', async () => {
      const api = await buyer();
      const user = await t.server.db.db.selectFrom('users').select('id').where('username', '=', api.username).executeTakeFirstOrThrow();
      await t.server.db.db.insertInto('usage').values({ user_id: user.id, device_id: null, log_id: null, kind: 'chat', model: 'm', input_tokens: 1, output_tokens: 1, cost: 1.004, created_at: now }).execute();
      expect(await failure(api.post('/api/generate', { session: 1_800_000_000_002, user_input: 'hi' }))).toEqual({
        status: 400,
        error: 'Your fees ($1.01) are more than your balance ($1.00). Top up with :subscription topup 5, or on the Subscriptions page.',
      });
      // `:subscription` and the page read the same figures: $0.01 owed.
      expect(await status(api)).toMatchObject({ balance: '1.00', usage: '1.01', left_cents: -1 });
      // A sum of doubles a hair over a cent (1000 × $0.00009) is that cent, not the next one.
      const other = await buyer();
      const row = await t.server.db.db.selectFrom('users').select('id').where('username', '=', other.username).executeTakeFirstOrThrow();
      await t.server.db.db.insertInto('usage').values({ user_id: row.id, device_id: null, log_id: null, kind: 'chat', model: 'm', input_tokens: 1000, output_tokens: 0, cost: 1000 * 0.00009, created_at: now }).execute();
      expect(await status(other)).toMatchObject({ usage: '0.09', left_cents: 91 });
    });
  });
}
