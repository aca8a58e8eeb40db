// The page tried again as people do (issue 33, items 18 to 21 and a newcomer's questions), each
// walked in Chromium against the real server and a fake provider: help tables on a phone, a
// confirmation in the language just chosen, a failed upload that says why, Enter while an
// answer streams, the line under 'Unknown command.', signing up, and the Settings page.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { HAS_CHROME, openApp, run, useAppWithFakeProvider } from './support.ts';

const PHONE = { width: 390, height: 844 };

/** How the page lays its tables out: whether it scrolls sideways, and the words cut in two. */
function layout(page: Page, tables: string) {
  return page.evaluate((selector) => {
    const cut: string[] = [];
    const firstColumn: number[] = [];
    for (const table of document.querySelectorAll<HTMLTableElement>(selector)) {
      const cell = table.querySelector('tbody td');
      if (cell && table.rows[0]!.cells.length === 2) firstColumn.push(cell.getBoundingClientRect().width / table.getBoundingClientRect().width);
      for (const td of table.querySelectorAll('td, th')) {
        const walker = document.createTreeWalker(td, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const text = node.textContent!;
          const line = (i: number) => {
            const range = document.createRange();
            range.setStart(node!, i);
            range.setEnd(node!, i + 1);
            return range.getClientRects()[0]?.top ?? 0;
          };
          // Two letters (or digits) side by side on two lines: a word broken mid-word.
          for (let i = 0; i + 1 < text.length; i++) {
            if (/[\p{L}\p{N}]{2}/u.test(text.slice(i, i + 2)) && Math.abs(line(i) - line(i + 1)) > 2) cut.push(text.slice(Math.max(0, i - 6), i + 8));
          }
        }
      }
    }
    return { scrollWidth: document.scrollingElement!.scrollWidth, width: innerWidth, tables: document.querySelectorAll(selector).length, firstColumn: Math.max(...firstColumn), cut };
  }, tables);
}

