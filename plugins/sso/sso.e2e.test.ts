// Signing on in Chromium through a real OpenID provider's login form (oidc-provider on
// loopback): `:login sso` goes to the provider and comes back logged in, the shell saying who;
// the second sign-on logs in the same account; group claims map and a removed group is lost;
// an unverified e-mail does not link; logout ends shellchat's session; closed sign-up refuses.
import { afterAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { startOidcProvider } from '../../tests/fixtures/oidcProvider.ts';
import { freePort, HAS_CHROME, openApp, run, useServerAndBrowser } from '../../tests/e2e/support.ts';

const op = await startOidcProvider();
const ports = [await freePort(), await freePort()];
for (const port of ports) op.redirectUris.add(`http://127.0.0.1:${port}/api/sso/callback`);
const env = (port: number, extra: Record<string, string> = {}) => ({
  PORT: String(port),
  ROOT_PASSWORD: 'root-password-1',
  OIDC_ISSUER: op.issuer,
  OIDC_CLIENT_ID: op.clientId,
  OIDC_CLIENT_SECRET: op.clientSecret,
  OIDC_NAME: 'corp',
  OIDC_SCOPES: 'openid email profile groups',
  OIDC_GROUP_RULES: 'admins=role:super_user',
  ...extra,
});

afterAll(async () => op.close());

/** Types `:login sso`, signs `login` in at the provider's form, consents, and returns what the shell says back home. */
async function signOn(page: Page, login: string): Promise<string> {
  await page.getByTestId('input').fill(':login sso');
  await page.getByTestId('submit').click();
  await page.waitForURL(`${op.issuer}/**`);
  await page.locator('input[name=login]').fill(login);
  await page.locator('input[name=password]').fill('any password');
  await page.locator('button[type=submit]').click();
  // The consent page the first time this browser signs on at the provider; then home.
  const consent = page.locator('input[name=prompt][value=consent]');
  const home = (url: URL) => url.origin !== op.issuer && url.pathname === '/';
  await Promise.race([page.waitForURL(home), consent.waitFor({ state: 'attached' })]);
  if (!home(new URL(page.url()))) await page.locator('button[type=submit]').click();
  await page.waitForURL(home);
  await page.waitForSelector('[data-testid=input]');
  const output = page.getByTestId('output');
  await expect.poll(async () => (await output.textContent()) ?? '', { timeout: 10_000 }).toMatch(/Logged in as|sign-on|identity provider|verified/);
  return (await output.textContent()) ?? '';
}

describe.skipIf(!HAS_CHROME)('signing on in the browser', { timeout: 90_000 }, () => {
  const app = useServerAndBrowser(env(ports[0]!));
  const contexts: BrowserContext[] = [];
  afterAll(async () => {
    await Promise.all(contexts.splice(0).map((c) => c.close().catch(() => undefined)));
  });
  const open = async () => {
    const opened = await openApp(app.browser, app.server.url);
    contexts.push(opened.context);
    return opened;
  };

  it('creates the account at the first sign-on, logs in at the second, and says who', async () => {
    op.people.set('ada-sub', { email: 'ada@example.org', email_verified: true, preferred_username: 'ada', groups: ['admins'] });
    const first = await open();
    expect(await signOn(first.page, 'ada-sub')).toContain('Logged in as ada through corp.');
    // The address bar is the app's again, without the marker.
    expect(new URL(first.page.url()).search).toBe('');
    const table = await run(first.page, ':user');
    expect(table).toContain('ada@example.org');
    expect(table).toContain('super_user');
    // The account table names the linked identity.
    expect(table).toContain('Sign-on identitycorp (ada@example.org)');
    expect(await run(first.page, ':user sso')).toContain('corp');

    const second = await open();
    expect(await signOn(second.page, 'ada-sub')).toContain('Logged in as ada through corp.');
    expect(first.errors).toEqual([]);

    // The Documentation page names the provider the operator configured.
    await second.page.getByTestId('view-toggle').click();
    const more = second.page.getByTestId('page-documentation').locator('ul.more-features');
    await expect.poll(async () => (await more.textContent()) ?? '', { timeout: 10_000 }).toContain('Configured on this server: corp.');
  });

  it('takes the role back at the next sign-on when the provider removed the group', async () => {
    op.people.set('ada-sub', { email: 'ada@example.org', email_verified: true, preferred_username: 'ada', groups: [] });
    const { page } = await open();
    expect(await signOn(page, 'ada-sub')).toContain('Logged in as ada through corp.');
    const table = await run(page, ':user');
    expect(table).not.toContain('super_user');
  });

  it('does not link an unverified e-mail to the account that has it', async () => {
    op.people.set('eve-sub', { email: 'ada@example.org', email_verified: false, preferred_username: 'eve' });
    const { page } = await open();
    expect(await signOn(page, 'eve-sub')).toContain('has not verified the e-mail address ada@example.org');
    expect(await run(page, ':user')).toContain('Please login.');
  });

  it("logs out: shellchat's session ends", async () => {
    const { page, context } = await open();
    await signOn(page, 'ada-sub');
    expect(await run(page, ':logout')).toContain('Logged out.');
    const status = await page.evaluate(async () => (await fetch('/api/user/info')).status);
    expect(status).toBe(401);
    expect((await context.cookies()).some((c) => c.name === 'auth')).toBe(false);
  });
});

describe.skipIf(!HAS_CHROME)('signing on in the browser, sign-up closed', { timeout: 90_000 }, () => {
  const app = useServerAndBrowser(env(ports[1]!, { OIDC_SIGNUP: 'false' }));
  it('refuses a first sign-on with no account and says what to do', async () => {
    op.people.set('new-sub', { email: 'new@example.org', email_verified: true });
    const { page, context } = await openApp(app.browser, app.server.url);
    expect(await signOn(page, 'new-sub')).toContain('sign-up through the identity provider is closed');
    expect(await run(page, ':user')).toContain('Please login.');
    await context.close();
  });
});
