// The bugs found by trying the product as people do (issue 27), each walked the way a person
// met it, in Chromium against the real server and a fake provider: a setting that broke every
// later question, split mode on a phone, a failed upload marker that took the question with
// it, commands scrambled right to left, a slow command's answer landing in place of a newer
// one, and layout and theme changes that printed nothing.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { HAS_CHROME, openApp, run, useAppWithFakeProvider } from './support.ts';

const output = (page: Page) => page.getByTestId('output').textContent();

/** Whether the first two characters of `text` inside the output are laid out left to right. */
async function readsLeftToRight(page: Page, text: string): Promise<boolean> {
  return page.evaluate((wanted) => {
    const walker = document.createTreeWalker(document.querySelector('[data-testid=output]')!, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const at = node.textContent!.indexOf(wanted);
      if (at < 0) continue;
      const rect = (i: number) => {
        const range = document.createRange();
        range.setStart(node, at + i);
        range.setEnd(node, at + i + 1);
        return range.getBoundingClientRect();
      };
      return rect(0).left < rect(1).left;
    }
    throw new Error(`${wanted} is not in the output`);
  }, text);
}

describe.skipIf(!HAS_CHROME)('tried as people do', () => {
  const app = useAppWithFakeProvider((url) => ({ MODEL: 'gpt-demo', OPENAI_BASE_URL: url, OPENAI_API_KEY: 'sk-e2e' }));

  it('refuses a memory length the server would refuse, and the next question still answers', async () => {
    const { page, context, errors } = await openApp(app.browser, app.server.url);
    expect(await run(page, ':set memLength 2.5')).toBe('Invalid value. Value must be a whole number from 0 to 100.');
    expect(await run(page, ':set memLength -3')).toBe('Invalid value. Value must be a whole number from 0 to 100.');
    expect(await run(page, 'Still there?')).toContain('You said: Still there?');
    expect(await run(page, ':set stores "a,b,c,d"')).toBe('You can only use 3 stores at the same time. Please unuse one of them first.');
    expect(await run(page, ':set role "nosuch"')).toBe('Role "nosuch" does not exist.');
    expect(await run(page, 'And now?')).toContain('You said: And now?');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('sends with Enter on a phone, even with split mode set', async () => {
    const { page, context, errors } = await openApp(app.browser, app.server.url, { viewport: { width: 390, height: 800 } });
    expect(await run(page, ':fullscreen split')).toBe('Fullscreen: split');
    expect(await page.locator('.shell').getAttribute('data-fullscreen')).toBe('off');
    const input = page.getByTestId('input');
    await input.fill('Sent from a phone');
    await input.press('Enter');
    await expect.poll(() => output(page), { timeout: 10_000 }).toContain('You said: Sent from a phone');
    expect(await page.getByTestId('send-hint').count()).toBe(0);
    // On a wide screen the split layout keeps Enter for new lines, and says how to send.
    await page.setViewportSize({ width: 1200, height: 800 });
    await expect.poll(() => page.locator('.shell').getAttribute('data-fullscreen')).toBe('split');
    await expect.poll(() => page.getByTestId('send-hint').textContent()).toBe('Enter adds a line; Shift+Enter or Ctrl+Enter sends.');
    await input.fill('line one');
    await input.press('Enter');
    expect(await input.inputValue()).toBe('line one\n');
    await input.press('Shift+Enter');
    await expect.poll(() => output(page), { timeout: 10_000 }).toContain('You said: line one');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('keeps the question when a failed upload marker stops it from being sent', async () => {
    const { page, context, errors } = await openApp(app.browser, app.server.url);
    const input = page.getByTestId('input');
    await input.fill('What is in this file? ');
    await page.getByTestId('attach-input').setInputFiles([{ name: 'bad.exe', mimeType: 'application/octet-stream', buffer: Buffer.from('MZ') }]);
    // The failed marker, not the one still uploading: Enter while it uploads is refused with
    // 'still uploading' (controller.ts), which this test is not about.
    await expect.poll(() => input.inputValue()).toMatch(/\+file\[bad\.exe \((?!uploading)/);
    await input.press('Enter');
    // The marker's own reason (issue 33 item 20), not 'URL must start with http or https.'.
    await expect.poll(() => output(page)).toContain('bad.exe: Invalid file type.');
    expect(await input.inputValue()).toContain('What is in this file?');
    expect(await input.inputValue()).toContain('bad.exe');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('keeps a question that got only an error, so it can be sent again', async () => {
    const { page, context, errors } = await openApp(app.browser, app.server.url);
    // The server retries a provider's 500 a few times before it gives up.
    for (let i = 0; i < 4; i++) app.fake.reply({ status: 500, text: 'The upstream exploded' });
    expect(await run(page, 'A question worth keeping')).toContain('The model provider answered 500');
    expect(await page.getByTestId('input').inputValue()).toBe('A question worth keeping');
    await page.getByTestId('input').press('Enter');
    await expect.poll(() => output(page)).toContain('You said: A question worth keeping');
    expect(await page.getByTestId('input').inputValue()).toBe('');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows commands and usage lines left to right in a right-to-left interface', async () => {
    const { page, context, errors } = await openApp(app.browser, app.server.url);
    await run(page, ':lang use ar-EG');
    expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    await run(page, ':help lang');
    expect(await readsLeftToRight(page, ':lang use <code>')).toBe(true);
    expect(await readsLeftToRight(page, ':lang ls')).toBe(true);
    // A usage line: the translated label, then the command as typed.
    await run(page, ':lang use');
    expect(await readsLeftToRight(page, ':lang use <code>')).toBe(true);
    // The placeholder is the last input, shortened: it reads as typed too.
    const placeholder = await page.getByTestId('input').getAttribute('placeholder');
    expect(placeholder).toBe(':lang use');
    expect(await page.getByTestId('input').evaluate((el) => getComputedStyle(el, '::placeholder').unicodeBidi)).toBe('plaintext');
    expect(errors).toEqual([]);
    await context.close();
  });

  it("puts a slow command's late answer below the next one's, never in its place", async () => {
    const { page, context, errors } = await openApp(app.browser, app.server.url);
    const input = page.getByTestId('input');
    // No voices, and no word that they are coming: the voice lookup waits its full second.
    await page.evaluate(() => {
      Object.defineProperty(speechSynthesis, 'getVoices', { value: () => [] });
      Object.defineProperty(speechSynthesis, 'addEventListener', { value: () => undefined });
    });
    await input.fill(':voice use "nosuch"');
    await input.press('Enter');
    await input.fill(':theme');
    await input.press('Enter');
    await expect.poll(() => output(page), { timeout: 5_000 }).toContain('Theme: light');
    // The late answer goes below the newer one.
    await expect.poll(() => output(page), { timeout: 5_000 }).toBe('Theme: lightVoice not found.');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('says what a layout or theme change did, in place of the last output', async () => {
    const { page, context, errors } = await openApp(app.browser, app.server.url);
    expect(await run(page, 'Hello')).toContain('You said: Hello');
    expect(await run(page, ':theme dark')).toBe('Theme: dark');
    expect(await run(page, ':fullscreen default')).toBe('Fullscreen: default');
    expect(await run(page, ':split')).toBe('Fullscreen: split');
    expect(await run(page, ':fullscreen off')).toBe('Fullscreen: off');
    // Ctrl+Shift+R is :reset, and says so.
    const session = await run(page, ':set all').then((all) => (JSON.parse(all) as { session: number }).session);
    await page.getByTestId('input').fill('');
    await page.getByTestId('input').press('Control+Shift+R');
    await expect.poll(() => output(page)).toBe('Reset.');
    expect(await run(page, ':set all').then((all) => (JSON.parse(all) as { session: number }).session)).not.toBe(session);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe.skipIf(!HAS_CHROME)('with streaming off', () => {
  const app = useAppWithFakeProvider((url) => ({ MODEL: 'gpt-demo', OPENAI_BASE_URL: url, OPENAI_API_KEY: 'sk-e2e' }));

  it("says 'Generating...' while the whole answer is on its way, and where a stopped one went", async () => {
    const { page, context, errors } = await openApp(app.browser, app.server.url);
    expect(await run(page, ':stream off')).toBe('Stream mode off.');
    app.fake.reply({ text: 'A slow and careful answer about pipes, told word by word.', delayMs: 150 });
    const input = page.getByTestId('input');
    await input.fill('Tell me slowly');
    await input.press('Enter');
    await expect.poll(() => output(page)).toContain('Generating...');
    // A few words into the answer (the provider sends one every 150 ms), stop it.
    await expect.poll(() => app.fake.requests.length).toBeGreaterThan(0);
    await page.waitForTimeout(700);
    await page.keyboard.press('Control+c');
    await expect.poll(() => output(page)).toBe('Stopped. The answer so far is kept in the session: :log shows it.');
    await expect.poll(() => run(page, ':log'), { timeout: 6000 }).toContain('A slow and careful');
    expect(errors).toEqual([]);
    await context.close();
  });
});
