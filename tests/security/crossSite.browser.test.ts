// Issue 34, item 1, in Chromium: a logged-in victim opens an attacker's page on another origin
// (127.0.0.2, another site; 127.0.0.1 on another port, the same site), which makes the browser
// ask GET /api/generate_sse with the victim's cookies by a form GET, a link click, a script's
// navigation or an <img>, or POST it by a form or a no-cors fetch. Nothing reaches the fake
// provider and nothing is written; the same navigation to a reading route shows that the
// cookie went with it, and the app's own page still asks with an EventSource.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fakeOpenAI.ts';
import { HAS_CHROME, launchBrowser } from '../e2e/support.ts';
import { startTestServer, type TestServer } from '../server/support.ts';

const SESSION = 1_800_000_000_000;

/** An attacker's site: serves whatever page the test gives it. */
async function attackerSite(host: string): Promise<{ url: string; page(html: string): string; close(): Promise<void> }> {
  const pages = new Map<string, string>();
  const server: Server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(pages.get(req.url ?? '') ?? '<!doctype html><title>attacker</title>');
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const url = `http://${host}:${(server.address() as AddressInfo).port}`;
  return {
    url,
    page(html) {
      const path = `/p${pages.size}`;
      pages.set(path, `<!doctype html><html><body>${html}</body></html>`);
      return `${url}${path}`;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe.skipIf(!HAS_CHROME)('another site makes a logged-in browser ask a question', () => {
  let fake: FakeOpenAI;
  let t: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let crossSite: Awaited<ReturnType<typeof attackerSite>>;
  let sameSite: Awaited<ReturnType<typeof attackerSite>>;
  let victim: number;

  beforeAll(async () => {
    fake = await startFakeOpenAI();
    [t, browser, crossSite, sameSite] = await Promise.all([
      startTestServer('sqlite', { MODEL: 'gpt-4o-mini', OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'sk-system' }),
      launchBrowser(),
      attackerSite('127.0.0.2'),
      attackerSite('127.0.0.1'),
    ]);
    await t.client().post('/api/user/add', { username: 'victim', email: 'victim@example.org', password: 'victim-pass-1234' });
    victim = (await t.server.accounts.byUsername('victim'))!.id;
    context = await browser.newContext();
    // The victim logs in: the login and device cookies are in the browser.
    const login = await context.request.post(`${t.url}/api/user/login`, { data: { username: 'victim', password: 'victim-pass-1234' } });
    expect(login.status()).toBe(200);
    await context.request.get(`${t.url}/api/ping`);
    expect((await context.cookies(t.url)).map((c) => c.name).sort()).toEqual(['auth', 'device']);
    page = await context.newPage();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await Promise.all([crossSite?.close(), sameSite?.close()]);
    await t?.close();
    await fake?.close();
  });

  const count = async (table: 'logs' | 'usage') =>
    Number((await t.server.db.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).where('user_id', '=', victim).executeTakeFirstOrThrow()).n);
  /** The statuses the server logged for requests to `path`, in order. */
  const statuses = (path: string) =>
    t
      .logs()
      .split('\n')
      .filter((line) => line.includes('"msg":"request"') && line.includes(`"path":"${path}"`))
      .map((line) => (JSON.parse(line) as { status: number }).status);
  const written = async () => ({ provider: fake.requests.length, logs: await count('logs'), usage: await count('usage') });
  const ask = (input: string) => `${t.url}/api/generate_sse?${new URLSearchParams({ user_input: input, session: String(SESSION) })}`;
  const formGet = (action: string) => {
    const url = new URL(action);
    const fields = [...url.searchParams].map(([k, v]) => `<input type="hidden" name="${k}" value="${v}">`).join('');
    return `<form id="f" method="GET" action="${url.origin}${url.pathname}">${fields}</form><script>document.getElementById('f').submit()</script>`;
  };

  const attacks: [string, (site: 'cross' | 'same') => { html: string; click?: string }][] = [
    ['a form GET submitted on load', () => ({ html: formGet(ask('Spend my balance (form)')) })],
    ['a link the victim clicks', () => ({ html: `<a id="go" href="${ask('Spend my balance (link)')}">a cat picture</a>`, click: '#go' })],
    ['a script that sets location', () => ({ html: `<script>location.href = ${JSON.stringify(ask('Spend my balance (script)'))}</script>` })],
    ['an <img>', () => ({ html: `<img src="${ask('Spend my balance (img)')}">` })],
    ['a form POST submitted on load', () => ({ html: `<form id="f" method="POST" action="${t.url}/api/generate_sse"><input name="user_input" value="x"><input name="session" value="${SESSION}"></form><script>document.getElementById('f').submit()</script>` })],
    ['a no-cors text/plain POST with the JSON body', () => ({ html: `<script>fetch(${JSON.stringify(`${t.url}/api/generate_sse`)}, { method: 'POST', mode: 'no-cors', credentials: 'include', headers: { 'content-type': 'text/plain' }, body: ${JSON.stringify(JSON.stringify({ user_input: 'x', session: SESSION }))} })</script>` })],
  ];

  for (const [site, label] of [['cross', 'another site (127.0.0.2)'], ['same', 'the same site on another port']] as const) {
    it.each(attacks)(`from ${label}: %s is refused, reaches no provider and writes nothing`, async (_, attack) => {
      const { html, click } = attack(site);
      const before = statuses('/api/generate_sse').length;
      const was = await written();
      await page.goto((site === 'cross' ? crossSite : sameSite).page(html));
      if (click) await page.click(click);
      await expect.poll(() => statuses('/api/generate_sse').length, { timeout: 10_000 }).toBe(before + 1);
      expect(statuses('/api/generate_sse').at(-1)).toBe(403);
      // Past where an answer would have begun.
      await new Promise((r) => setTimeout(r, 200));
      expect(await written()).toEqual(was);
    }, 30_000);
  }

  it("carries the victim's cookie on such a navigation: a reading route shows the account", async () => {
    // So the refusals above are not for want of a login.
    await page.goto(crossSite.page(formGet(`${t.url}/api/user/info?x=1`)));
    await expect.poll(async () => (await page.content()).includes('"username":"victim"'), { timeout: 10_000 }).toBe(true);
  }, 30_000);

  it("still answers the app's own page, asking with an EventSource (GET, same-origin)", async () => {
    await page.goto(`${t.url}/api/ping`);
    const was = await written();
    const events = await page.evaluate(
      (url) =>
        new Promise<string[]>((resolve) => {
          const seen: string[] = [];
          const source = new EventSource(url);
          for (const type of ['text', 'done', 'error']) {
            source.addEventListener(type, () => {
              seen.push(type);
              if (type !== 'text') {
                source.close();
                resolve(seen);
              }
            });
          }
        }),
      ask('Hello from my own page'),
    );
    expect(events.at(-1)).toBe('done');
    expect(events).toContain('text');
    expect(await written()).toEqual({ provider: was.provider + 1, logs: was.logs + 1, usage: was.usage + 1 });
  }, 30_000);
});
