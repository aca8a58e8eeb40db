// The Subscriptions page in Chromium (spec parts 2, 4, 8, 9) against the fake PayPal: its REST
// API for the server, and its JS SDK, whose button calls createOrder and onApprove as PayPal's
// does. Buy the plus plan, extend it, upgrade, schedule a downgrade, top up $5 (the balance
// +$5.00, $5.52 paid); the page stays true after each payment, a declined one included, and
// its controls stay for the next; what is owed shows beside the balance; root sees no
// controls; a visitor sees the spec's message.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator } from 'playwright-core';
import { formatRoleExpiry } from '../../src/core/roles.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fakeOpenAI.ts';
import { paypalEnv, startFakePaypal, type FakePaypal } from '../fixtures/fakePaypal.ts';
import { HAS_CHROME, launchBrowser, openApp, run, startServer, type RunningServer } from './support.ts';

// Skipped only where Chromium is missing, never under CI=true (support.ts refuses to start then).
describe.skipIf(!HAS_CHROME)('the Subscriptions page', () => {
  let fake: FakePaypal;
  let model: FakeOpenAI;
  let server: RunningServer;
  let browser: Browser;
  beforeAll(async () => {
    [fake, model] = await Promise.all([startFakePaypal(), startFakeOpenAI({ models: ['gpt-demo'] })]);
    [server, browser] = await Promise.all([
      startServer({
        ...paypalEnv(fake),
        // A model whose 1,000 input tokens cost $0.09.
        MODEL: 'gpt-demo',
        OPENAI_BASE_URL: model.url,
        OPENAI_API_KEY: 'sk-test',
        MODEL_PRICE_INPUT: '0.00009',
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
    await model?.close();
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
    await expect.poll(() => shown.getByTestId('not-logged-in').textContent()).toBe('User information not found. Please login with command :login <username> <password>.');
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
    expect(await run(page, ':subscription')).toMatch(/Plan: super_user, until \d\d\/\d\d\/\d{4}\.\s*Then plus_user from \d\d\/\d\d\/\d{4}\.\s*Balance: \$\d+\.\d\d, fees so far: \$0\.00, left: \$\d+\.\d\d\./);

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

  it('stays true after each payment: a plan, an upgrade, a top-up and a declined one, with the controls there for the next', async () => {
    const { page, context, errors } = await openApp(browser, server.url);
    await run(page, ':user add quinn quinn@example.org quinn-password-1');
    await run(page, ':login quinn quinn-password-1');
    await page.getByTestId('view-toggle').click();
    await page.getByTestId('nav-subscriptions').click();
    const shown = page.getByTestId('page-subscriptions');
    const text = async (where: Locator = shown) => (await where.textContent()) ?? '';
    const heading = (box: string) => text(shown.getByTestId(box).locator('h2'));
    /** Pays in the box with PayPal's button and waits for the server's words (they differ from the last ones). */
    const payIn = async (box: string) => {
      const before = await text(shown.getByTestId('purchase-result'));
      await shown.getByTestId(box).getByTestId('paypal-button').click();
      await expect.poll(() => text(shown.getByTestId('purchase-result')), { timeout: 15_000 }).not.toBe(before);
      return text(shown.getByTestId('purchase-result'));
    };
    await expect.poll(() => text(shown.getByTestId('standing'))).toBe('Your plan: user, until Unlimited.');
    expect(await text(shown.getByTestId('money'))).toBe('Balance: $0.00, fees so far: $0.00, left: $0.00.');

    // A plan: the standing says it, and the box to buy it now extends it.
    const bought = await payIn('purchase-plan-plus_user');
    const until = /^You are on the plus_user plan until (\d\d\/\d\d\/\d{4})\.$/.exec(bought)?.[1];
    expect(until, bought).toBeDefined();
    expect(await text(shown.getByTestId('standing'))).toBe(`Your plan: plus_user, until ${until}.`);
    expect(await text()).not.toContain('Your plan: user');
    expect(await heading('purchase-plan-plus_user')).toBe('Extend plus_user by a month');
    expect(await heading('purchase-plan-super_user')).toBe('Upgrade to super_user');

    // An upgrade: the old plan and its Extend are gone, the unused part is in the balance.
    const upgraded = await payIn('purchase-plan-super_user');
    const credit = /^You are on the super_user plan until (\d\d\/\d\d\/\d{4}); \$(\d+\.\d\d) for the unused part of your previous plan went to your balance\.$/.exec(upgraded);
    expect(credit, upgraded).not.toBeNull();
    expect(await text(shown.getByTestId('standing'))).toBe(`Your plan: super_user, until ${credit![1]}.`);
    expect(await text()).not.toContain('Extend plus_user');
    expect(await text()).not.toContain('plus_user, until');
    expect(await heading('purchase-plan-plus_user')).toBe('Change to plus_user when your plan ends');
    expect(await heading('purchase-plan-super_user')).toBe('Extend super_user by a month');
    const balance = Number(credit![2]);
    expect(await text(shown.getByTestId('money'))).toBe(`Balance: $${balance.toFixed(2)}, fees so far: $0.00, left: $${balance.toFixed(2)}.`);

    // A top-up of $10: one balance on the page, the new one, and the form still there.
    await shown.getByTestId('topup-10').check();
    expect(await text(shown.getByTestId('topup-fee'))).toBe('$10.00 plus a banking fee of $0.74: you pay $10.74.');
    expect(await payIn('purchase-topup')).toBe(`$10.00 added: your balance is $${(balance + 10).toFixed(2)}.`);
    expect(await text(shown.getByTestId('money'))).toBe(`Balance: $${(balance + 10).toFixed(2)}, fees so far: $0.00, left: $${(balance + 10).toFixed(2)}.`);
    expect((await text()).match(/Balance: /g)).toHaveLength(1);
    expect(await shown.getByTestId('purchase-topup').getByTestId('paypal-button').count()).toBe(1);
    expect(await shown.getByTestId('topup-10').isChecked()).toBe(true);

    // PayPal declines the card: said so, nothing credited, named in the standing, and the form is there to try again.
    fake.nextCaptures('declinedCapture');
    expect(await payIn('purchase-topup')).toBe('PayPal declined the payment: nothing was charged or credited. Try again with another card or account.');
    expect(await shown.getByTestId('purchase-result').getAttribute('class')).toBe('error');
    expect(await text(shown.getByTestId('money'))).toBe(`Balance: $${(balance + 10).toFixed(2)}, fees so far: $0.00, left: $${(balance + 10).toFixed(2)}.`);
    expect(await text(shown.getByTestId('declined'))).toBe(`PayPal declined your payment of $10.74 on ${formatRoleExpiry(Date.now())}: nothing was charged or credited.`);
    expect(await text(shown.getByTestId('topup-fee'))).toBe('$10.00 plus a banking fee of $0.74: you pay $10.74.');
    expect(await payIn('purchase-topup')).toBe(`$10.00 added: your balance is $${(balance + 20).toFixed(2)}.`);
    expect(await text(shown.getByTestId('money'))).toBe(`Balance: $${(balance + 20).toFixed(2)}, fees so far: $0.00, left: $${(balance + 20).toFixed(2)}.`);

    // The free plan is not bought: the command says so instead of opening the page.
    await page.getByTestId('view-toggle').click();
    const said = await run(page, ':subscription buy user');
    expect(said).toContain('The free plan is not bought: a paid plan turns back into it when it ends.');
    expect(said).not.toContain('Pay for user on the Subscriptions page.');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows what is owed beside the balance once fees pass it, and what is left after a top-up', async () => {
    const { page, context, errors } = await openApp(browser, server.url);
    await run(page, ':user add owen owen@example.org owen-password-1');
    await run(page, ':login owen owen-password-1');
    model.reply({ text: 'first answer', usage: { prompt_tokens: 1000, completion_tokens: 0 } });
    expect(await run(page, 'one')).toContain('first answer');
    const asked = model.requests.length;
    expect(await run(page, 'two')).toContain('Your fees ($0.09) are more than your balance ($0.00). Top up with :subscription topup 5, or on the Subscriptions page.');
    expect(model.requests.length).toBe(asked);
    expect(await run(page, ':subscription')).toContain('Balance: $0.00, fees so far: $0.09: you owe $0.09. Top up with :subscription topup 5, or on the Subscriptions page.');

    await page.getByTestId('input').fill(':subscription topup 1');
    await page.getByTestId('submit').click();
    const shown = page.getByTestId('page-subscriptions');
    await expect.poll(() => shown.getByTestId('money').textContent()).toBe('Balance: $0.00, fees so far: $0.09: you owe $0.09. Top up with :subscription topup 5, or on the Subscriptions page.');
    await shown.getByTestId('purchase-topup').getByTestId('paypal-button').click();
    await expect.poll(() => shown.getByTestId('purchase-result').textContent()).toBe('$1.00 added: your balance is $1.00.');
    expect(await shown.getByTestId('money').textContent()).toBe('Balance: $1.00, fees so far: $0.09, left: $0.91.');
    await page.getByTestId('view-toggle').click();
    expect(await run(page, ':subscription')).toContain('Balance: $1.00, fees so far: $0.09, left: $0.91.');
    model.reply({ text: 'second answer' });
    expect(await run(page, 'two again')).toContain('second answer');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows root their role and no purchase controls', async () => {
    const { page, context } = await openApp(browser, server.url);
    await run(page, ':login root root-password-1');
    await page.getByTestId('view-toggle').click();
    await page.getByTestId('nav-subscriptions').click();
    const shown = page.getByTestId('page-subscriptions');
    await expect.poll(() => shown.getByTestId('root').textContent()).toBe('You are the root_user.');
    expect(await shown.textContent()).not.toContain('`');
    expect(await shown.getByTestId('paypal-button').count()).toBe(0);
    expect(await shown.locator('.purchase').count()).toBe(0);
    await context.close();
  });
});
