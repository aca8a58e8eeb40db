// Test helpers for a browser's sign-on against a shellchat test server: start (to the
// provider), the provider's form, the callback, and what the page is told afterwards.
import { cookieFetch } from '../../../tests/harness/shellTester.ts';
import { throughLoginForm } from '../../../tests/fixtures/oidcProvider.ts';

export type Browser = ReturnType<typeof cookieFetch>;

export async function startAt(base: string, browser: Browser, query = ''): Promise<string> {
  const res = await browser(`${base}/api/sso/start${query}`, { redirect: 'manual' });
  const location = res.headers.get('location');
  if (res.status !== 302 || !location) throw new Error(`start answered ${res.status}: ${await res.text()}`);
  return location;
}

/** Sends the provider's redirect back to `base` (the callback) in `browser`; the page's next stop. */
export async function callback(base: string, browser: Browser, backUrl: string): Promise<Response> {
  const back = new URL(backUrl);
  return browser(`${base}${back.pathname}${back.search}`, { redirect: 'manual' });
}

/** What the page says once back (GET /api/sso/outcome), and who the browser is logged in as. */
export async function outcome(base: string, browser: Browser): Promise<{ status: number; said: string; username?: string }> {
  const res = await browser(`${base}/api/sso/outcome`);
  const body = (await res.json()) as { success: boolean; message?: string; error?: string; result?: { user: { username: string } } };
  return { status: res.status, said: body.message ?? body.error ?? '', ...(body.result ? { username: body.result.user.username } : {}) };
}

export async function whoAmI(base: string, browser: Browser): Promise<string | undefined> {
  const res = await browser(`${base}/api/user/info`);
  if (res.status !== 200) return undefined;
  return ((await res.json()) as { result: { username: string } }).result.username;
}

/** A whole sign-on as `login`: start, the provider's form, the callback; the outcome. */
export async function signOn(base: string, browser: Browser, login: string, query = '') {
  const back = await throughLoginForm(await startAt(base, browser, query), login);
  const landed = await callback(base, browser, back);
  return { landed, back, ...(await outcome(base, browser)) };
}
