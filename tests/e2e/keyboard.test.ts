// Every keyboard shortcut and swipe of spec part 2, the command history and Tab completion.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { HAS_CHROME, openApp, run, useServerAndBrowser } from './support.ts';

const LOGIN_MESSAGE = 'Please log in to view session history.';
const output = (page: Page) => page.getByTestId('output').textContent();

async function swipe(page: Page, testid: string, dx: number) {
  await page.getByTestId(testid).evaluate((el, dx) => {
    const rect = el.getBoundingClientRect();
    const x = rect.left + rect.width / 2;
    const y = rect.top + 10;
    const touch = (cx: number) => new Touch({ identifier: 1, target: el, clientX: cx, clientY: y });
    el.dispatchEvent(new TouchEvent('touchstart', { touches: [touch(x)], changedTouches: [touch(x)], bubbles: true }));
    el.dispatchEvent(new TouchEvent('touchend', { touches: [], changedTouches: [touch(x + dx)], bubbles: true }));
  }, dx);
}

describe.skipIf(!HAS_CHROME)('keyboard and gestures', () => {
  const app = useServerAndBrowser();

  it('Ctrl+R clears the output, Ctrl+Shift+R resets the session, Ctrl+C keeps copying selections', async () => {
    const { page, context } = await openApp(app.browser, app.server.url);
    await run(page, ':help');
    await page.keyboard.press('Control+r');
    expect(await output(page)).toBe('');
    const session = async () => JSON.parse((await run(page, ':set all')) || '{}').session as number;
    const before = await session();
    await page.waitForTimeout(5);
    await page.getByTestId('input').focus();
    await page.keyboard.press('Control+Shift+R');
    expect(await session()).toBeGreaterThan(before);
    expect(page.url()).toBe(app.server.url + '/'); // not reloaded
    await context.close();
  });

  it('F11 toggles default fullscreen and Ctrl+| toggles split', async () => {
    const { page, context } = await openApp(app.browser, app.server.url);
    const mode = () => page.locator('.shell').getAttribute('data-fullscreen');
    await page.keyboard.press('F11');
    expect(await mode()).toBe('default');
    await page.keyboard.press('F11');
    expect(await mode()).toBe('off');
    await page.keyboard.press('Control+Shift+|');
    expect(await mode()).toBe('split');
    await page.keyboard.press('Control+\\');
    expect(await mode()).toBe('off');
    await context.close();
  });

  it('Esc clears, then blurs; Tab and / focus the input; right after Esc, Tab goes on past it', async () => {
    const { page, context } = await openApp(app.browser, app.server.url);
    const input = page.getByTestId('input');
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('data-testid'));
    await input.fill('some text');
    await input.press('Escape');
    expect(await input.inputValue()).toBe('');
    expect(await focused()).toBe('input');
    await input.press('Escape');
    expect(await focused()).not.toBe('input');
    await page.keyboard.press('/');
    expect(await focused()).toBe('input');
    expect(await input.inputValue()).toBe('');
    // With nothing focused (a click on the page), Tab focuses the input.
    await page.mouse.click(5, 700);
    expect(await page.evaluate(() => document.activeElement === document.body)).toBe(true);
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('input');
    // Right after Esc left the input, Tab goes on to the controls after it (as code editors
    // that keep Tab for themselves do), so a keyboard reaches Attach, Send and the answer.
    await input.press('Escape');
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('attach');
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('submit');
    await context.close();
  });

  it('Tab repeats the last input in an empty box, and completes arguments, cycling', async () => {
    const { page, context } = await openApp(app.browser, app.server.url);
    const input = page.getByTestId('input');
    await run(page, ':stats on');
    await input.focus();
    await page.keyboard.press('Tab');
    expect(await input.inputValue()).toBe(':stats on');
    await input.fill(':theme d');
    await page.keyboard.press('Tab');
    await expect.poll(() => input.inputValue()).toBe(':theme dark ');
    await input.fill(':lang use zh');
    await page.keyboard.press('Tab');
    await expect.poll(() => input.inputValue()).toBe(':lang use zh-CN');
    await page.keyboard.press('Tab');
    await expect.poll(() => input.inputValue()).toBe(':lang use zh-HK');
    await input.fill(':set useS');
    await page.keyboard.press('Tab');
    await expect.poll(() => input.inputValue()).toMatch(/^:set use(Stats|Speak|SystemRole|Stream)/);
    await context.close();
  });

  it('Up and Down walk the command history, newest first, never storing passwords, kept across reloads', async () => {
    const { page, context } = await openApp(app.browser, app.server.url);
    const input = page.getByTestId('input');
    await run(page, ':stats on');
    await run(page, ':theme dark');
    await run(page, ':login ada s3cret');
    await run(page, 'just chatting');
    await page.reload();
    await input.waitFor();
    await input.fill(':');
    await input.press('ArrowUp');
    expect(await input.inputValue()).toBe(':theme dark');
    await input.press('ArrowUp');
    expect(await input.inputValue()).toBe(':stats on');
    await input.press('ArrowUp');
    expect(await input.inputValue()).toBe(':stats on');
    await input.press('ArrowDown');
    expect(await input.inputValue()).toBe(':theme dark');
    await input.press('ArrowDown');
    expect(await input.inputValue()).toBe('');
    // Down again past the newest entry stays in the history (it fell into session navigation,
    // which asks an anonymous visitor to log in); Up walks back into it.
    const before = await page.getByTestId('output').textContent();
    await input.press('ArrowDown');
    expect(await input.inputValue()).toBe('');
    await page.waitForTimeout(200);
    expect(await page.getByTestId('output').textContent()).toBe(before);
    await input.press('ArrowUp');
    expect(await input.inputValue()).toBe(':theme dark');
    const stored = await page.evaluate(() => localStorage.getItem('shellchat:device') ?? '');
    expect(stored).not.toContain('s3cret');
    expect(await input.getAttribute('placeholder')).not.toContain('s3cret');
    await context.close();
  });

  it('session navigation asks an anonymous visitor to log in; log navigation answers without one', async () => {
    const { page, context } = await openApp(app.browser, app.server.url);
    const input = page.getByTestId('input');
    for (const key of ['ArrowUp', 'ArrowDown']) {
      await run(page, ':clear');
      await input.focus();
      await page.keyboard.press(key);
      expect(await output(page), key).toBe(LOGIN_MESSAGE);
    }
    // This visitor's new session has no logs yet (the sessions test walks real ones).
    for (const key of ['ArrowLeft', 'ArrowRight']) {
      await run(page, ':clear');
      await input.focus();
      await page.keyboard.press(key);
      await expect.poll(() => output(page), { timeout: 5000 }).toBe('No log found.');
    }
    await input.press('Escape');
    for (const [key, expected] of [['h', LOGIN_MESSAGE], ['l', LOGIN_MESSAGE], ['k', 'No log found.'], ['j', 'No log found.']] as const) {
      await page.keyboard.press('Control+r');
      await page.keyboard.press(key);
      await expect.poll(() => output(page), { timeout: 5000 }).toBe(expected);
    }
    await context.close();
  });

  it('swipes: on the output they move between logs; on the input right completes and left clears', async () => {
    const { page, context } = await openApp(app.browser, app.server.url, { hasTouch: true });
    await run(page, ':help');
    await swipe(page, 'output', 120);
    // No log to go to: what was in view stays, with the message under it.
    await expect.poll(() => output(page)).toMatch(/^General.*No log found\.$/s);
    await page.keyboard.press('Control+r');
    await swipe(page, 'output', -120);
    await expect.poll(() => output(page)).toBe('No log found.');
    const input = page.getByTestId('input');
    await input.fill(':theme te');
    await swipe(page, 'input', 120);
    await expect.poll(() => input.inputValue()).toBe(':theme terminal ');
    await swipe(page, 'input', -120);
    expect(await input.inputValue()).toBe('');
    await context.close();
  });
});
