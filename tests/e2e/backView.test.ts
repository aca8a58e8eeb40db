// The back view: toggle, navigation by system-info flags, documentation, settings, privacy.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { HAS_CHROME, launchBrowser, openApp, run, startServer, type RunningServer } from './support.ts';

describe.skipIf(!HAS_CHROME)('back view', () => {
  let server: RunningServer;
  let paid: RunningServer;
  let browser: Browser;
  beforeAll(async () => {
    [server, paid, browser] = await Promise.all([
      startServer(),
      startServer({ USE_PAYMENT: 'true', USE_SUBSCRIPTIONS: 'true', CONTACT_EMAIL: 'privacy@example.org' }),
      launchBrowser(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await Promise.all([server?.stop(), paid?.stop()]);
  });

  it('toggles with the dot and the cross, and Esc returns to the front', async () => {
    const { page, context } = await openApp(browser, server.url);
    const toggle = page.getByTestId('view-toggle');
    expect(await toggle.getAttribute('data-state')).toBe('dot');
    await toggle.click();
    await page.getByTestId('page-documentation').waitFor();
    expect(await toggle.getAttribute('data-state')).toBe('cross');
    await page.keyboard.press('Escape');
    await page.getByTestId('input').waitFor();
    expect(await toggle.getAttribute('data-state')).toBe('dot');
    await toggle.click();
    await toggle.click();
    await page.getByTestId('input').waitFor();
    await context.close();
  });

  it('shows Usage and Subscriptions only when system info enables them', async () => {
    const plain = await openApp(browser, server.url);
    await plain.page.getByTestId('view-toggle').click();
    await plain.page.getByTestId('nav-documentation').waitFor();
    for (const id of ['nav-documentation', 'nav-settings', 'nav-privacy']) expect(await plain.page.getByTestId(id).count()).toBe(1);
    for (const id of ['nav-usage', 'nav-subscriptions']) expect(await plain.page.getByTestId(id).count()).toBe(0);
    await plain.context.close();

    const withPayment = await openApp(browser, paid.url);
    await withPayment.page.waitForTimeout(300); // system info arrives after the first paint
    await withPayment.page.getByTestId('view-toggle').click();
    await withPayment.page.getByTestId('nav-usage').click();
    expect(await withPayment.page.getByTestId('page-usage').textContent()).toContain(
      'User information not found. Please login with command :login <username> <password>.',
    );
    await withPayment.page.getByTestId('nav-subscriptions').click();
    await withPayment.page.getByTestId('page-subscriptions').waitFor();
    await withPayment.page.getByTestId('nav-privacy').click();
    expect(await withPayment.page.locator('[data-testid=page-privacy] a[href^="mailto:"]').getAttribute('href')).toBe('mailto:privacy@example.org');
    await withPayment.context.close();
  });

  it('documentation: contents, 9 steps, 10 features, every command, shortcuts, API, FAQs, feedback', async () => {
    const { page, context } = await openApp(browser, server.url);
    await page.getByTestId('view-toggle').click();
    const docs = page.getByTestId('page-documentation');
    await docs.waitFor();
    const anchors = await docs.locator('nav.toc a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(anchors).toEqual(['#introduction', '#quick-start', '#features', '#commands', '#functions', '#shortcuts', '#api', '#faqs', '#feedback']);
    for (const anchor of anchors) expect(await docs.locator(anchor!).count(), anchor!).toBe(1);
    expect(await docs.locator('ol.quick-start li').count()).toBe(9);
    expect(await docs.locator('ol.features li').count()).toBe(10);
    expect(await docs.locator('ul.more-features li').count()).toBeGreaterThan(0);
    await page.waitForFunction(() => document.querySelectorAll('table.commands tr').length > 10);
    const usages = await docs.locator('table.commands code').allTextContents();
    for (const usage of [':help [<command>...]', ':lang use <code>', ':stats {on|off}', ':voice use "<name>"', ':info', ':set <key> <value>...']) {
      expect(usages).toContain(usage);
    }
    expect(await docs.locator('table.shortcuts kbd').allTextContents()).toEqual(
      expect.arrayContaining(['Ctrl+C', 'Ctrl+R', 'Ctrl+Shift+R', 'F11', 'Ctrl+|', 'Esc', 'Ctrl+,']),
    );
    expect(await docs.locator('table.gestures tbody tr').count()).toBe(4);
    expect(await docs.locator('table.api code').allTextContents()).toContain('/api/system/info');
    expect(await docs.locator('dl.faqs dt').count()).toBe(2);
    expect(await docs.locator('ul.feedback a').count()).toBe(3);
    expect(await docs.locator('ul.feedback a[href^="mailto:"]').count()).toBe(1);

    // Anchors scroll, and the hash is cleared.
    await docs.locator('nav.toc a[href="#faqs"]').click();
    await page.waitForFunction(() => location.hash === '');
    expect(await page.evaluate(() => location.hash)).toBe('');
    await context.close();
  });

  it("settings: theme and language pickers, 'Settings updated.' with a time", async () => {
    const { page, context } = await openApp(browser, server.url);
    await page.keyboard.press('Control+,');
    const settings = page.getByTestId('page-settings');
    await settings.waitFor();
    expect(await settings.locator('button[data-setting=lang]').count()).toBe(28);
    await settings.locator('button[data-setting=theme][data-value=dark]').click();
    expect(await page.locator('.shell').getAttribute('data-theme')).toBe('dark');
    expect(await settings.locator('.settings-updated').textContent()).toMatch(/^Settings updated\. .+/);
    expect(await settings.locator('.settings-updated time').getAttribute('datetime')).toMatch(/^\d{4}-\d\d-\d\dT/);
    await settings.locator('button[data-setting=lang][data-value=zh-CN]').click();
    await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
    // The zh-CN strings load after the switch.
    await expect.poll(() => page.getByTestId('nav-settings').textContent()).not.toBe('Settings');
    await settings.locator('button[data-setting=lang][data-value=ar-SA]').click();
    await page.waitForFunction(() => document.documentElement.dir === 'rtl');
    await settings.locator('button[data-setting=lang][data-value=en-US]').click();
    await page.waitForFunction(() => document.documentElement.dir === 'ltr');
    await expect.poll(() => page.getByTestId('nav-settings').textContent()).toBe('Settings');
    await context.close();
  });

  it('privacy policy: the four points and a mail link', async () => {
    const { page, context } = await openApp(browser, server.url);
    await page.getByTestId('view-toggle').click();
    await page.getByTestId('nav-privacy').click();
    const privacy = page.getByTestId('page-privacy');
    expect(await privacy.locator('li').count()).toBe(4);
    const text = await privacy.textContent();
    expect(text).toContain('e-mail address');
    expect(text).toContain('not sold');
    expect(text).toContain('Deleting your account removes your data.');
    expect(await privacy.locator('a[href^="mailto:"]').count()).toBe(1);
    await context.close();
  });
});
