// Accessibility (issue 19 part 4, WCAG 2.1.1 and the A/AA rules axe checks): axe-core finds no
// serious or critical violation on the front view (with an answer, with help output) nor on any
// back page, in each theme; and a person with only a keyboard chats, runs a command, opens
// Settings, follows a link in an answer and copies a code block.
import AxeBuilder from '@axe-core/playwright';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { HAS_CHROME, openApp, run, useAppWithFakeProvider } from './support.ts';

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const ANSWER = 'Read [the manual](https://example.org/manual) first.\n\n```sh\nls -la\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nInline $x^2$ math.';

/** The serious and critical violations axe finds on the page as it is now. */
async function violations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
}

const output = (page: Page) => page.getByTestId('output').textContent();

describe.skipIf(!HAS_CHROME)('accessibility', () => {
  const app = useAppWithFakeProvider((url) => ({
    MODEL: 'gpt-demo',
    OPENAI_BASE_URL: url,
    OPENAI_API_KEY: 'sk-e2e',
    USE_PAYMENT: 'true',
    USE_SUBSCRIPTIONS: 'true',
  }));

  for (const theme of ['light', 'dark', 'terminal']) {
    it(`has no serious or critical axe violation in the ${theme} theme, front and back`, async () => {
      const { page, context, errors } = await openApp(app.browser, app.server.url);
      await run(page, `:theme ${theme}`);
      const found: Record<string, string[]> = {};
      app.fake.reply({ text: ANSWER });
      await page.getByTestId('input').fill('Show me something rich');
      await page.getByTestId('submit').click();
      await page.locator('[data-testid=code-copy]').waitFor();
      await page.locator('.katex').first().waitFor();
      found.answer = await violations(page);
      await run(page, ':help');
      found.help = await violations(page);
      await page.getByTestId('view-toggle').click();
      for (const name of ['documentation', 'usage', 'subscriptions', 'settings', 'privacy']) {
        await page.getByTestId(`nav-${name}`).click();
        await page.getByTestId(`page-${name}`).waitFor();
        // The documentation and settings fill in as their plugins load.
        if (name === 'documentation') await page.waitForFunction(() => document.querySelectorAll('table.commands tr').length > 10);
        if (name === 'settings') await page.locator('button[data-setting=lang]').first().waitFor();
        found[name] = await violations(page);
      }
      expect(found).toEqual({ answer: [], help: [], documentation: [], usage: [], subscriptions: [], settings: [], privacy: [] });
      // The check can fail: a button without a name is found.
      await page.evaluate(() => document.querySelector('[data-testid=page-privacy]')!.append(document.createElement('button')));
      expect((await violations(page)).join('\n')).toContain('button-name (critical)');
      expect(errors).toEqual([]);
      await context.close();
    }, 60_000);
  }

  it('lets a keyboard alone chat, run a command, open Settings, follow a link in an answer and copy a code block', async () => {
    const { page, context, errors } = await openApp(app.browser, app.server.url);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.server.url });
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.textContent ?? '');
    // The input has the focus at load; a command and a question, with Enter.
    await page.keyboard.type(':theme dark');
    await page.keyboard.press('Enter');
    await expect.poll(() => output(page)).toBe('Theme: dark');
    app.fake.reply({ text: ANSWER });
    await page.keyboard.type('Show me the manual');
    await page.keyboard.press('Enter');
    await page.locator('[data-testid=code-copy]').waitFor();
    // Esc leaves the input; Tab goes on to Attach, Send, then the answer's link and Copy button.
    await page.keyboard.press('Escape');
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('attach');
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('submit');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => (document.activeElement as HTMLAnchorElement).href)).toBe('https://example.org/manual');
    // Following it opens the page in a new tab, as a click would (served here: no internet).
    await context.route('https://example.org/**', (route) => route.fulfill({ contentType: 'text/html', body: '<title>manual</title>' }));
    const popup = context.waitForEvent('page');
    await page.keyboard.press('Enter');
    expect((await popup).url()).toContain('example.org/manual');
    await page.bringToFront();
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('code-copy');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText()).then((t) => t.trim())).toBe('ls -la');

    // Shift+Tab goes back; / returns to the input from anywhere.
    await page.keyboard.press('Shift+Tab');
    expect(await page.evaluate(() => (document.activeElement as HTMLAnchorElement).href)).toBe('https://example.org/manual');
    await page.keyboard.press('/');
    expect(await focused()).toBe('input');

    // In the input, Tab with a plain question (nothing to complete) moves on too.
    await page.keyboard.type('a question');
    await page.keyboard.press('Tab');
    await expect.poll(focused).toBe('attach');

    // Ctrl+, opens Settings; Tab reaches its buttons and Enter picks one.
    await page.keyboard.press('Control+,');
    await page.getByTestId('page-settings').waitFor();
    await page.locator('button[data-setting=lang]').first().waitFor();
    const at = () => page.evaluate(() => `${document.activeElement?.getAttribute('data-setting')}=${document.activeElement?.getAttribute('data-value')}`);
    for (let i = 0; i < 20 && (await at()) !== 'theme=light'; i++) await page.keyboard.press('Tab');
    expect(await at()).toBe('theme=light');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('.shell').getAttribute('data-theme')).toBe('light');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-value'))).toBe('dark');
    expect(errors).toEqual([]);
    await context.close();
  });
});
