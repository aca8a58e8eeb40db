// The paths a newcomer takes, walked as a person walks them (issue 19 part 1, issue 27 bug 4):
// chat anonymously, sign up and log in, and the conversation goes on in the account; log out,
// or delete the account, and ask again; log in on a second browser and walk the sessions and
// logs; attach a shared session, log in, and ask; change the user in another tab. None of
// these may answer an error a person cannot act on ('Session not found.' did).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fakeOpenAI.ts';
import { HAS_CHROME, launchBrowser, openApp, run, startServer, type RunningServer } from './support.ts';

const PASSWORD = 'newcomer-password-1';

describe.skipIf(!HAS_CHROME)('a newcomer: chat, sign up, log in, and go on', () => {
  let fake: FakeOpenAI;
  let server: RunningServer;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    fake = await startFakeOpenAI();
    [server, browser] = await Promise.all([
      startServer({ MODEL: 'gpt-4o-mini', OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'sk-e2e' }),
      launchBrowser(),
    ]);
  });
  afterAll(async () => {
    await Promise.all(contexts.splice(0).map((c) => c.close().catch(() => undefined)));
    await browser?.close();
    await server?.stop();
    await fake?.close();
  });

  async function open(): Promise<{ page: Page; context: BrowserContext; errors: string[] }> {
    const opened = await openApp(browser, server.url);
    contexts.push(opened.context);
    return opened;
  }

  const output = (page: Page) => page.getByTestId('output').textContent();
  const setting = async (page: Page, key: string) => (JSON.parse((await run(page, ':set all')) || '{}') as Record<string, unknown>)[key];
  /** The user messages of the provider's last request: what the model remembered. */
  const remembered = () =>
    (fake.requests.at(-1)!.body.messages as { role: string; content: unknown }[]).filter((m) => m.role === 'user').map((m) => m.content);

  async function press(page: Page, key: string, expected: string) {
    const input = page.getByTestId('input');
    await input.fill('');
    await input.focus();
    await input.press(key);
    await expect.poll(() => output(page), { timeout: 5000 }).toContain(expected);
  }

  it('keeps the anonymous conversation across sign-up and login, and the account owns it', async () => {
    const { page, errors } = await open();
    expect(await run(page, 'What is a pipe?')).toContain('You said: What is a pipe?');
    const session = Number(await setting(page, 'session'));

    expect(await run(page, `:user add newbie newbie@example.org ${PASSWORD}`)).toBe('User newbie added.Log in with :login newbie <password>.');
    expect(await run(page, `:login newbie ${PASSWORD}`)).toBe('Logged in as newbie.');
    // The same session goes on, and the model remembers the question asked before sign-up.
    expect(await run(page, 'And a redirect?')).toContain('You said: And a redirect?');
    expect(remembered()).toEqual(['What is a pipe?', 'And a redirect?']);
    expect(Number(await setting(page, 'session'))).toBe(session);

    // The account owns it now: it is in the session list, and Left walks its logs.
    expect(await run(page, ':session ls')).toContain(String(session));
    await press(page, 'ArrowLeft', 'You said: What is a pipe?');
    await press(page, 'ArrowRight', 'You said: And a redirect?');

    // Log out, then ask: a fresh anonymous conversation that remembers nothing of the account's.
    expect(await run(page, ':logout')).toBe('Logged out.');
    expect(await run(page, 'Who am I?')).toContain('You said: Who am I?');
    expect(remembered()).toEqual(['Who am I?']);
    expect(Number(await setting(page, 'session'))).not.toBe(session);

    // Log in again: the account's session list still has the first conversation.
    expect(await run(page, `:login newbie ${PASSWORD}`)).toBe('Logged in as newbie.');
    expect(await run(page, 'Still here?')).toContain('You said: Still here?');
    expect(await run(page, ':session ls')).toContain(String(session));

    // Delete the account, then ask: an anonymous conversation again, no error.
    expect(await run(page, ':user del newbie')).toBe('User removed.');
    expect(await run(page, 'After the account')).toContain('You said: After the account');
    expect(remembered()).toEqual(['After the account']);
    expect(errors).toEqual([]);
  });

  it('logs in on a second browser and walks the sessions with Up/Down and the logs with Left/Right', async () => {
    const first = await open();
    expect(await run(first.page, `:user add roamer roamer@example.org ${PASSWORD}`)).toBe('User roamer added.Log in with :login roamer <password>.');
    expect(await run(first.page, `:login roamer ${PASSWORD}`)).toBe('Logged in as roamer.');
    expect(await run(first.page, 'Question on the desk')).toContain('You said: Question on the desk');
    expect(await run(first.page, 'Second on the desk')).toContain('You said: Second on the desk');
    const deskSession = Number(await setting(first.page, 'session'));

    const second = await open();
    expect(await run(second.page, `:login roamer ${PASSWORD}`)).toBe('Logged in as roamer.');
    // A session with nothing in it yet has no log to go to: that is what Left says.
    await press(second.page, 'ArrowLeft', 'No log found.');
    await press(second.page, 'ArrowUp', `Session ${deskSession} attached.`);
    expect(await output(second.page)).toContain('Second on the desk');
    await press(second.page, 'ArrowLeft', 'You said: Question on the desk');
    await press(second.page, 'ArrowRight', 'You said: Second on the desk');
    // Asking from the newest log goes on in the same session, from the laptop.
    expect(await run(second.page, 'Third, from the laptop')).toContain('You said: Third, from the laptop');
    expect(remembered()).toEqual(['Question on the desk', 'Second on the desk', 'Third, from the laptop']);
    expect(Number(await setting(second.page, 'session'))).toBe(deskSession);
    expect([...first.errors, ...second.errors]).toEqual([]);
  });

  it('attaches a shared session anonymously, logs in, and asks: a branch of its own', async () => {
    const owner = await open();
    expect(await run(owner.page, `:user add sharer sharer@example.org ${PASSWORD}`)).toBe('User sharer added.Log in with :login sharer <password>.');
    expect(await run(owner.page, `:login sharer ${PASSWORD}`)).toBe('Logged in as sharer.');
    expect(await run(owner.page, 'Shared question')).toContain('You said: Shared question');
    const shared = Number(await setting(owner.page, 'session'));
    expect(await run(owner.page, `:session share`)).toContain('Session shared.');

    const visitor = await open();
    expect(await run(visitor.page, `:session attach ${shared}`)).toContain(`Session ${shared} attached.`);
    expect(await run(visitor.page, `:user add reader reader@example.org ${PASSWORD}`)).toBe('User reader added.Log in with :login reader <password>.');
    expect(await run(visitor.page, `:login reader ${PASSWORD}`)).toBe('Logged in as reader.');
    expect(await run(visitor.page, 'A reply of my own')).toContain('You said: A reply of my own');
    expect(remembered()).toEqual(['Shared question', 'A reply of my own']);
    const branch = Number(await setting(visitor.page, 'session'));
    expect(branch).not.toBe(shared);
    expect(await run(visitor.page, ':session ls')).toContain(String(branch));
    // The owner's session is as it was.
    expect(await run(owner.page, ':log')).not.toContain('A reply of my own');
    expect([...owner.errors, ...visitor.errors]).toEqual([]);
  });

  it('another tab logs out or in as someone else: this tab goes on in a session of the new user', async () => {
    const { context, page, errors } = await open();
    expect(await run(page, `:user add tabby tabby@example.org ${PASSWORD}`)).toBe('User tabby added.Log in with :login tabby <password>.');
    expect(await run(page, `:user add other other@example.org ${PASSWORD}`)).toBe('User other added.Log in with :login other <password>.');
    expect(await run(page, `:login tabby ${PASSWORD}`)).toBe('Logged in as tabby.');
    expect(await run(page, 'Tabby asks')).toContain('You said: Tabby asks');

    const tabB = await context.newPage();
    await tabB.goto(server.url);
    await tabB.waitForSelector('[data-testid=input]');
    expect(await run(tabB, ':logout')).toBe('Logged out.');

    // Tab A follows: the next question is anonymous, in a fresh session.
    expect(await run(page, 'Asked after the other tab logged out')).toContain('You said: Asked after the other tab logged out');
    expect(remembered()).toEqual(['Asked after the other tab logged out']);

    expect(await run(tabB, `:login other ${PASSWORD}`)).toBe('Logged in as other.');
    expect(await run(page, 'Asked as other')).toContain('You said: Asked as other');
    // The anonymous turn this browser had just made went into the account with the login.
    expect(remembered()).toEqual(['Asked after the other tab logged out', 'Asked as other']);
    expect(await run(page, ':user')).toContain('other');

    // Log in as tabby again in tab B: tab A's next question is tabby's, and remembers none of other's.
    expect(await run(tabB, `:login tabby ${PASSWORD}`)).toBe('Logged in as tabby.');
    expect(await run(page, 'Tabby again')).toContain('You said: Tabby again');
    expect(remembered()).toEqual(['Tabby again']);
    expect(await output(page)).not.toContain('Session not found.');
    expect(errors).toEqual([]);
  });
});
