// A visitor reads a page for their next question (`:web open`), then signs on at an OpenID
// provider (`:login sso`): the page is left for the provider's form and come back to, and the
// page's marker is in the input again, as after a password login; the question carries it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fakeOpenAI.ts';
import { startOidcProvider, type TestProvider } from '../fixtures/oidcProvider.ts';
import { startFakeWeb, type FakeWeb } from '../../plugins/web/fixtures/site.ts';
import { freePort, HAS_CHROME, launchBrowser, openApp, run, startServer, type RunningServer } from './support.ts';

describe.skipIf(!HAS_CHROME)('a page read, then a sign-on', () => {
  let op: TestProvider;
  let fake: FakeOpenAI;
  let site: FakeWeb;
  let server: RunningServer;
  let browser: Browser;
  beforeAll(async () => {
    [op, fake, site] = await Promise.all([startOidcProvider(), startFakeOpenAI({ models: ['gpt-demo'] }), startFakeWeb()]);
    const port = await freePort();
    op.redirectUris.add(`http://127.0.0.1:${port}/api/sso/callback`);
    op.people.set('ada-sub', { email: 'ada@example.org', email_verified: true, preferred_username: 'ada' });
    [server, browser] = await Promise.all([
      startServer({
        PORT: String(port),
        MODEL: 'gpt-demo',
        OPENAI_BASE_URL: fake.url,
        OPENAI_API_KEY: 'sk-test',
        EGRESS_ALLOW_HOSTS: `localhost:${site.port}`,
        OIDC_ISSUER: op.issuer,
        OIDC_CLIENT_ID: op.clientId,
        OIDC_CLIENT_SECRET: op.clientSecret,
        OIDC_NAME: 'corp',
      }),
      launchBrowser(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await Promise.all([op?.close(), fake?.close(), site?.close()]);
  });

  it('keeps the marker of the page through the provider and back, and the question carries the page', async () => {
    const { page, errors } = await openApp(browser, server.url);
    const input = page.getByTestId('input');
    const marker = `+page[${site.origin}/article/rust]`;
    expect(await run(page, `:web open ${site.origin}/article/rust`)).toContain('Attached to your next question: Async fn in traits');
    await input.fill(':login sso');
    await page.getByTestId('submit').click();
    await page.waitForURL(`${op.issuer}/**`);
    await page.locator('input[name=login]').fill('ada-sub');
    await page.locator('input[name=password]').fill('any password');
    await page.locator('button[type=submit]').click();
    const home = (url: URL) => url.origin !== op.issuer && url.pathname === '/';
    const consent = page.locator('input[name=prompt][value=consent]');
    await Promise.race([page.waitForURL(home), consent.waitFor({ state: 'attached' })]);
    if (!home(new URL(page.url()))) await page.locator('button[type=submit]').click();
    await page.waitForURL(home);
    await expect.poll(async () => (await page.getByTestId('output').textContent()) ?? '', { timeout: 10_000 }).toContain('Logged in as ada');
    expect(await input.inputValue()).toBe(`${marker} `);
    // The question with the marker gets the page's text.
    await run(page, `${marker} What changed?`);
    const sent = JSON.stringify(fake.requests.at(-1)!.body.messages);
    expect(sent).toContain('Async fn in traits');
    expect(await input.inputValue()).toBe('');
    expect(errors).toEqual([]);
  }, 60_000);
});
