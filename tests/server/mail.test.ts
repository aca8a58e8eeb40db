// E-mail over real SMTP: an in-process SMTP server collects what shellchat sends. Covers the
// mailed sign-up password, the e-mail change link, the password reset link, the signed
// unsubscribe footer of every mail, the answers without SMTP_URL, and that no mail body,
// token or password reaches the server log.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, type PublicUser } from '../../src/core/index.ts';
import { footerLink, linkTo, startSmtp, type Received } from './smtp.ts';
import { engines, failure, startTestServer, type TestServer } from './support.ts';

describe.each(await engines())('e-mail on %s', (engine) => {
  let t: TestServer;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  /** Everything that must never reach the log: passwords, tokens, signatures, mail bodies. */
  const secrets: string[] = [];
  beforeAll(async () => {
    smtp = await startSmtp();
    t = await startTestServer(engine, { SMTP_URL: `smtp://127.0.0.1:${smtp.port}` });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  /** The mails that arrive while fn runs. */
  async function mailsDuring(fn: () => Promise<unknown>): Promise<Received[]> {
    const before = smtp.inbox.length;
    await fn();
    const arrived = smtp.inbox.slice(before);
    for (const mail of arrived) {
      secrets.push(mail.text.trim());
      for (const link of mail.text.match(/https?:\/\/\S+/g) ?? []) {
        for (const [key, value] of new URL(link).searchParams) if (key === 'token' || key === 'sig') secrets.push(value);
      }
    }
    return arrived;
  }

  async function signup(api: ApiClient, username: string, password = 'correct-horse-1') {
    await api.post('/api/user/add', { username, email: `${username}@example.org`, password });
    await api.post('/api/user/login', { username, password });
  }

  const info = async (api: ApiClient) => (await api.get<PublicUser>('/api/user/info')).result!;

  it('mails a generated sign-up password instead of showing it', async () => {
    let response!: Response;
    const [mail, ...rest] = await mailsDuring(async () => {
      response = await fetch(`${t.url}/api/user/add`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'Nora', email: 'nora@example.org' }),
      });
    });
    expect(rest).toEqual([]);
    expect(response.status).toBe(200);
    const answerText = await response.text();
    expect(JSON.parse(answerText)).toEqual({
      success: true,
      message: 'User nora added. Your password was sent to nora@example.org.',
      code: 'user.addedMailed',
      params: { name: 'nora', email: 'nora@example.org' },
      result: { user: { username: 'nora', email: 'nora@example.org' } },
    });
    expect(mail!.to).toEqual(['nora@example.org']);
    expect(mail!.subject).toBe('Your shellchat account');
    const password = mail!.text.match(/Your password: ([A-Za-z0-9]{16})\n/)![1]!;
    secrets.push(password);
    expect(answerText).not.toContain(password);
    footerLink(mail!, t.url);
    const api = t.client();
    await api.post('/api/user/login', { username: 'nora', password });
    expect(await info(api)).toMatchObject({ username: 'nora', email_verified: false, email_subscription: true });
  });

  it('sends no mail for a sign-up with a password', async () => {
    expect(await mailsDuring(() => t.client().post('/api/user/add', { username: 'olga', email: 'olga@example.org', password: 'correct-horse-1' }))).toEqual([]);
  });

  it('changes the e-mail address only when the mailed link is followed, once', async () => {
    const api = t.client();
    await signup(api, 'paul');
    const [mail, ...rest] = await mailsDuring(async () => {
      const answer = await api.post('/api/user/update/email', { email: 'paul.new@example.org' });
      expect(answer.message).toBe('A verification link was sent to paul.new@example.org. Your e-mail address changes when you follow it.');
    });
    expect(rest).toEqual([]);
    expect(mail!.to).toEqual(['paul.new@example.org']);
    expect(mail!.subject).toBe('Confirm your new shellchat e-mail address');
    footerLink(mail!, t.url);
    const link = linkTo(mail!, '/api/user/verify-email');
    expect(link.startsWith(`${t.url}/api/user/verify-email?token=`)).toBe(true);
    expect(await info(api)).toMatchObject({ email: 'paul@example.org', email_verified: false });

    const followed = await fetch(link);
    expect(followed.status).toBe(200);
    expect(await followed.text()).toContain('The e-mail address of paul is now paul.new@example.org.');
    expect(await info(api)).toMatchObject({ email: 'paul.new@example.org', email_verified: true });

    const again = await fetch(link);
    expect(again.status).toBe(400);
    expect(await again.text()).toContain('This link is invalid or has expired.');
    expect((await fetch(`${t.url}/api/user/verify-email?token=not-a-real-token`)).status).toBe(400);
    expect(await failure(api.post('/api/user/update/email', { email: 'not-an-address' }))).toEqual({ status: 400, error: 'Email is invalid.' });
    expect((await failure(t.client().post('/api/user/update/email', { email: 'x@example.org' }))).status).toBe(401);
    // Another account's address is refused (one account per address).
    await t.client().post('/api/user/add', { username: 'otherpaul', email: 'other.paul@example.org', password: 'correct-horse-1' });
    expect(await failure(api.post('/api/user/update/email', { email: 'Other.Paul@example.org' }))).toEqual({ status: 409, error: 'An account with this e-mail address already exists.' });
  });

  it('resets a password by a link that works once, ending every login', async () => {
    const old = t.client();
    await signup(old, 'quinn');
    const other = t.client();
    await other.post('/api/user/login', { username: 'quinn', password: 'correct-horse-1' });

    const ask = async (body: object) => {
      const response = await fetch(`${t.url}/api/user/reset-password`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return { status: response.status, body: await response.text() };
    };
    let match!: { status: number; body: string };
    const mails = await mailsDuring(async () => {
      match = await ask({ username: 'QUINN', email: 'Quinn@Example.org' });
    });
    const noMail = await mailsDuring(async () => {
      expect(await ask({ username: 'quinn', email: 'someone.else@example.org' })).toEqual(match);
      expect(await ask({ username: 'nobody', email: 'quinn@example.org' })).toEqual(match);
    });
    expect(noMail).toEqual([]);
    expect(match.status).toBe(200);
    expect(JSON.parse(match.body)).toEqual({
      success: true,
      message: 'If the username and e-mail address match an account, a password reset link is on its way.',
      code: 'user.resetSent',
      params: {},
    });

    expect(mails).toHaveLength(1);
    const mail = mails[0]!;
    expect(mail.to).toEqual(['quinn@example.org']);
    expect(mail.subject).toBe('Reset your shellchat password');
    footerLink(mail, t.url);
    const link = linkTo(mail, '/api/user/reset-password/confirm');
    expect(link.startsWith(`${t.url}/api/user/reset-password/confirm?token=`)).toBe(true);
    // Asking alone changes nothing.
    await old.get('/api/user/info');

    // Opening the link (a person, or a mail scanner before them) changes nothing either: the
    // page asks, with a button that posts the token back.
    for (let i = 0; i < 2; i++) {
      const page = await fetch(link);
      expect(page.status).toBe(200);
      expect(page.headers.get('cache-control')).toBe('no-store');
      const asking = await page.text();
      expect(asking).toContain('<h1>Reset your password</h1>');
      expect(asking).toContain('<form method="post" action="/api/user/reset-password/confirm">');
      expect(asking).not.toMatch(/<pre/);
      await old.get('/api/user/info');
    }
    await t.client().post('/api/user/login', { username: 'quinn', password: 'correct-horse-1' });

    const token = new URL(link).searchParams.get('token')!;
    const click = () =>
      fetch(`${t.url}/api/user/reset-password/confirm`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: t.url }, body: new URLSearchParams({ token }) });
    const page = await click();
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-store');
    const html = await page.text();
    const password = html.match(/<pre[^>]*>([A-Za-z0-9]{16})<\/pre>/)![1]!;
    secrets.push(password);

    expect((await failure(old.get('/api/user/info'))).status).toBe(401);
    expect((await failure(other.get('/api/user/info'))).status).toBe(401);
    expect(await failure(t.client().post('/api/user/login', { username: 'quinn', password: 'correct-horse-1' }))).toEqual({ status: 401, error: 'Incorrect username or password.' });
    const fresh = t.client();
    await fresh.post('/api/user/login', { username: 'quinn', password });
    expect((await info(fresh)).username).toBe('quinn');

    for (const again of [await fetch(link), await click()]) {
      expect(again.status).toBe(400);
      expect(again.headers.get('cache-control')).toBe('no-store');
      const againHtml = await again.text();
      expect(againHtml).toContain('This link is invalid, expired, or was already used.');
      expect(againHtml).not.toContain(password);
    }
    await fresh.get('/api/user/info');
  });

  it("writes in the reader's language: the account's saved one, else the browser's", async () => {
    // A sign-up that saved zh-CN as its language.
    await t.client().post('/api/user/add', { username: 'wei', email: 'wei@example.org', password: 'correct-horse-1', settings: JSON.stringify({ lang: 'zh-CN' }) });
    const [mail] = await mailsDuring(() =>
      fetch(`${t.url}/api/user/reset-password`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'wei', email: 'wei@example.org' }) }),
    );
    expect(mail!.subject).toBe('重置你的 shellchat 密码');
    footerLink(mail!, t.url);
    const link = linkTo(mail!, '/api/user/reset-password/confirm');
    const asking = await (await fetch(link, { headers: { 'accept-language': 'de-DE,de;q=0.9' } })).text();
    // The account's language wins over the browser's.
    expect(asking).toContain('<html lang="zh-CN" dir="ltr">');
    expect(asking).toContain('<h1>重置你的密码</h1>');
    expect(asking).toContain('设置新密码</button>');
    const html = await (
      await fetch(`${t.url}/api/user/reset-password/confirm`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': 'de-DE' },
        body: new URLSearchParams({ token: new URL(link).searchParams.get('token')! }),
      })
    ).text();
    expect(html).toContain('<html lang="zh-CN" dir="ltr">');
    expect(html).toContain('<h1>新密码</h1>');
    secrets.push(html.match(/<pre[^>]*>([A-Za-z0-9]{16})<\/pre>/)![1]!);
    // A used link knows no account any more: the browser's language (the first one the app
    // speaks), its direction too.
    const again = await (await fetch(link, { headers: { 'accept-language': 'zh-CN' } })).text();
    expect(again).toContain('此链接无效、已过期或已被使用。');
    const stranger = await (await fetch(`${t.url}/api/user/verify-email?token=nope`, { headers: { 'accept-language': 'xx-YY, de-AT;q=0.9, en;q=0.5' } })).text();
    expect(stranger).toContain('<html lang="de-DE" dir="ltr">');
    expect(stranger).toContain('<h1>Link abgelaufen</h1>');
    const arabic = await (await fetch(`${t.url}/api/user/verify-email?token=nope`, { headers: { 'accept-language': 'ar-EG' } })).text();
    expect(arabic).toContain('<html lang="ar-EG" dir="rtl">');
    expect(arabic).not.toContain('Link expired');
    // Nothing to go by: English.
    expect(await (await fetch(`${t.url}/api/user/verify-email?token=nope`)).text()).toContain('<html lang="en-US" dir="ltr">');
  });

  it('unsubscribes by the signed footer link; refuses forged links; lets the owner choose', async () => {
    const owner = t.client();
    const [mail] = await mailsDuring(() => owner.post('/api/user/add', { username: 'rosa', email: 'rosa@example.org' }));
    const password = mail!.text.match(/Your password: ([A-Za-z0-9]{16})\n/)![1]!;
    secrets.push(password);
    await owner.post('/api/user/login', { username: 'rosa', password });
    expect((await info(owner)).email_subscription).toBe(true);

    const link = footerLink(mail!, t.url);
    // Opened from a mail client: a browser asks for HTML and gets a page saying it is done.
    const browser = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
    const opened = await fetch(link, { headers: browser });
    expect(opened.status).toBe(200);
    expect(opened.headers.get('content-type')).toMatch(/^text\/html/);
    expect(opened.headers.get('vary')).toMatch(/accept/i);
    const page = await opened.text();
    expect(page).toContain('<h1>Unsubscribed</h1>');
    expect(page).toContain('rosa@example.org gets no more mail from shellchat.');
    expect((await info(owner)).email_subscription).toBe(false);
    // An API client gets the API's answer, as before.
    const followed = await fetch(link); // anonymous, Accept: */*
    expect(followed.status).toBe(200);
    expect(await followed.json()).toEqual({ success: true, message: 'Unsubscribed.', code: 'user.unsubscribed', params: {} });
    expect((await info(owner)).email_subscription).toBe(false);

    const base = `/api/user/update/email-subscription`;
    const url = (query: Record<string, string>) => `${base}?${new URLSearchParams(query)}`;
    const sig = new URL(link).searchParams.get('sig')!;
    const forged = [
      url({ email: 'rosa@example.org', email_subscription: '1' }),
      url({ email: 'rosa@example.org', email_subscription: '1', sig: 'A'.repeat(43) }),
      url({ email: 'rosa@example.org', email_subscription: '1', sig }), // signed for '0' only
      url({ email: 'olga@example.org', email_subscription: '0', sig }), // signed for another address
      url({ email: 'olga@example.org', email_subscription: '0' }),
    ];
    const stranger = t.client();
    await signup(stranger, 'sam');
    for (const path of forged) {
      expect((await fetch(`${t.url}${path}`)).status, `anonymous ${path}`).toBe(403);
      const refusedPage = await fetch(`${t.url}${path}`, { headers: browser });
      expect(refusedPage.status).toBe(403);
      expect(await refusedPage.text()).toContain('<h1>Invalid link</h1>');
      expect(await failure(stranger.get(path)), `another user ${path}`).toEqual({ status: 403, error: 'This link is invalid.' });
    }
    expect((await info(owner)).email_subscription).toBe(false);
    const olga = t.client();
    await olga.post('/api/user/login', { username: 'olga', password: 'correct-horse-1' });
    expect((await info(olga)).email_subscription).toBe(true);

    // The logged-in owner of the address needs no signature.
    expect((await owner.get(url({ email: 'rosa@example.org', email_subscription: '1' }))).message).toBe('Subscribed.');
    expect((await info(owner)).email_subscription).toBe(true);
    expect((await owner.get(url({ email: 'rosa@example.org', email_subscription: '0' }))).message).toBe('Unsubscribed.');
    expect((await info(owner)).email_subscription).toBe(false);
    // ... and their own address only.
    expect(await failure(owner.get(url({ email: 'sam@example.org', email_subscription: '0' })))).toEqual({ status: 403, error: 'This link is invalid.' });
    expect((await info(stranger)).email_subscription).toBe(true);
  });

  it('puts no mail body, token, signature or password in the log', () => {
    const log = t.logs();
    expect(log).toContain('"msg":"password reset"');
    expect(secrets.length).toBeGreaterThan(10);
    for (const secret of secrets) expect(log, 'a secret reached the log').not.toContain(secret);
    expect(log).not.toMatch(/token=|sig=|Your password/);
  });
});

