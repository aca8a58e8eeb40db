// The audit trail through the routes (real server over HTTP): one audit_log row for each kind of
// change (role, balance, group join and leave, store, node and model owner or sharing, a
// payment credited through the fake PayPal, an account deleted by root), with who, what, on what,
// before, after, when and from where, and nothing secret in any row; root alone reads it, with
// its filters (user, kind, time), over GET /api/audit and with `:audit`; no route changes it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../../tests/fixtures/fakeOpenAI.ts';
import { paypalEnv, startFakePaypal, type FakePaypal } from '../../tests/fixtures/fakePaypal.ts';
import { createShellTester } from '../../tests/harness/shellTester.ts';
import { engines, failure, startTestServer, type TestServer } from '../../tests/server/support.ts';
import type { AuditRow } from './common/limits.ts';
import type { AuditDb } from './server/table.ts';

const PW = 'hunter2hunter2';
const ROOT_PW = 'root-password-1';
const MODEL_KEY = 'sk-audit-model-key-0123456789';
const PLANS = JSON.stringify([{ role: 'user', price: '0' }, { role: 'plus_user', price: '6.00' }, { role: 'super_user', price: '30.00' }]);

for (const engine of await engines()) {
  describe(`the audit trail on ${engine}`, () => {
    let t: TestServer;
    let paypal: FakePaypal;
    let fake: FakeOpenAI;
    let seq = 0;
    /** The server's clock runs ahead by this much once a test moves it (the last test). */
    let ahead = 0;
    const suffix = `${Date.now() % 100000}`;

    beforeAll(async () => {
      [paypal, fake] = await Promise.all([startFakePaypal(), startFakeOpenAI()]);
      t = await startTestServer(engine, { ...paypalEnv(paypal), PLANS, EGRESS_ALLOW_HOSTS: '127.0.0.1' }, [], { clock: () => Date.now() + ahead });
    }, 60_000);
    afterAll(async () => {
      await t?.close();
      await Promise.all([paypal?.close(), fake?.close()]);
    });

    async function person(prefix: string) {
      const api = t.client();
      const username = `${prefix}${suffix}${++seq}`;
      await api.post('/api/user/add', { username, email: `${username}@example.org`, password: PW });
      await api.post('/api/user/login', { username, password: PW });
      return Object.assign(api, { username });
    }
    async function root() {
      const api = t.client();
      await api.post('/api/user/login', { username: 'root', password: ROOT_PW });
      return api;
    }
    const entries = async (api: Awaited<ReturnType<typeof root>>, query: Record<string, string>) => (await api.get<{ entries: AuditRow[] }>('/api/audit', query)).result!.entries;
    /** The listener writes after the answer: wait for the row. */
    async function rowOf(kind: string, target: string): Promise<AuditRow> {
      const admin = await root();
      for (let i = 0; i < 100; i++) {
        const found = (await entries(admin, { kind })).find((e) => e.target === target);
        if (found) return found;
        await new Promise((r) => setTimeout(r, 20));
      }
      throw new Error(`no ${kind} row on ${target}`);
    }

    it('keeps a role and a balance root changed: who, on whom, before, after, when, from where', async () => {
      const alice = await person('alice');
      const admin = await root();
      const started = Date.now();
      await admin.post('/api/user/update/role', { username: alice.username, role: 'plus_user', expires_at: null });
      await admin.post('/api/user/update/balance', { username: alice.username, amount: 5 });
      const role = await rowOf('user.role', `user:${alice.username}`);
      expect(role).toMatchObject({ actor: 'root', address: '127.0.0.1', before: { role: 'user', expires_at: null }, after: { role: 'plus_user', expires_at: null } });
      expect(role.at).toBeGreaterThanOrEqual(started - 1000);
      const balance = await rowOf('user.balance', `user:${alice.username}`);
      expect(balance).toMatchObject({ actor: 'root', after: { added: 5 } });
      expect((balance.after as { balance: number }).balance - (balance.before as { balance: number }).balance).toBeCloseTo(5, 6);
    });

    it('keeps group joins and leaves, never the group password', async () => {
      const owner = await person('owner');
      const member = await person('member');
      const groupPassword = String((await owner.get<{ settings: { groupPassword: string } }>('/api/user/info')).result!.settings.groupPassword);
      await member.post('/api/user/group/join', { group: owner.username, password: groupPassword });
      await member.post('/api/user/group/leave', { group: owner.username });
      expect(await rowOf('group.join', `group:${owner.username}`)).toMatchObject({ actor: member.username, after: { member: member.username } });
      expect(await rowOf('group.leave', `group:${owner.username}`)).toMatchObject({ actor: member.username, before: { member: member.username } });
      const all = JSON.stringify(await (t.server.db.db as unknown as AuditDb).selectFrom('audit_log').selectAll().execute());
      expect(all).not.toContain(groupPassword);
    });

    it("keeps a store's and a node's new owner, and a model shared with a group, never its key", async () => {
      const carol = await person('carol');
      // Data stores need the plus plan.
      await (await root()).post('/api/user/update/role', { username: carol.username, role: 'plus_user', expires_at: null });
      await carol.post('/api/store/add', { name: 'docs', engine: 'file' });
      await carol.post('/api/store/update/docs/owner', { owner: `group:${carol.username}` });
      expect(await rowOf('store.owner', 'store:docs')).toMatchObject({ actor: carol.username, before: { owner: carol.username }, after: { owner: `group:${carol.username}` } });

      await carol.post('/api/node/add', { name: 'n1' });
      await carol.post('/api/node/update/n1/owner', { owner: `group:${carol.username}` });
      expect(await rowOf('node.owner', 'node:n1')).toMatchObject({ actor: carol.username, before: { owner: carol.username }, after: { owner: `group:${carol.username}` } });

      await carol.post('/api/model/add', { name: 'mine', base_url: `${fake.url}/v1`, api_key: MODEL_KEY });
      await carol.post('/api/model/update', { name: 'mine', key: 'shared', value: 'true' });
      expect(await rowOf('model.shared', 'model:mine')).toMatchObject({ actor: carol.username, before: { shared: false }, after: { shared: true } });
      const all = JSON.stringify(await (t.server.db.db as unknown as AuditDb).selectFrom('audit_log').selectAll().execute());
      expect(all).not.toContain(MODEL_KEY);
      expect(all).not.toContain(PW);
    });

    it('keeps a payment credited, with the payer as the actor', async () => {
      const dave = await person('dave');
      const order = (await dave.post<{ id: string }>('/api/payment/order', { kind: 'topup', amount: 5 })).result!;
      paypal.approve(order.id);
      await dave.post('/api/payment/capture', { orderId: order.id });
      const row = await rowOf('payment.credit', `user:${dave.username}`);
      // A $5 top-up: 500 cents credited (the item), 552 paid with PayPal's fee.
      expect(row).toMatchObject({ actor: dave.username, after: { kind: 'topup', item: '500', paid_cents: 552 } });
      expect(JSON.stringify(row)).not.toMatch(/capture|PAYPAL|fake-client-secret/i);
    });

    it("keeps a plan bought for later taking over when the plan before it ends: the server's change, no actor", async () => {
      const hana = await person('hana');
      for (const role of ['super_user', 'plus_user']) {
        const order = (await hana.post<{ id: string }>('/api/payment/order', { kind: 'plan', role })).result!;
        paypal.approve(order.id);
        await hana.post('/api/payment/capture', { orderId: order.id });
      }
      const { expires_at: ends } = (await hana.get<{ expires_at: number }>('/api/subscription/status')).result!;
      ahead = ends - Date.now() + 60_000;
      try {
        const later = t.client();
        await later.post('/api/user/login', { username: hana.username, password: PW });
        expect((await later.get<{ role: string }>('/api/subscription/status')).result!.role).toBe('plus_user');
        const row = await rowOf('user.plan', `user:${hana.username}`);
        expect(row).toMatchObject({ actor: null, address: null, before: { role: 'super_user', expires_at: ends }, after: { role: 'plus_user' } });
        expect((row.after as { expires_at: number }).expires_at).toBeGreaterThan(ends);
      } finally {
        ahead = 0;
      }
    });

    it('keeps an account root deleted', async () => {
      const erin = await person('erin');
      const admin = await root();
      await admin.post('/api/user/delete', { username: erin.username });
      expect(await rowOf('user.delete', `user:${erin.username}`)).toMatchObject({ actor: 'root', before: { role: 'user' } });
    });

    it('is read by root alone, filtered by user, kind and time, newest first', async () => {
      const frank = await person('frank');
      const admin = await root();
      expect(await failure(frank.get('/api/audit'))).toEqual({ status: 403, error: 'Only root can read the audit trail.' });
      expect((await failure(t.client().get('/api/audit'))).status).toBe(401);

      const before = Date.now();
      await admin.post('/api/user/update/balance', { username: frank.username, amount: 1 });
      await admin.post('/api/user/update/balance', { username: frank.username, amount: 2 });
      await admin.post('/api/user/update/role', { username: frank.username, role: 'super_user', expires_at: null });
      await rowOf('user.role', `user:${frank.username}`);
      const mine = await entries(admin, { user: frank.username });
      expect(mine.map((e) => e.kind)).toEqual(['user.role', 'user.balance', 'user.balance']);
      expect(mine.map((e) => (e.after as { added?: number }).added ?? null)).toEqual([null, 2, 1]);
      expect((await entries(admin, { user: frank.username, kind: 'user.balance' })).length).toBe(2);
      expect((await entries(admin, { user: frank.username, kind: 'user.*' })).length).toBe(3);
      // `_` is no wildcard: `user_*` matches nothing.
      expect((await entries(admin, { user: frank.username, kind: 'user_*' })).length).toBe(0);
      expect((await entries(admin, { user: frank.username, until: String(before - 1) })).length).toBe(0);
      expect((await entries(admin, { user: frank.username, since: String(before - 1000), limit: '1' })).map((e) => e.kind)).toEqual(['user.role']);
      // What frank did is his too: joining a group shows under his name as the actor.
      expect((await failure(admin.get('/api/audit', { limit: '201' }))).status).toBe(400);
    });

    it('has no route that changes or deletes a row', () => {
      expect(t.server.apiRoutes().filter((r) => r.owner === 'audit')).toEqual([{ method: 'GET', path: '/api/audit', owner: 'audit' }]);
    });

    it('is read with :audit, with its filters, by root alone', async () => {
      const grace = await person('grace');
      const admin = await root();
      await admin.post('/api/user/update/role', { username: grace.username, role: 'plus_user', expires_at: null });
      await rowOf('user.role', `user:${grace.username}`);
      const sh = await createShellTester({ plugins: ['general', 'user', 'audit'], serverUrl: t.url });
      expect((await sh.run(`:login root ${ROOT_PW}`)).errors).toEqual([]);
      const shown = await sh.run(`:audit user=${grace.username} kind=user.role since=1h`);
      expect(shown.errors).toEqual([]);
      const table = shown.outputs.find((o) => o.kind === 'table') as { columns: string[]; rows: string[][] } | undefined;
      expect(table?.columns).toEqual(['Time', 'Actor', 'Kind', 'Target', 'Before', 'After', 'From']);
      expect(table?.rows).toHaveLength(1);
      expect(table?.rows[0]!.slice(1, 4)).toEqual(['root', 'user.role', `user:${grace.username}`]);
      expect(JSON.parse(table!.rows[0]![5]!)).toEqual({ role: 'plus_user', expires_at: null });
      expect((await sh.run(`:audit user=${grace.username} until=2000-01-01`)).text).toBe('No audit entries found.');
      expect((await sh.run(':audit who=me')).errors).toEqual(['Unknown filter "who=me". Filters are: user, kind, since, until, limit (e.g. user=alice kind=user.role since=7d).']);
      expect((await sh.run(':audit since=yesterday')).errors).toEqual(['Invalid time "yesterday". Use a date (2026-11-01, 2026-11-01T12:00) or a span back from now (30m, 24h, 7d).']);
      expect((await sh.run(':audit limit=0')).errors).toEqual(['Invalid limit. It is a whole number from 1 to 200.']);

      const other = await createShellTester({ plugins: ['general', 'user', 'audit'], serverUrl: t.url });
      expect((await other.run(`:login ${grace.username} ${PW}`)).errors).toEqual([]);
      expect((await other.run(':audit')).errors).toEqual(['Only root can read the audit trail.']);
      const anonymous = await createShellTester({ plugins: ['general', 'user', 'audit'], serverUrl: t.url });
      expect((await anonymous.run(':audit')).errors).toEqual(['Please login.']);
    });
  });
}
