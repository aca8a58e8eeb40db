// The working line in Chromium, against the real built app and server: a command that takes a
// while (`:model ls` with a local model server whose listing answers after 1.5 s) shows
// "Running :model ls..." as a status in place of the last result after ~300 ms, until its answer
// replaces it; a fast command never shows it, not even for a frame.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOllama, type FakeOllama } from '../fixtures/fakeOllama.ts';
import { HAS_CHROME, launchBrowser, openApp, run, startServer, watchOutput, type RunningServer } from './support.ts';
import type { Browser } from 'playwright-core';

const LIST_DELAY_MS = 1500;

// Skipped only where Chromium is not installed, outside CI: under CI=true tests/e2e/support.ts throws instead.
describe.skipIf(!HAS_CHROME)('the working line of a slow command', () => {
  let ollama: FakeOllama;
  let server: RunningServer;
  let browser: Browser;
  beforeAll(async () => {
    ollama = await startFakeOllama({ listDelayMs: LIST_DELAY_MS });
    [server, browser] = await Promise.all([startServer({ OLLAMA_BASE_URL: ollama.url }), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await ollama?.close();
  });

  it('says the command is running after the delay, as a status in place of the last result, until the answer replaces it', async () => {
    const { page, context, errors } = await openApp(browser, server.url);
    expect(await run(page, ':help model')).toContain(':model ls');
    const seen = await watchOutput(page);
    const listed = await run(page, ':model ls');
    expect(listed).toContain('llama3.2');
    expect(listed).not.toContain('Running');

    const changes = await seen();
    const shown = changes.filter((c) => c.working);
    expect(shown.length).toBeGreaterThan(0);
    // Not before the delay, and well before the answer; alone in the output area meanwhile.
    expect(shown[0]!.at).toBeGreaterThanOrEqual(290);
    expect(shown[0]!.at).toBeLessThan(1200);
    expect(shown.map((c) => c.text)).toEqual(shown.map(() => 'Running :model ls...'));
    // Then the answer, in its place: the working line never comes back, the last result never shows again.
    const answered = changes.findIndex((c) => c.text.includes('llama3.2'));
    expect(changes[answered]!.at).toBeGreaterThanOrEqual(LIST_DELAY_MS);
    expect(changes.slice(answered).every((c) => !c.working)).toBe(true);
    expect(changes.slice(changes.indexOf(shown[0]!)).some((c) => c.text.includes(':help'))).toBe(false);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('is a status that assistive technology announces, in the interface language', async () => {
    const { page, context, errors } = await openApp(browser, server.url);
    await run(page, ':lang use de-DE');
    await page.getByTestId('input').fill(':model ls');
    await page.getByTestId('submit').click();
    const status = page.getByTestId('output').getByRole('status');
    await status.waitFor({ timeout: 5000 });
    expect(await status.textContent()).toBe(':model ls wird ausgeführt...');
    await status.waitFor({ state: 'detached', timeout: 5000 });
    expect(await page.getByTestId('output').textContent()).toContain('llama3.2');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('never shows for a fast command, not even for a frame', async () => {
    const { page, context, errors } = await openApp(browser, server.url);
    // The first command loads the command runtime and its plugin's code, which on a slow network
    // is a while (the line says so then); the ones after answer at once.
    await run(page, ':help');
    for (const line of [':help', ':theme dark', ':lang ls', ':nosuchcommand']) {
      const seen = await watchOutput(page);
      await run(page, line);
      expect((await seen()).filter((c) => c.working)).toEqual([]);
    }
    expect(errors).toEqual([]);
    await context.close();
  });
});