describe.skipIf(!HAS_CHROME)('the page, tried again (issue 33)', () => {
  const app = useAppWithFakeProvider((url) => ({
    MODEL: 'gpt-demo',
    OPENAI_BASE_URL: url,
    OPENAI_API_KEY: 'sk-e2e',
    USE_PAYMENT: 'true',
  }));

  it('lays :help, the session list and the back pages out on a phone without sideways scrolling or words cut in two', async () => {
    const { page, context, errors } = await openApp(app.browser, app.server.url, { viewport: PHONE });
    await run(page, ':help');
    const help = await layout(page, '.out-table table');
    expect(help.tables).toBeGreaterThan(5);
    expect(help.scrollWidth).toBeLessThanOrEqual(help.width);
    // The description keeps most of the width: the command column had 75% of it.
    expect(help.firstColumn).toBeLessThanOrEqual(0.45);
    expect(help.cut).toEqual([]);

    await run(page, ':user add phoebe phoebe@example.org phoebe-password-1');
    await run(page, ':login phoebe phoebe-password-1');
    await run(page, 'A question long enough that its preview in the session list runs over several lines on a phone, as real ones do');
    for (const line of [':session ls', ':log ls', ':user', ':info']) {
      await run(page, line);
      const shown = await layout(page, '.out-table table');
      expect(shown.scrollWidth, line).toBeLessThanOrEqual(shown.width);
      expect(shown.cut, line).toEqual([]);
    }

    await page.getByTestId('view-toggle').click();
    for (const name of ['documentation', 'usage', 'settings', 'privacy']) {
      await page.getByTestId(`nav-${name}`).click();
      await page.getByTestId(`page-${name}`).waitFor();
      if (name === 'documentation') await page.locator('table.api tbody tr').first().waitFor();
      if (name === 'usage') await page.getByTestId('usage-this-month').waitFor();
      const shown = await layout(page, '.page table');
      expect(shown.scrollWidth, name).toBeLessThanOrEqual(shown.width);
      expect(shown.cut, name).toEqual([]);
      if (name === 'documentation') expect(shown.firstColumn).toBeLessThanOrEqual(0.45);
    }
    expect(errors).toEqual([]);
    await context.close();
  });

  it('keeps :help and the Documentation page within the narrowest phones (320 px): a code table scrolls in its own box', async () => {
    const { page, context, errors } = await openApp(app.browser, app.server.url, { viewport: { width: 320, height: 640 } });
    await run(page, ':help');
    const help = await layout(page, '.out-table table');
    expect(help.scrollWidth).toBeLessThanOrEqual(help.width);
    expect(help.cut).toEqual([]);
    await page.getByTestId('view-toggle').click();
    await page.getByTestId('nav-documentation').click();
    await page.locator('table.api tbody tr').first().waitFor();
    const docs = await layout(page, '.page table');
    expect(docs.scrollWidth).toBeLessThanOrEqual(docs.width);
    expect(docs.cut).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('confirms a change of language in the language just chosen, and a login in the account\'s language', async () => {
    const { page, context, errors } = await openApp(app.browser, app.server.url);
    expect(await run(page, ':lang use de-DE')).toBe('Sprache auf Deutsch (Deutschland) (de-DE) gesetzt.');
    expect(await run(page, ':lang use ar-SA')).toBe('تم تعيين اللغة إلى العربية (المملكة العربية السعودية) (ar-SA).');
    expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    expect(await run(page, ':lang reset')).toBe('Language reset.');
    // An account that keeps German: its login speaks German, the language it brings.
    expect(await run(page, ':lang use de')).toBe('Sprache auf Deutsch (Deutschland) (de-DE) gesetzt.');
    await run(page, ':user add gerd gerd@example.org gerd-password-1');
    expect(await run(page, ':lang use en-US')).toBe('Language set to American English (en-US).');
    expect(await run(page, ':login gerd gerd-password-1')).toBe('Angemeldet als gerd.');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('de-DE');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('says why a failed upload is not sent, in the words of its own marker, and keeps the question', async () => {
    const { page, context, errors } = await openApp(app.browser, app.server.url);
    const input = page.getByTestId('input');
    const files = [
      { name: 'fake.png', mimeType: 'image/png', buffer: Buffer.from('Not a picture, only text named .png') },
      { name: 'big.pdf', mimeType: 'application/pdf', buffer: Buffer.alloc(10 * 1024 * 1024 + 1, 0x25) },
      { name: 'binary.txt', mimeType: 'text/plain', buffer: Buffer.from([0x4d, 0x5a, 0x00, 0x00, 0xff, 0xfe, 0x00, 0x01]) },
    ];
    const reasons: string[] = [];
    for (const file of files) {
      await input.fill('What is in this file? ');
      await page.getByTestId('attach-input').setInputFiles([file]);
      // The marker once it has failed (not while it uploads).
      const marker = new RegExp(`\\[${file.name.replace('.', '\\.')} \\((?!uploading)(.+)\\)\\]`);
      await expect.poll(() => input.inputValue(), { timeout: 10_000 }).toMatch(marker);
      const reason = marker.exec(await input.inputValue())![1]!;
      reasons.push(reason);
      await input.press('Enter');
      await expect.poll(() => page.locator('.out-error').allTextContents()).toEqual([`${file.name}: ${reason}`]);
      expect(await page.locator('.out-notice').textContent()).toBe("Remove the failed file's marker from the input, or attach the file again, then send.");
      expect(await page.getByTestId('output').textContent()).not.toContain('URL must start with http or https.');
      expect(await input.inputValue()).toContain('What is in this file?');
    }
    expect(reasons).toEqual([
      'The file is not what its name says: its content is not PNG.',
      'failed: file size exceeds 10MB',
      'The file is not what its name says: its content is not text.',
    ]);
    // Without the failed marker the question goes.
    await input.fill('What is in this file?');
    await input.press('Enter');
    await expect.poll(() => page.getByTestId('output').textContent(), { timeout: 10_000 }).toContain('You said: What is in this file?');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('says why Enter sends nothing while an answer streams, keeps the text, and sends it once the answer is stopped', async () => {
    const { page, context, errors } = await openApp(app.browser, app.server.url);
    const input = page.getByTestId('input');
    const generating = () => page.locator('.shell').getAttribute('data-generating');
    app.fake.reply({ chunks: Array.from({ length: 60 }, (_, i) => `word${i} `), delayMs: 150 });
    await input.fill('Tell me a long story');
    await input.press('Enter');
    await expect.poll(() => page.getByTestId('output').textContent(), { timeout: 10_000 }).toContain('word1');
    const asked = app.fake.requests.length;
    await input.fill('And in Rust?');
    await input.press('Enter');
    await expect.poll(() => page.getByTestId('busy-hint').textContent()).toBe(
      'An answer is still being written: wait for it, or stop it with Ctrl+C (or :stop). Then Enter sends this.',
    );
    expect(await input.getAttribute('aria-describedby')).toBe('busy-hint');
    expect(await input.inputValue()).toBe('And in Rust?');
    expect(await generating()).toBe('true');
    expect(app.fake.requests.length).toBe(asked);
    // Ctrl+C stops the answer; the text stays, the note goes, and Enter sends it.
    await input.press('Control+c');
    await expect.poll(generating).toBe('false');
    expect(await page.getByTestId('busy-hint').count()).toBe(0);
    expect(await input.inputValue()).toBe('And in Rust?');
    await input.press('Enter');
    await expect.poll(() => page.getByTestId('output').textContent(), { timeout: 10_000 }).toContain('You said: And in Rust?');
    expect(await page.getByTestId('busy-hint').count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('says right after sign-up how to log in, and names the closest command under Unknown command.', async () => {
    const { page, context, errors } = await openApp(app.browser, app.server.url);
    expect(await run(page, ':user add bob bob@example.org bob-password-1')).toBe('User bob added.Log in with :login bob <password>.');
    expect(await page.locator('.out-notice').textContent()).toBe('Log in with :login bob <password>.');
    expect(await run(page, ':logn bob bob-password-1')).toBe('Unknown command.Did you mean :login?');
    expect(await page.locator('.out-error').textContent()).toBe('Unknown command.');
    expect(await run(page, ':login bob bob-password-1')).toBe('Logged in as bob.');
    expect(await run(page, ':user')).toContain('bob@example.org');
    expect(await run(page, ': help')).toBe('Invalid command.Did you mean :help?');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows on the Settings page what is in use while the defaults are: the language and the default model', async () => {
    const { page, context, errors } = await openApp(app.browser, app.server.url);
    const pressed = (key: string) => page.locator(`[data-testid=page-settings] button[data-setting=${key}][aria-pressed=true]`).evaluateAll((b) => b.map((e) => e.getAttribute('data-value')));
    const openSettings = async () => {
      await page.getByTestId('view-toggle').click();
      await page.getByTestId('nav-settings').click();
      await page.locator('[data-testid=page-settings] button[data-setting=lang]').first().waitFor();
    };
    // Nothing picked yet: the page is in the browser's language, and that one shows as picked.
    expect(await run(page, ':lang')).toBe('Language not set.');
    await openSettings();
    expect(await pressed('lang')).toEqual(['en-US']);
    expect(await pressed('theme')).toEqual(['light']);
    await page.getByTestId('view-toggle').click();

    await run(page, ':user add della della@example.org della-password-1');
    await run(page, ':login della della-password-1');
    expect(await run(page, ':model ls')).toContain('*gpt-demo');
    await openSettings();
    // No model set: the server's default answers, and shows as picked.
    await expect.poll(() => pressed('model')).toEqual(['gpt-demo']);
    expect(await pressed('role')).toEqual([]);
    await page.locator('[data-testid=page-settings] button[data-setting=lang][data-value="de-DE"]').click();
    await expect.poll(() => pressed('lang')).toEqual(['de-DE']);
    expect(errors).toEqual([]);
    await context.close();
  });
});
