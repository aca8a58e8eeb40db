// The authorization matrix of the user plugin (tests/security/authzSupport.ts): the user routes
// (login, sign-up, settings, passwords, e-mail links, groups, balance and role) and invitations.
// Which actor gets which answer, and what each request may change (see authzSupport.ts).
import { expect } from 'vitest';
import { call, linkToken, mailsTo, nextSeq, ROOT_PASSWORD, row, t, type Cases, type Matrix, type Person } from '../../tests/security/authzSupport.ts';

// prettier-ignore
export const matrix: Matrix = {
  //                                           scope      anonymous owner other member root
  'GET /api/user/info':                        ['self',   401,      200,  200,  200,   200],
  'GET /api/user/usage':                       ['self',   401,      200,  200,  200,   200],
  'POST /api/user/login':                      ['owner',  200,      200,  401,  401,   401],
  'POST /api/user/logout':                     ['self',   401,      200,  200,  200,   200],
  'POST /api/user/add':                        ['public', 200,      200,  200,  200,   200],
  'POST /api/user/delete':                     ['owner',  401,      200,  403,  403,   200],
  'POST /api/user/update/setting':             ['self',   401,      200,  200,  200,   200],
  'POST /api/user/reset-setting':              ['self',   401,      200,  200,  200,   200],
  'POST /api/user/reset-settings':             ['self',   401,      200,  200,  200,   200],
  'POST /api/user/update/password':            ['self',   401,      200,  200,  200,   200],
  'POST /api/user/update/email':               ['self',   401,      200,  200,  200,   200],
  'GET /api/user/verify-email':                ['link',   200,      200,  200,  200,   200],
  'POST /api/user/reset-password':             ['owner',  200,      200,  200,  200,   200],
  'GET /api/user/reset-password/confirm':      ['link',   200,      200,  200,  200,   200],
  'POST /api/user/reset-password/confirm':     ['link',   200,      200,  200,  200,   200],
  'POST /api/user/group/join':                 ['owner',  401,      409,  200,  409,   200],
  'POST /api/user/group/leave':                ['owner',  401,      400,  404,  200,   404],
  'POST /api/user/update/balance':             ['owner',  401,      403,  403,  403,   200],
  'POST /api/user/update/role':                ['owner',  401,      403,  403,  403,   200],
  'GET /api/user/update/email-subscription':   ['owner',  403,      200,  403,  403,   403],
  'GET /api/invite/:email':                    ['self',   401,      200,  200,  200,   200],
};

const settingsOf = async (username: string) => t.server.accounts.settings.normalize((await row(username))!.settings);
const groupsOf = async (p: Person) => (await t.server.accounts.groupsOf(p.id)).map((g) => g.name);
const canLogin = async (username: string, password: string) => !!(await t.server.accounts.authenticate(username, password));
const tokenWorks = async (token: string) => !!(await t.server.accounts.userForToken(token));

