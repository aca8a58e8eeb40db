// The Subscriptions page in Chromium (spec parts 2, 4, 8, 9) against the fake PayPal: its REST
// API for the server, and its JS SDK, whose button calls createOrder and onApprove as PayPal's
// does. Buy the plus plan, extend it, upgrade, schedule a downgrade, top up $5 (the balance
// +$5.00, $5.52 paid); root sees no controls; a visitor sees the spec's message.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { paypalEnv, startFakePaypal, type FakePaypal } from '../fixtures/fakePaypal.ts';
import { HAS_CHROME, launchBrowser, openApp, run, startServer, type RunningServer } from './support.ts';

// Skipped only where Chromium is missing, never under CI=true (support.ts refuses to start then).
describe.skipIf(!HAS_CHROME)('the Subscriptions page', () => {
  let fake: FakePaypal;
  let server: RunningServer;
  let browser: Browser;
  beforeAll(async () => {
    fake = await startFakePaypal();
    [server, browser] = await Promise.all([
      startServer({
        ...paypalEnv(fake),
        PLANS: JSON.stringify([{ role: 'user', price: '0' }, { role: 'plus_user', price: '6.00' }, { role: 'super_user', price: '30.00' }]),
        ROOT_PASSWORD: 'root-password-1',
      }),
      launchBrowser(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await fake?.close();
  });

  it('lists the plans for a visitor, with the spec’s message instead of purchase controls', async () => {
    const { page, context, errors } = await openApp(browser, server.url);
    await page.getByTestId('view-toggle').click();
    await page.getByTestId('nav-subscriptions').click();
    const shown = page.getByTestId('page-subscriptions');
    await expect.poll(() => shown.getByTestId('plans').textContent()).toContain('plus_user');
    expect(await shown.getByTestId('plans').textContent()).toContain('Free');
    expect(await shown.getByTestId('plans').textContent()).toContain('$6.00 per month');
    expect(await shown.textContent()).toContain('The plus plan adds support for MCP, roles, data stores, nodes and CLI.');
    expect(await shown.textContent()).toContain('$1 of tokens is roughly 385,000 English words of input or 96,000 of output.');
    await expect.poll(() => shown.getByTestId('not-logged-in').textContent()).toBe('User information not found. Please login with command `:login [username] [password]`.');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('buys plus, extends it, upgrades, schedules a downgrade and tops up $5, each with PayPal’s button', async () => {
    const { page, context, errors } = await openApp(browser, server.url);
    await run(page, ':user add pia pia@example.org pia-password-1');
    await run(page, ':login pia pia-password-1');
    // The command opens the back view at the page (the output it wrote stays on the front).
    const open = async (line: string) => {
      await page.getByTestId('input').fill(line);
      await page.getByTestId('submit').click();
      const shown = page.getByTestId('page-subscriptions');
      await expect.poll(() => shown.getByTestId('standing').count()).toBe(1);
      return shown;
    };
    const buy = async (line: string, box: string) => {
      const shown = await open(line);
      await shown.getByTestId(box).getByTestId('paypal-button').click();
      await expect.poll(() => shown.getByTestId('purchase-result').textContent()).not.toBe('');
      const said = await shown.getByTestId('purchase-result').textContent();
      await page.getByTestId('view-toggle').click();
      return said;
    };
    expect(await buy(':subscription buy plus_user', 'purchase-plan-plus_user')).toMatch(/^You are on the plus_user plan until \d\d\/\d\d\/\d{4}\.$/);
    expect(await buy(':subscription buy plus_user', 'purchase-plan-plus_user')).toMatch(/^Your plus_user plan now runs until \d\d\/\d\d\/\d{4}\.$/);
    expect(await buy(':subscription buy super_user', 'purchase-plan-super_user')).toMatch(/^You are on the super_user plan until \d\d\/\d\d\/\d{4}; \$\d+\.\d\d for the unused part of your previous plan went to your balance\.$/);
    expect(await buy(':subscription buy plus_user', 'purchase-plan-plus_user')).toMatch(/^Your plus_user plan starts on \d\d\/\d\d\/\d{4}, when your current plan ends, and runs until \d\d\/\d\d\/\d{4}\.$/);
    expect(await run(page, ':subscription')).toMatch(/Plan: super_user, until \d\d\/\d\d\/\d{4}\. Balance: \$\d+\.\d\d\.\s*Then plus_user from \d\d\/\d\d\/\d{4}\./);

    const before = Number(/Balance: \$(\d+\.\d\d)/.exec(await run(page, ':subscription'))![1]);
    const shown = await open(':subscription topup 5');
    expect(await shown.getByTestId('topup-fee').textContent()).toBe('$5.00 plus a banking fee of $0.52: you pay $5.52.');
    await shown.getByTestId('purchase-topup').getByTestId('paypal-button').click();
    await expect.poll(() => shown.getByTestId('purchase-result').textContent()).toBe(`$5.00 added: your balance is $${(before + 5).toFixed(2)}.`);
    const paid = [...fake.orders.values()].at(-1)!;
    expect(paid.purchase_units[0]!.amount).toEqual({ currency_code: 'USD', value: '5.52' });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows root their role and no purchase controls', async () => {
    const { page, context } = await openApp(browser, server.url);
    await run(page, ':login root root-password-1');
    await page.getByTestId('view-toggle').click();
    await page.getByTestId('nav-subscriptions').click();
    const shown = page.getByTestId('page-subscriptions');
    await expect.poll(() => shown.getByTestId('root').textContent()).toBe('You are the `root_user`.');
    expect(await shown.getByTestId('paypal-button').count()).toBe(0);
    expect(await shown.locator('.purchase').count()).toBe(0);
    await context.close();
  });
});
