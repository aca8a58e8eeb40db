// Accounts in the browser: sign-up, login with a masked password, the account table, settings
// that follow the user to another browser, logout, and the operator's welcome message.
import { afterAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { cookieFetch } from '../harness/shellTester.ts';
import { HAS_CHROME, openApp, run, useServerAndBrowser } from './support.ts';

const PASSWORD = 'hunter2hunter2';
const WELCOME = '<b>hi</b>';

const theme = (page: Page) => page.locator('.shell').getAttribute('data-theme');
const welcome = (page: Page) => page.locator('.welcome');

/** Everything the page keeps in localStorage and sessionStorage, as text. */
const storage = (page: Page) =>
  page.evaluate(() =>
    JSON.stringify([localStorage, sessionStorage].map((s) => Object.fromEntries(Object.keys(s).map((k) => [k, s.getItem(k)])))),
  );

describe.skipIf(!HAS_CHROME)('user accounts in the browser', () => {
  const app = useServerAndBrowser({ ROOT_PASSWORD: 'root-password-1', WELCOME_MESSAGE: WELCOME });
  const contexts: BrowserContext[] = [];
  // Registered after useServerAndBrowser, so it runs before the browser and server stop.
  afterAll(async () => {
    await Promise.all(contexts.splice(0).map((c) => c.close().catch(() => undefined)));
  });
  const open = async () => {
    const opened = await openApp(app.browser, app.server.url);
    contexts.push(opened.context);
    return opened;
  };

  /** The user's theme on the server, as another browser sees it. */
  async function serverTheme(): Promise<unknown> {
    const jar = cookieFetch();
    const post = (path: string, body: unknown) =>
      jar(`${app.server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect((await post('/api/user/login', { username: 'ada', password: PASSWORD })).ok).toBe(true);
    const info = (await (await jar(`${app.server.url}/api/user/info`)).json()) as { result: { settings: { theme: string } } };
    await post('/api/user/logout', {});
    return info.result.settings.theme;
  }

  it('shows the welcome message as plain text to anonymous visitors before their first command', async () => {
    const { page, errors } = await open();
    await expect.poll(() => welcome(page).count()).toBe(1);
    expect(await welcome(page).textContent()).toBe(WELCOME);
    expect(await welcome(page).locator('b').count()).toBe(0);
    await run(page, ':theme');
    expect(await welcome(page).count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('signs up, logs in with a masked password, syncs the theme to a second browser, logs out', async () => {
    const first = await open();
    const page = first.page;
    expect(await run(page, `:user add ada ada@example.org ${PASSWORD}`)).toBe('User ada added.Log in with :login ada <password>.');

    // While typing, the password is drawn as asterisks over the real value.
    const input = page.getByTestId('input');
    const mask = page.getByTestId('input-mask');
    await input.fill('');
    await input.pressSequentially(':login ada hunter2');
    await expect.poll(() => mask.textContent()).toBe(':login ada *******');
    await input.pressSequentially('hunter2');
    await expect.poll(() => mask.textContent()).toBe(`:login ada ${'*'.repeat(PASSWORD.length)}`);
    expect(await input.inputValue()).toBe(`:login ada ${PASSWORD}`);
    expect(await mask.textContent()).not.toContain('hunter2');

    expect(await run(page, `:login ada ${PASSWORD}`)).toBe('Logged in as ada.');
    expect(await mask.count()).toBe(0);
    expect(await storage(page)).not.toContain(PASSWORD);
    expect(await input.getAttribute('placeholder')).not.toContain(PASSWORD);
    expect(await page.evaluate(() => document.cookie)).not.toContain('auth='); // HttpOnly

    const account = await run(page, ':user');
    expect(account).toContain('ada@example.org');
    expect(account).toContain('Username');
    expect(account).not.toContain('Please login.');

    expect(await theme(page)).toBe('light');
    await run(page, ':theme dark');
    expect(await theme(page)).toBe('dark');
    await expect.poll(serverTheme, { timeout: 5000 }).toBe('dark');

    // A second browser with fresh storage gets the theme when it logs in as ada.
    const second = await open();
    expect(await theme(second.page)).toBe('light');
    expect(await run(second.page, `:login ada ${PASSWORD} --save`)).toBe('Logged in as ada.');
    await expect.poll(() => theme(second.page)).toBe('dark');
    expect(await welcome(second.page).count()).toBe(0);

    expect(await run(page, ':logout')).toBe('Logged out.');
    expect(await run(page, ':user')).toBe('Please login.');
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem('shellchat:device') ?? '{}').user ?? '')).toBe('');
    // The other browser keeps its own login.
    expect(await run(second.page, ':user')).toContain('ada@example.org');
    expect(await storage(second.page)).not.toContain(PASSWORD);
    expect([...first.errors, ...second.errors]).toEqual([]);
  });

  it('does not show the welcome message once logged in, even after a reload', async () => {
    const { page } = await open();
    expect(await run(page, `:login ada ${PASSWORD}`)).toBe('Logged in as ada.');
    await page.keyboard.press('Control+r');
    expect(await page.getByTestId('output').textContent()).toBe('');
    expect(await welcome(page).count()).toBe(0);
    // The message comes with the system info: wait for it, then give React a moment.
    const info = page.waitForResponse((r) => r.url().endsWith('/api/system/info'));
    await page.reload();
    await info;
    await page.getByTestId('input').waitFor();
    await page.waitForTimeout(300);
    expect(await welcome(page).count()).toBe(0);
    expect(await run(page, ':user')).toContain('ada@example.org');
  });
});
