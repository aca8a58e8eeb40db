// The cap on answers in flight as a person meets it (issue 34, item 4): with one answer still
// streaming in a tab, a question from another tab of the same browser is refused in words, in
// the interface's language, and goes through once the first answer is stopped.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HAS_CHROME, openApp, ROOT, run, useAppWithFakeProvider } from './support.ts';

const REFUSED = 'Too many answers are in progress. Try again when one has finished.';
const german = (JSON.parse(readFileSync(path.join(ROOT, 'locales/de-DE/core.json'), 'utf8')) as { err: { tooManyAnswers: string } }).err.tooManyAnswers;

describe.skipIf(!HAS_CHROME)('answers in flight, in the page', () => {
  const app = useAppWithFakeProvider((url) => ({ MODEL: 'gpt-demo', OPENAI_BASE_URL: url, OPENAI_API_KEY: 'sk-test', MAX_ANSWERS_PER_VISITOR: '1' }));

  it('refuses a second answer at once in words, and answers once the first is stopped', async () => {
    const { page, context } = await openApp(app.browser, app.server.url);
    const other = await context.newPage();
    await other.goto(app.server.url);
    await other.waitForSelector('[data-testid=input]');

    // The first tab's answer hangs: it stays in flight.
    app.fake.reply({ hang: true });
    await page.getByTestId('input').fill('Write me a very long story');
    await page.getByTestId('submit').click();
    await app.fake.waitForRequests(1, 10_000);
    await expect.poll(() => page.locator('.shell').getAttribute('data-generating')).toBe('true');

    expect(await run(other, 'And a poem meanwhile')).toBe(REFUSED);
    expect(german).not.toBe(REFUSED);
    await run(other, ':lang use de-DE');
    expect(await run(other, 'And a poem meanwhile')).toBe(german);
    // Neither refusal reached the provider.
    expect(app.fake.requests).toHaveLength(1);

    // Stopping the first answer gives its slot back.
    await page.locator('body').click();
    await page.keyboard.press('Control+c');
    await expect.poll(() => page.locator('.shell').getAttribute('data-generating')).toBe('false');
    app.fake.reply({ text: 'Roses are red.' });
    await expect.poll(async () => run(other, 'And a poem meanwhile'), { timeout: 10_000 }).toContain('Roses are red.');
    await context.close();
  });
});
