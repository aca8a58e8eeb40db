// When the server goes away after the page loaded: the commands that need no server keep
// working, because the page loads every plugin's code (and the chat's) once it is idle; the
// lists it cannot give, and questions, say 'You are offline.' in the interface's language; a
// command whose code could not load says so in words, not with the browser's "Failed to fetch
// dynamically imported module: <url>", and a question no longer fails without a word.
import { describe, expect, it } from 'vitest';
import { pluginChunkName } from '../../src/core/pluginLayout.ts';
import { HAS_CHROME, openApp, run, useServerAndBrowser } from './support.ts';

const LOAD_FAILED = 'Part of the app could not load (the server may be down, or updated since this page opened). Reload the page to try again.';

describe.skipIf(!HAS_CHROME)('without the server', () => {
  const app = useServerAndBrowser();

  it('still runs the local commands of plugins never used before the server went away', async () => {
    const { page, context, errors } = await openApp(app.browser, app.server.url);
    // Idle: the page has fetched the rest of its code.
    await page.waitForLoadState('networkidle');
    await context.route('**/*', (route) => route.abort('connectionrefused'));
    const help = await run(page, ':help');
    expect(help).toContain(':lang use <code>');
    // Other plugins' commands, with their descriptions (their translations loaded too).
    expect(help).toContain(':model ls');
    expect(help).toContain('List user, group, system and local (Ollama) models');
    expect(await run(page, ':info')).toContain('memLength');
    expect(await run(page, ':stats on')).toBe('Stats on.');
    expect(await run(page, ':voice')).not.toContain('could not load');
    // A list the server cannot give: offline, not 'No available model found.'.
    expect(await run(page, ':model ls')).toBe('You are offline.');
    // Completion too.
    await page.getByTestId('input').fill(':theme d');
    await page.getByTestId('input').press('Tab');
    await expect.poll(() => page.getByTestId('input').inputValue()).toBe(':theme dark ');
    expect(errors).toEqual([]);
    await context.close();
  });

  it("says 'You are offline.' in the interface's language, for a list and for a question", async () => {
    const { page, context } = await openApp(app.browser, app.server.url);
    expect(await run(page, ':lang use zh-CN')).toContain('zh-CN');
    await page.waitForLoadState('networkidle');
    await context.route('**/*', (route) => route.abort('connectionrefused'));
    expect(await run(page, ':model ls')).toBe('你已离线。');
    // A first question: the chat's code was loaded while idle too.
    expect(await run(page, 'hello')).toBe('你已离线。');
    await context.close();
  });

  it('says in words that a command could not load, and that it is not available offline', async () => {
    // Plugin code that cannot be fetched, from the start (a deploy replaced the hashed files).
    const { page, context } = await openApp(app.browser, app.server.url);
    await context.route(new RegExp(`/assets/(${pluginChunkName('[^/]+')}|chat)-[^/]*\\.js$`), (route) => route.abort('connectionrefused'));
    await page.reload();
    await page.waitForSelector('[data-testid=input]');
    expect(await run(page, ':info')).toBe(LOAD_FAILED);
    expect(await run(page, 'a question')).toBe(LOAD_FAILED);
    // Offline as the browser sees it: the command is not available offline.
    await context.setOffline(true);
    expect(await run(page, ':info')).toBe('`:info` command is not available offline.');
    expect(await run(page, 'a question')).toBe('You are offline.');
    await context.close();
  });
});
