// The links in e-mails, opened in Chromium (issue 34 item 10, issue 33). A mail scanner opens
// a password-reset link before the person does: that must use nothing up, so the link opens a
// page whose button resets (a POST, which the app's origin check lets through from its own
// page). The unsubscribe link opens a page that says it is done, not the API's JSON.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { footerLink, linkTo, startSmtp } from '../server/smtp.ts';
import { HAS_CHROME, launchBrowser, startServer, type RunningServer } from '../e2e/support.ts';
import type { Browser } from 'playwright-core';

// Skipped only where Chromium is missing, never under CI=true (support.ts refuses to start then).
describe.skipIf(!HAS_CHROME)('e-mail links in a browser', () => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let server: RunningServer;
  let browser: Browser;
  beforeAll(async () => {
    smtp = await startSmtp();
    [server, browser] = await Promise.all([startServer({ SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, ROOT_PASSWORD: 'root-password-1' }), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await smtp?.close();
  });

  const post = (path: string, body: unknown) => fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const canLogin = async (password: string) => (await post('/api/user/login', { username: 'quinn', password })).status === 200;
  /** The next mail to arrive. */
  const nextMail = async (before: number) => {
    await expect.poll(() => smtp.inbox.length, { timeout: 10_000 }).toBeGreaterThan(before);
    return smtp.inbox[before]!;
  };

  it('a reset link opened in advance (a mail scanner) changes nothing; the button on its page resets', async () => {
    expect((await post('/api/user/add', { username: 'quinn', email: 'quinn@example.org', password: 'correct-horse-1' })).status).toBe(200);
    const before = smtp.inbox.length;
    expect((await post('/api/user/reset-password', { username: 'quinn', email: 'quinn@example.org' })).status).toBe(200);
    const link = linkTo(await nextMail(before), '/api/user/reset-password/confirm');

    // The scanner fetches the link, as a browser would.
    const scanned = await fetch(link, { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    expect(scanned.status).toBe(200);
    expect(await canLogin('correct-horse-1')).toBe(true);

    // The person opens it: a page with a button; still nothing changed.
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(link);
    expect(await page.locator('h1').textContent()).toBe('Reset your password');
    expect(await canLogin('correct-horse-1')).toBe(true);
    await page.getByRole('button', { name: 'Set a new password' }).click();
    await page.waitForURL(`${server.url}/api/user/reset-password/confirm`);
    expect(await page.locator('h1').textContent()).toBe('New password');
    const password = (await page.locator('pre').textContent()) ?? '';
    expect(password).toMatch(/^[A-Za-z0-9]{16}$/);
    expect(await canLogin(password)).toBe(true);
    expect(await canLogin('correct-horse-1')).toBe(false);

    // The link is used up now.
    await page.goto(link);
    expect(await page.locator('body').textContent()).toContain('This link is invalid, expired, or was already used.');
    await context.close();
  }, 60_000);

  it('the unsubscribe link of a mail opens a page saying it is done', async () => {
    const before = smtp.inbox.length;
    expect((await post('/api/user/add', { username: 'rosa', email: 'rosa@example.org' })).status).toBe(200);
    const mail = await nextMail(before);
    const link = footerLink(mail, server.url);
    const context = await browser.newContext();
    const page = await context.newPage();
    const response = await page.goto(link);
    expect(response!.headers()['content-type']).toMatch(/^text\/html/);
    expect(await page.locator('h1').textContent()).toBe('Unsubscribed');
    expect(await page.locator('body').textContent()).toContain('rosa@example.org gets no more mail from shellchat.');
    expect(await page.locator('body').textContent()).not.toContain('"success"');
    // Done for real: the account says so.
    const password = mail.text.match(/Your password: ([A-Za-z0-9]{16})\n/)![1]!;
    const login = await post('/api/user/login', { username: 'rosa', password });
    const cookie = login.headers.getSetCookie().find((c) => c.startsWith('auth='))!.split(';')[0]!;
    const info = (await (await fetch(`${server.url}/api/user/info`, { headers: { cookie } })).json()) as { result: { email_subscription: boolean } };
    expect(info.result.email_subscription).toBe(false);
    await context.close();
  }, 60_000);
});
