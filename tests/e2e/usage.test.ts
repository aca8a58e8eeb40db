// The Usage page in Chromium (spec part 2): shown when system info enables payment; the spec's
// message without a login; questions this month, each limit with a progress bar, and 'The
// usage limitation has been reached.' once a limit is; the next question is refused in words,
// which say what one can do next (issue 33): when to ask again, and a visitor how to sign up.
import { describe, expect, it } from 'vitest';
import { HAS_CHROME, openApp, run, useAppWithFakeProvider } from './support.ts';

// Skipped only where Chromium is missing, never under CI=true (support.ts refuses to start then).
describe.skipIf(!HAS_CHROME)('the Usage page', () => {
  const app = useAppWithFakeProvider((url) => ({ MODEL: 'gpt-demo', OPENAI_BASE_URL: url, OPENAI_API_KEY: 'sk-test', USE_PAYMENT: 'true', USAGE_LIMITS: 'user:2,10,-;anonymous:1,-,-', VISITORS_PER_ADDRESS: '10', ROOT_PASSWORD: 'root-password-1' }));

  it('shows the uses against each limit, says when one is reached, and the next question is refused', async () => {
    const { page, context, errors } = await openApp(app.browser, app.server.url);
    await page.getByTestId('view-toggle').click();
    await page.getByTestId('nav-usage').click();
    expect(await page.getByTestId('page-usage').textContent()).toContain('User information not found. Please login with command :login <username> <password>.');
    await page.getByTestId('view-toggle').click();

    await run(page, ':user add ulla ulla@example.org ulla-password-1');
    await run(page, ':login ulla ulla-password-1');
    for (const q of ['one', 'two']) {
      app.fake.reply({ text: `answer ${q}`, usage: { prompt_tokens: 1000, completion_tokens: 200 } });
      expect(await run(page, q)).toContain(`answer ${q}`);
    }
    await page.getByTestId('view-toggle').click();
    await page.getByTestId('nav-usage').click();
    const usage = page.getByTestId('page-usage');
    await expect.poll(() => usage.getByTestId('usage-this-month').textContent()).toBe('2');
    expect(await usage.getByTestId('usage-exceeded').textContent()).toBe('The usage limitation has been reached.');
    // Fees against the balance (this server gives no trial balance).
    expect(await usage.getByTestId('usage-balance').textContent()).toMatch(/^Fees so far: \$\d+\.\d+, against a balance of \$0\.00\.$/);
    expect(await usage.getByTestId('usage-daily').textContent()).toContain('2 of 2');
    expect(await usage.locator('[data-testid=usage-daily] progress').evaluate((p: HTMLProgressElement) => [p.value, p.max])).toEqual([2, 2]);
    expect(await usage.locator('[data-testid=usage-weekly] progress').evaluate((p: HTMLProgressElement) => [p.value, p.max])).toEqual([2, 10]);
    expect(await usage.getByTestId('usage-monthly').textContent()).toContain('2 (no limit)');
    expect(await usage.locator('[data-testid=usage-monthly] progress').count()).toBe(0);
    expect(await usage.getByTestId('usage-models').textContent()).toContain('gpt-demo');
    expect(await usage.getByTestId('usage-models').textContent()).toContain('2,000 in, 400 out');

    await page.getByTestId('view-toggle').click();
    const asked = app.fake.requests.length;
    expect(await run(page, 'three')).toBe('The usage limitation has been reached. You can ask again in 24 hours.');
    expect(app.fake.requests.length).toBe(asked);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('tells a visitor over the limit how to sign up or log in, or when to ask again, in the interface’s language', async () => {
    const { page, context, errors } = await openApp(app.browser, app.server.url);
    app.fake.reply({ text: 'first answer' });
    expect(await run(page, 'first')).toContain('first answer');
    const asked = app.fake.requests.length;
    expect(await run(page, 'second')).toBe(
      'The usage limitation has been reached. Sign up with :user add <username> <email> [<password>] or log in with :login <username> <password> [--save|-s [Nh|Nd]], or ask again in 24 hours.',
    );
    await run(page, ':lang use de-DE');
    expect(await run(page, 'third')).toBe(
      'Das Nutzungslimit ist erreicht. Registriere dich mit :user add <username> <email> [<password>] oder melde dich mit :login <username> <password> [--save|-s [Nh|Nd]] an, oder frag in 24 Stunden wieder.',
    );
    expect(app.fake.requests.length).toBe(asked);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows root the whole service by model (the services-usage block), and a user only their own', async () => {
    const { page, context } = await openApp(app.browser, app.server.url);
    await run(page, ':user add uwe uwe@example.org uwe-password-1');
    await run(page, ':login uwe uwe-password-1');
    app.fake.reply({ text: 'ok' });
    await run(page, 'hello');
    await page.getByTestId('view-toggle').click();
    await page.getByTestId('nav-usage').click();
    await expect.poll(() => page.getByTestId('usage-this-month').textContent()).toBe('1');
    expect(await page.getByTestId('usage-services').count()).toBe(0);
    await page.getByTestId('view-toggle').click();
    await run(page, ':login root root-password-1');
    await page.getByTestId('view-toggle').click();
    await page.getByTestId('nav-usage').click();
    const services = page.getByTestId('usage-services');
    // The first test's two questions, the visitor's one and this one: everyone's.
    await expect.poll(() => services.textContent()).toContain('gpt-demo');
    expect(await services.textContent()).toContain('4 questions');
    await context.close();
  });
});