describe('e-mail without SMTP_URL', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer('sqlite');
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('refuses e-mail changes and password resets with 503', async () => {
    const api = t.client();
    await api.post('/api/user/add', { username: 'tara', email: 'tara@example.org', password: 'correct-horse-1' });
    await api.post('/api/user/login', { username: 'tara', password: 'correct-horse-1' });
    const notConfigured = { status: 503, error: 'E-mail is not configured on this server.' };
    expect(await failure(api.post('/api/user/update/email', { email: 'tara.new@example.org' }))).toEqual(notConfigured);
    expect(await failure(api.post('/api/user/reset-password', { username: 'tara', email: 'tara@example.org' }))).toEqual(notConfigured);
    expect(await failure(t.client().post('/api/user/reset-password', { username: 'nobody', email: 'x@example.org' }))).toEqual(notConfigured);
    expect((await api.get<PublicUser>('/api/user/info')).result!.email).toBe('tara@example.org');
  });

  it('shows a generated sign-up password once, in the answer', async () => {
    const api = t.client();
    const added = await api.post<{ password: string }>('/api/user/add', { username: 'uma', email: 'uma@example.org' });
    const password = added.result!.password;
    expect(password).toMatch(/^[A-Za-z0-9]{16}$/);
    expect(added.message).toBe(`User uma added. Your password is ${password}. It is shown only once.`);
    await api.post('/api/user/login', { username: 'uma', password });
    expect(JSON.stringify(await api.get('/api/user/info'))).not.toContain(password);
    expect(t.logs()).not.toContain(password);
  });
});
