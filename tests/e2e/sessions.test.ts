// Sessions in the browser, against the real server and the fake OpenAI-compatible provider
// (it answers "You said: <input>"): log in, ask two questions, walk the logs with Left and
// Right, branch by sending from the older log, list the sessions, share one with Ctrl-click on
// the model-info line, and attach it as another user in another browser context; and the same
// walk and branch for an anonymous visitor, who owns its sessions through the device cookie.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fakeOpenAI.ts';
import { HAS_CHROME, launchBrowser, openApp, run, startServer, type RunningServer } from './support.ts';

const PASSWORD = 'sessions-password-1';

describe.skipIf(!HAS_CHROME)('sessions and logs in the browser', () => {
  let fake: FakeOpenAI;
  let server: RunningServer;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    fake = await startFakeOpenAI();
    [server, browser] = await Promise.all([
      startServer({ MODEL: 'gpt-4o-mini', OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'sk-e2e', ROOT_PASSWORD: 'root-password-1' }),
      launchBrowser(),
    ]);
  });
  afterAll(async () => {
    await Promise.all(contexts.splice(0).map((c) => c.close().catch(() => undefined)));
    await browser?.close();
    await server?.stop();
    await fake?.close();
  });

  async function signedIn(username: string): Promise<{ page: Page; context: BrowserContext; errors: string[] }> {
    const opened = await openApp(browser, server.url);
    contexts.push(opened.context);
    await opened.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    expect(await run(opened.page, `:user add ${username} ${username}@example.org ${PASSWORD}`)).toBe(`User ${username} added.Log in with :login ${username} <password>.`);
    expect(await run(opened.page, `:login ${username} ${PASSWORD}`)).toBe(`Logged in as ${username}.`);
    return opened;
  }

  const output = (page: Page) => page.getByTestId('output').textContent();
  const setting = async (page: Page, key: string) => (JSON.parse((await run(page, ':set all')) || '{}') as Record<string, unknown>)[key];

  /** Presses a key in the empty, focused input, and waits until the output shows `expected`. */
  async function press(page: Page, key: string, expected: string) {
    const input = page.getByTestId('input');
    await input.fill('');
    await input.focus();
    await input.press(key);
    await expect.poll(() => output(page), { timeout: 5000 }).toContain(expected);
  }

  it('walks the logs, branches from an older one, lists, shares with Ctrl-click and attaches from another user', async () => {
    const ada = await signedIn('ada');
    const page = ada.page;
    expect(await run(page, 'What is a shell?')).toContain('You said: What is a shell?');
    expect(await page.getByTestId('model-info').textContent()).toBe('gpt-4o-mini');
    expect(await run(page, 'And a terminal?')).toContain('You said: And a terminal?');
    const session = Number(await setting(page, 'session'));

    // Left: the first log (input and answer, model-info line); Left again: nothing older.
    await press(page, 'ArrowLeft', 'You said: What is a shell?');
    expect(await output(page)).toContain('What is a shell?');
    expect(await output(page)).not.toContain('And a terminal?');
    expect(await page.getByTestId('model-info').textContent()).toBe('gpt-4o-mini');
    await press(page, 'ArrowLeft', 'No log found.');
    // The first log stays in view under the message, and Right goes to the one after it.
    expect(await output(page)).toContain('You said: What is a shell?');
    await press(page, 'ArrowRight', 'You said: And a terminal?');
    await press(page, 'ArrowRight', 'No log found.');

    // Back to the first log and send from there: a branch that remembers only the first turn.
    await press(page, 'ArrowLeft', 'You said: What is a shell?');
    expect(await run(page, 'And a console?')).toContain('You said: And a console?');
    const users = (fake.requests.at(-1)!.body.messages as { role: string; content: unknown }[]).filter((m) => m.role === 'user').map((m) => m.content);
    expect(users).toEqual(['What is a shell?', 'And a console?']);
    const branch = Number(await setting(page, 'session'));
    expect(branch).not.toBe(session);
    const log = await run(page, ':log');
    expect(log).toContain('What is a shell?');
    expect(log).toContain('And a console?');
    expect(log).not.toContain('And a terminal?');

    const list = await run(page, ':session ls');
    expect(list).toContain(String(session));
    expect(list).toContain(`*${branch}`);
    expect(list).toContain('And a console?');

    // Another user cannot attach Ada's sessions before she shares one.
    const bob = await signedIn('bob');
    expect(await run(bob.page, `:session attach ${branch}`)).toBe('No session found.');

    // Ctrl/Cmd-click on the model-info line shares the session and copies its attach command.
    expect(await run(page, 'One more thing')).toContain('You said: One more thing');
    await page.getByTestId('model-info').click({ modifiers: ['ControlOrMeta'] });
    await expect.poll(() => output(page)).toContain('Copied the attach command.');
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(`:session attach ${branch}`);

    const attached = await run(bob.page, copied);
    expect(attached).toContain(`Session ${branch} attached.`);
    expect(attached).toContain('And a console?');
    expect(attached).toContain('One more thing');
    expect(Number(await setting(bob.page, 'session'))).toBe(branch);
    // The unshared trunk stays private.
    expect(await run(bob.page, `:attach ${session}`)).toBe('No session found.');
    expect(await run(bob.page, `:attach ${branch}`)).toContain(`Session ${branch} attached.`);

    // What Bob sends continues in a session of his own; Ada's stays as it was.
    expect(await run(bob.page, 'Bob was here')).toContain('You said: Bob was here');
    expect(Number(await setting(bob.page, 'session'))).not.toBe(branch);
    expect(await run(bob.page, ':log')).toContain('Bob was here');
    const adaSession = await run(page, ':session');
    expect(adaSession).not.toContain('Bob was here');
    expect(await run(page, `:attach ${Number(await setting(bob.page, 'session'))}`)).toBe('No session found.');

    // Up walks Ada's own sessions.
    await press(page, 'ArrowUp', `Session ${session} attached.`);
    await press(page, 'ArrowUp', 'No previous session.');
    expect([...ada.errors, ...bob.errors]).toEqual([]);
  });

  it('an anonymous visitor walks the logs of its own session and branches, but needs a login for other sessions', async () => {
    const { page, context, errors } = await openApp(browser, server.url);
    contexts.push(context);
    expect(await run(page, 'First question')).toContain('You said: First question');
    expect(await run(page, 'Second question')).toContain('You said: Second question');
    const session = Number(await setting(page, 'session'));

    await press(page, 'ArrowLeft', 'You said: First question');
    expect(await output(page)).not.toContain('Second question');
    await press(page, 'ArrowLeft', 'No log found.');
    await press(page, 'ArrowRight', 'You said: Second question');
    // k does the same with the input unfocused (Esc on the empty input blurs it).
    await press(page, 'ArrowRight', 'No log found.');
    await page.getByTestId('input').press('Escape');
    await page.keyboard.press('k');
    await expect.poll(() => output(page), { timeout: 5000 }).toContain('You said: First question');

    // Sending from the older log branches, as it does for a user: memory holds the first turn only.
    expect(await run(page, 'A different path')).toContain('You said: A different path');
    const users = (fake.requests.at(-1)!.body.messages as { role: string; content: unknown }[]).filter((m) => m.role === 'user').map((m) => m.content);
    expect(users).toEqual(['First question', 'A different path']);
    expect(Number(await setting(page, 'session'))).not.toBe(session);
    expect(await run(page, ':session')).toContain(String(session));

    await press(page, 'ArrowUp', 'Please log in to view session history.');
    expect(errors).toEqual([]);
  });
});
