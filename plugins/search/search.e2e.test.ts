// `:search` in Chromium against the real built app and server: results list the matched words
// highlighted (as <mark>, the log's own markup shown as text), and Enter on a result opens
// that log: its question and answer are shown, and its session is attached.
import { describe, expect, it } from 'vitest';
import { HAS_CHROME, openApp, run, useAppWithFakeProvider } from '../../tests/e2e/support.ts';

const PW = 'correct-horse-1';

describe.skipIf(!HAS_CHROME)(':search in the browser', () => {
  const app = useAppWithFakeProvider((url) => ({ MODEL: 'gpt-demo', OPENAI_BASE_URL: url, OPENAI_API_KEY: 'sk-test' }));

  it('shows ranked results with the words marked, and Enter on one opens that log', { timeout: 60_000 }, async () => {
    const { page, errors } = await openApp(app.browser, app.server.url);
    await run(page, `:user add seeker seeker@example.org ${PW}`);
    expect(await run(page, `:login seeker ${PW}`)).toBe('Logged in as seeker.');
    app.fake.reply({ text: 'Okapis live in the Ituri forest.' });
    await run(page, 'Where do <b>okapi</b> live? <img src=x onerror="window.__xss=1">');
    app.fake.reply({ text: 'Giraffes are tall.' });
    await run(page, 'And giraffes?');
    await run(page, ':clear');

    const listed = await run(page, ':search "ITURI forest"');
    expect(listed).toContain('Logs matching "ITURI forest"');
    // The answer held both words: its snippet is shown with them marked.
    expect(await page.locator('.out-run').count()).toBe(1);
    expect(await page.locator('.out-run mark').allTextContents()).toEqual(['Ituri', 'forest']);

    const question = await run(page, ':search "okapi"');
    expect(question).toContain('Where do <b>okapi</b> live?');
    expect(await page.locator('.out-run mark').allTextContents()).toEqual(['okapi']);
    expect(await page.locator('.out-list b, .out-list img').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();

    // Enter on the result opens the log: Esc leaves the input, Tab walks the controls after it to the result.
    const before = Number(await page.getByTestId('output').getAttribute('data-runs'));
    await page.keyboard.press('Escape');
    const onResult = () => page.evaluate(() => document.activeElement?.classList.contains('out-run') ?? false);
    for (let tabs = 0; tabs < 10 && !(await onResult()); tabs++) await page.keyboard.press('Tab');
    expect(await onResult()).toBe(true);
    await page.keyboard.press('Enter');
    await page.waitForFunction((n) => Number(document.querySelector('[data-testid=output]')?.getAttribute('data-runs')) > n, before);
    const opened = (await page.getByTestId('output').textContent()) ?? '';
    expect(opened).toContain('Okapis live in the Ituri forest.');
    expect(opened).not.toContain('Giraffes are tall.');
    expect(opened).toMatch(/in session \d+/);
    expect(errors).toEqual([]);
  });
});
