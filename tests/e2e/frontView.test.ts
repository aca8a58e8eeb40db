// Front view, layouts, themes and commands in the real browser against the real server.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HAS_CHROME, openApp, run, useServerAndBrowser } from './support.ts';

describe.skipIf(!HAS_CHROME)('front view', () => {
  const app = useServerAndBrowser();

  it('shows the input, submit, output and the hidden blocks, with the :help placeholder', async () => {
    const { page, context, errors } = await openApp(app.browser, app.server.url);
    const input = page.getByTestId('input');
    expect(await input.getAttribute('placeholder')).toBe(':help');
    expect((await input.boundingBox())!.height).toBeGreaterThanOrEqual(45);
    for (const id of ['submit', 'output', 'previews', 'stats', 'eval', 'model-info', 'view-toggle']) {
      expect(await page.getByTestId(id).count(), id).toBe(1);
    }
    const root = page.locator('.shell');
    expect(await root.getAttribute('data-theme')).toBe('light');
    expect(await root.getAttribute('data-fullscreen')).toBe('off');
    expect(await root.getAttribute('data-generating')).toBe('false');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('runs commands from the submit button and from Enter, and grows the input', async () => {
    const { page, context } = await openApp(app.browser, app.server.url);
    await page.getByTestId('input').fill(':stats on');
    await page.getByTestId('input').press('Enter');
    await page.waitForFunction(() => document.querySelector('[data-testid=output]')?.textContent === 'Stats on.');
    expect(await run(page, ':help')).toContain(':lang use <code>');
    const input = page.getByTestId('input');
    const oneLine = (await input.boundingBox())!.height;
    await input.fill('one\ntwo\nthree\nfour\nfive');
    expect((await input.boundingBox())!.height).toBeGreaterThan(oneLine);
    await context.close();
  });

  it('shows the last input as the placeholder, shortened per the spec', async () => {
    const { page, context } = await openApp(app.browser, app.server.url);
    await run(page, ':stats on');
    expect(await page.getByTestId('input').getAttribute('placeholder')).toBe(':stats on');
    await run(page, ':set location "' + 'x'.repeat(50) + '"');
    expect(await page.getByTestId('input').getAttribute('placeholder')).toBe(':set location "xxxxx...');
    await run(page, ':set location "中文中文中文中文中文中文中文中文中文中文"');
    expect(await page.getByTestId('input').getAttribute('placeholder')).toBe(':set location "中文中文中...');
    await context.close();
  });

  it('switches themes and fullscreen layouts, forcing fullscreen off under 768px', async () => {
    const { page, context } = await openApp(app.browser, app.server.url);
    const root = page.locator('.shell');
    const background = () => root.evaluate((el) => getComputedStyle(el).backgroundColor);
    const light = await background();
    await run(page, ':theme dark');
    expect(await root.getAttribute('data-theme')).toBe('dark');
    expect(await background()).not.toBe(light);
    await run(page, ':theme terminal');
    expect(await root.getAttribute('data-theme')).toBe('terminal');
    expect(await run(page, ':theme')).toBe('Theme: terminal');

    await run(page, ':fullscreen');
    expect(await root.getAttribute('data-fullscreen')).toBe('default');
    const input = page.getByTestId('input');
    await input.fill(Array.from({ length: 80 }, (_, i) => `line ${i}`).join('\n'));
    expect((await input.boundingBox())!.height).toBeLessThanOrEqual(768 / 2 + 1);
    await input.fill('');

    await run(page, ':split');
    expect(await root.getAttribute('data-fullscreen')).toBe('split');
    const inputBox = (await page.getByTestId('input').boundingBox())!;
    const outputBox = (await page.getByTestId('output').boundingBox())!;
    expect(inputBox.x + inputBox.width).toBeLessThanOrEqual(outputBox.x);

    await page.setViewportSize({ width: 600, height: 800 });
    await expect.poll(() => root.getAttribute('data-fullscreen')).toBe('off');
    await page.setViewportSize({ width: 1024, height: 768 });
    await expect.poll(() => root.getAttribute('data-fullscreen')).toBe('split');
    await run(page, ':fullscreen off');
    expect(await root.getAttribute('data-fullscreen')).toBe('off');
    await context.close();
  });

  it('keeps settings across a reload and survives corrupt localStorage', async () => {
    const { page, context, errors } = await openApp(app.browser, app.server.url);
    await run(page, ':theme dark');
    await page.reload();
    await page.waitForSelector('[data-testid=input]');
    expect(await page.locator('.shell').getAttribute('data-theme')).toBe('dark');
    for (const garbage of ['{not json', '[1,2', '"text"', '[{},{"theme":"purple","memLength":"x"}]']) {
      await page.evaluate((g) => localStorage.setItem('shellchat:device', g), garbage);
      await page.reload();
      await page.waitForSelector('[data-testid=input]');
      expect(await page.locator('.shell').getAttribute('data-theme')).toBe('light');
    }
    expect(await run(page, ':theme')).toBe('Theme: light');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('answers the anonymous commands of the spec', async () => {
    const { page, context } = await openApp(app.browser, app.server.url);
    expect(await run(page, ':eval on')).toMatch(/doubles token use/);
    expect(await run(page, ':stream off')).toBe('Stream mode off.');
    expect(await run(page, ':speak on')).toBe('Speak on.');
    expect(await run(page, ':lang')).toBe('Language not set.');
    expect(await run(page, ':lang use zh')).toBe('Multiple language codes found: zh-CN, zh-HK, zh-TW');
    expect(await run(page, ':lang use xx')).toBe('Language code not found.');
    expect(await run(page, ':info')).toContain('online');
    expect(await run(page, ':set memlength x')).toBe('Invalid value. Value must be a number.');
    expect(await run(page, ':set nokey 1')).toMatch(/^Unknown key\. Key must be one of: /);
    expect(await run(page, ':reset')).toBe('Reset.');
    // The spec's message on its own line, and the closest command on the line under it.
    expect(await run(page, ':nope')).toBe('Unknown command.Did you mean :node?');
    expect(await page.locator('.out-error').textContent()).toBe('Unknown command.');
    expect(await page.locator('.out-notice').textContent()).toBe('Did you mean :node?');
    expect(await run(page, '：help')).toBe('Please use half-width colon (":").');
    expect(await run(page, '!get_time({})')).toBe('Please login.');
    await run(page, ':clear');
    expect(await page.getByTestId('output').textContent()).toBe('');
    await context.close();
  });

  it('switches the interface language, including right to left', async () => {
    const { page, context } = await openApp(app.browser, app.server.url);
    await run(page, ':lang use zh-CN');
    await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
    await expect.poll(() => page.getByTestId('submit').textContent()).not.toBe('Send');
    expect(await run(page, ':nope')).not.toBe('Unknown command.');
    // A country without a translation of its own speaks its language's: fr-CA shows fr-FR.
    const french = JSON.parse(readFileSync(path.join(import.meta.dirname, '../../locales/fr-FR/shell.json'), 'utf8')) as { ui: { submit: string } };
    expect(french.ui.submit).not.toBe('Send');
    await run(page, ':lang use fr-CA');
    await page.waitForFunction(() => document.documentElement.lang === 'fr-CA');
    await expect.poll(() => page.getByTestId('submit').textContent()).toBe(french.ui.submit);
    await run(page, ':lang use ar-SA');
    await page.waitForFunction(() => document.documentElement.dir === 'rtl');
    await run(page, ':lang reset');
    await page.waitForFunction(() => document.documentElement.dir === 'ltr');
    await expect.poll(() => page.getByTestId('submit').textContent()).toBe('Send');
    await context.close();
  });

  it(':location on uses the browser position, and failure turns it off', async () => {
    const allowed = await openApp(app.browser, app.server.url, { permissions: ['geolocation'], geolocation: { latitude: 48.8584, longitude: 2.2945 } });
    expect(await run(allowed.page, ':location on')).toBe('Location: (48.8584,2.2945)');
    await allowed.context.close();
    const denied = await openApp(app.browser, app.server.url);
    expect(await run(denied.page, ':location on')).toBe('Location service failed.');
    expect(await run(denied.page, ':set all')).toContain('"useLocation": false');
    await denied.context.close();
  });

  it('lists and picks speech voices', async () => {
    const { page, context } = await openApp(app.browser, app.server.url);
    // Headless Chromium ships no voices; give it two.
    await page.evaluate(() => {
      const voices = [
        { name: 'Ava', lang: 'en-US', default: true, localService: true, voiceURI: 'ava' },
        { name: 'Kyoko', lang: 'ja-JP', default: false, localService: true, voiceURI: 'kyoko' },
      ];
      Object.defineProperty(speechSynthesis, 'getVoices', { value: () => voices });
    });
    expect(await run(page, ':voice ls')).toContain('Ava');
    expect(await run(page, ':voice use "Kyoko"')).toBe('Voice set to Kyoko (ja-JP).');
    expect(await run(page, ':voice use "Nobody"')).toBe('Voice not found.');
    expect(await run(page, ':voice')).toBe('Voice: Kyoko (ja-JP)');
    expect(await run(page, ':voice reset')).toBe('Voice reset to the default.');
    await context.close();
  });
});

describe.skipIf(!HAS_CHROME)("the operator's placeholder and the copyright", () => {
  const app = useServerAndBrowser({ INIT_PLACEHOLDER: 'Ask me anything about your repository and its history today' });

  it('shortens the placeholder from system info by the rule of the last input, and shows 2023 at the foot of the back view', async () => {
    const { page, context, errors } = await openApp(app.browser, app.server.url);
    await expect.poll(() => page.getByTestId('input').getAttribute('placeholder')).toBe('Ask me anything abou...');
    await page.getByTestId('view-toggle').click();
    expect(await page.getByTestId('copyright').textContent()).toBe('© 2023 shellchat');
    expect(errors).toEqual([]);
    await context.close();
  });
});