export const cases: Cases = {
  'GET /api/user/info': {
    // Always the caller's own account, never the owner's for anyone else.
    effect: async ({ res, me, allowed }) => {
      if (allowed) expect((res.json?.result as { username: string }).username).toBe(me!.username);
    },
  },
  'GET /api/user/usage': {},
  'POST /api/user/login': {
    // Credentials for the owner's account: anonymous and the owner present the owner's password;
    // everyone else presents their own, which must not open the owner's account (no impersonation).
    body: (w, me) => ({ username: w.owner.username, password: me && me !== w.owner ? me.password : w.owner.password }),
    effect: async ({ res, allowed }) => {
      expect(res.headers.getSetCookie().some((c) => /^auth=[^;]+/.test(c))).toBe(allowed);
    },
  },
  'POST /api/user/logout': {
    body: (w) => ({ username: w.owner.username }),
    effect: async ({ w, me, allowed, actor }) => {
      if (me) expect(await tokenWorks(me.token)).toBe(!allowed);
      expect(await tokenWorks(w.owner.token)).toBe(!(allowed && actor === 'owner'));
    },
  },
  'POST /api/user/add': {
    // A sign-up cannot choose its role or balance (mass assignment).
    body: () => {
      const n = nextSeq();
      return { username: `new${n}`, email: `new${n}@example.org`, password: 'new-user-password', role: 'root_user', balance: 1000 };
    },
    effect: async ({ body, allowed }) => {
      const created = await row((body as { username: string }).username);
      expect(!!created).toBe(allowed);
      if (created) expect({ role: created.role, balance: created.balance }).toEqual({ role: 'user', balance: 0 });
    },
  },
  'POST /api/user/delete': {
    body: (w) => ({ username: w.owner.username }),
    effect: async ({ w, me, allowed }) => {
      expect(!!(await row(w.owner.username))).toBe(!allowed);
      if (me && me !== w.owner) expect(!!(await row(me.username))).toBe(true);
    },
  },
  'POST /api/user/update/setting': {
    body: (w) => ({ key: 'theme', value: 'dark', username: w.owner.username }),
    effect: async ({ w, me, allowed, actor }) => {
      expect((await settingsOf(w.owner.username)).theme).toBe(allowed && actor === 'owner' ? 'dark' : 'light');
      if (me) expect((await settingsOf(me.username)).theme).toBe(allowed ? 'dark' : 'light');
    },
  },
  'POST /api/user/reset-setting': {
    prepare: async (w, me) => {
      for (const p of new Set([w.owner, ...(me ? [me] : [])])) await t.server.accounts.updateSetting((await row(p.username))!, 'theme', 'dark');
      return {};
    },
    body: (w) => ({ key: 'theme', username: w.owner.username }),
    effect: async ({ w, me, allowed, actor }) => {
      expect((await settingsOf(w.owner.username)).theme).toBe(allowed && actor === 'owner' ? 'light' : 'dark');
      if (me) expect((await settingsOf(me.username)).theme).toBe(allowed ? 'light' : 'dark');
    },
  },
  'POST /api/user/reset-settings': {
    body: (w) => ({ username: w.owner.username }),
    effect: async ({ w, allowed, actor }) => {
      expect((await settingsOf(w.owner.username)).groupPassword === w.groupPassword).toBe(!(allowed && actor === 'owner'));
    },
  },
  'POST /api/user/update/password': {
    body: (w) => ({ password: 'changed-password-1', username: w.owner.username }),
    effect: async ({ w, me, allowed, actor }) => {
      expect(await canLogin(w.owner.username, w.owner.password)).toBe(!(allowed && actor === 'owner'));
      if (me) expect(await canLogin(me.username, 'changed-password-1')).toBe(allowed);
      // Root is shared by every world: give it its password back.
      if (actor === 'root') await t.server.accounts.updatePassword((await row('root'))!, ROOT_PASSWORD);
    },
  },
  'POST /api/user/update/email': {
    body: (w) => ({ email: `changed-${w.owner.username}@example.org`, username: w.owner.username }),
    effect: async ({ w, allowed }) => {
      // A link goes to the new address; nothing changes until it is followed.
      expect(mailsTo(`changed-${w.owner.username}@example.org`).length).toBe(allowed ? 1 : 0);
      expect((await row(w.owner.username))!.email).toBe(w.owner.email);
    },
  },
  'GET /api/user/verify-email': {
    prepare: async (w) => {
      const asked = await call('POST', '/api/user/update/email', w.owner.token, { body: { email: `verified-${w.owner.username}@example.org` } });
      if (asked.status !== 200) throw new Error(`setup: ${asked.text}`);
      return { token: linkToken(`verified-${w.owner.username}@example.org`, '/api/user/verify-email') };
    },
    query: (w) => ({ token: w.prepared.token! }),
    effect: async ({ w, me, allowed }) => {
      expect((await row(w.owner.username))!.email).toBe(allowed ? `verified-${w.owner.username}@example.org` : w.owner.email);
      if (me && me !== w.owner) expect((await row(me.username))!.email).toBe(me.email);
    },
  },
  'POST /api/user/reset-password': {
    body: (w) => ({ username: w.owner.username, email: w.owner.email }),
    effect: async ({ w, me, allowed }) => {
      // The link goes to the owner's address only, never to whoever asked.
      expect(mailsTo(w.owner.email).length).toBe(allowed ? 1 : 0);
      if (me && me !== w.owner) expect(mailsTo(me.email)).toEqual([]);
    },
  },
  'GET /api/user/reset-password/confirm': {
    prepare: async (w) => {
      const asked = await call('POST', '/api/user/reset-password', null, { body: { username: w.owner.username, email: w.owner.email } });
      if (asked.status !== 200) throw new Error(`setup: ${asked.text}`);
      return { token: linkToken(w.owner.email, '/api/user/reset-password/confirm') };
    },
    query: (w) => ({ token: w.prepared.token! }),
    effect: async ({ w, res }) => {
      // Opening the link changes nothing (a mail scanner opens links too): the page asks.
      expect(await canLogin(w.owner.username, w.owner.password)).toBe(true);
      expect(await tokenWorks(w.owner.token)).toBe(true);
      expect(res.text).toContain('<form method="post" action="/api/user/reset-password/confirm">');
      expect(res.text).not.toMatch(/<pre[^>]*>/);
    },
  },
  'POST /api/user/reset-password/confirm': {
    prepare: async (w) => {
      const asked = await call('POST', '/api/user/reset-password', null, { body: { username: w.owner.username, email: w.owner.email } });
      if (asked.status !== 200) throw new Error(`setup: ${asked.text}`);
      return { token: linkToken(w.owner.email, '/api/user/reset-password/confirm') };
    },
    body: (w) => ({ token: w.prepared.token! }),
    effect: async ({ w, me, allowed, res }) => {
      expect(await canLogin(w.owner.username, w.owner.password)).toBe(!allowed);
      expect(await tokenWorks(w.owner.token)).toBe(!allowed);
      // The page shows the owner's new password, once.
      if (allowed) expect(await canLogin(w.owner.username, res.text.match(/<pre[^>]*>([A-Za-z0-9]{16})<\/pre>/)?.[1] ?? '')).toBe(true);
      if (me && me !== w.owner) expect(await canLogin(me.username, me.password)).toBe(true);
    },
  },
  'POST /api/user/group/join': {
    // The owner's group password is the capability; the owner and the member are in already.
    body: (w) => ({ group: w.owner.username, password: w.groupPassword }),
    effect: async ({ w, me, allowed, actor }) => {
      if (me && (actor === 'other' || actor === 'root')) expect((await groupsOf(me)).includes(w.owner.username)).toBe(allowed);
      expect(await groupsOf(w.owner)).toEqual([w.owner.username]);
    },
  },
  'POST /api/user/group/leave': {
    body: (w) => ({ group: w.owner.username }),
    effect: async ({ w, allowed, actor }) => {
      expect((await groupsOf(w.member)).includes(w.owner.username)).toBe(!(allowed && actor === 'member'));
      expect(await groupsOf(w.owner)).toEqual([w.owner.username]);
    },
  },
  'POST /api/user/update/balance': {
    body: (w) => ({ amount: 5, username: w.owner.username }),
    effect: async ({ w, me, allowed }) => {
      // Balances are whole cents (the ledger).
      expect(Number((await row(w.owner.username))!.balance_cents)).toBe(allowed ? 500 : 0);
      if (me && me !== w.owner && me !== w.root) expect(Number((await row(me.username))!.balance_cents)).toBe(0);
    },
  },
  'POST /api/user/update/role': {
    body: (w) => ({ role: 'plus_user', username: w.owner.username }),
    effect: async ({ w, me, allowed }) => {
      expect((await row(w.owner.username))!.role).toBe(allowed ? 'plus_user' : 'user');
      if (me && me !== w.owner && me !== w.root) expect((await row(me.username))!.role).toBe('user');
    },
  },
  'GET /api/user/update/email-subscription': {
    // Without a signed link only the logged-in owner of the address may (un)subscribe it.
    query: (w) => ({ email: w.owner.email, email_subscription: '0' }),
    effect: async ({ w, allowed }) => expect((await row(w.owner.username))!.email_subscription).toBe(allowed ? 0 : 1),
  },
  'GET /api/invite/:email': {
    // The caller invites an address in their own name.
    path: (w) => `/api/invite/${encodeURIComponent(`invited-${w.owner.username}@example.org`)}`,
    effect: async ({ w, me, allowed }) => {
      const sent = mailsTo(`invited-${w.owner.username}@example.org`);
      expect(sent.length).toBe(allowed ? 1 : 0);
      if (allowed) expect(sent[0]!.text).toContain(`${me!.username} invites you`);
    },
  },
};
