// The web plugin in Chromium against the real built app and server: `:web "query"` shows the
// results as plain text (a result's markup stays text), `:web open` attaches a page of prompt
// injection that runs nothing, a slow search's own progress line (without the shell's working
// line besides), a read page's marker in the input (kept through sign-up and
// login, carried by the question or deleted before it), and a model-driven turn: the fake model calls web_search, then
// web_fetch of the first result, and its answer shows numbered citations linking to the pages.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startFakeOpenAI, type FakeOpenAI, type RecordedRequest } from '../../tests/fixtures/fakeOpenAI.ts';
import { HAS_CHROME, launchBrowser, openApp, run, startServer, watchOutput, type RunningServer } from '../../tests/e2e/support.ts';
import { startFakeWeb, type FakeWeb } from './fixtures/site.ts';

/** The text of the tool results in a request the fake model received. */
const toolText = (req: RecordedRequest) =>
  (req.body.messages as { role: string; content: unknown }[])
    .filter((m) => m.role === 'tool')
    .map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)))
    .join('\n');

describe.skipIf(!HAS_CHROME)('web', () => {
  let fake: FakeOpenAI;
  let site: FakeWeb;
  let server: RunningServer;
  let browser: Browser;
  beforeAll(async () => {
    [fake, site] = await Promise.all([startFakeOpenAI({ models: ['gpt-demo'] }), startFakeWeb()]);
    [server, browser] = await Promise.all([
      startServer({ MODEL: 'gpt-demo', OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'sk-test', SEARXNG_URL: site.searxngUrl, EGRESS_ALLOW_HOSTS: `localhost:${site.port}` }),
      launchBrowser(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await Promise.all([fake?.close(), site?.close()]);
  });

  it('lists results as text and attaches a hostile page that runs nothing', async () => {
    const { page, context, errors } = await openApp(browser, server.url);
    const out = await run(page, ':web "rust async traits"');
    expect(out).toContain('Async fn in traits stabilized');
    // The result titled '<script>alert(1)</script>Cooking' shows as its text alone.
    expect(out).toContain('alert(1) Cooking');
    expect(await run(page, ':web open 3')).toMatch(/Attached to your next question: Totally normal page/);
    const output = page.getByTestId('output');
    expect(await output.locator('img, script, iframe').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(errors).toEqual([]);
    await context.close();
  });

  it("shows its own progress line during a slow search, and not the shell's working line besides", async () => {
    const { page, context, errors } = await openApp(browser, server.url);
    // The plugin's code loaded first (on a slow network that may take past the working line's delay).
    await run(page, ':web');
    site.searchDelayMs = 1000;
    try {
      const seen = await watchOutput(page);
      expect(await run(page, ':web "rust async traits"')).toContain('Async fn in traits stabilized');
      const changes = await seen();
      expect(changes.some((c) => c.text === 'Searching the web...' && changes.at(-1)!.at - c.at >= 700)).toBe(true);
      expect(changes.filter((c) => c.working)).toEqual([]);
    } finally {
      site.searchDelayMs = 0;
    }
    expect(errors).toEqual([]);
    await context.close();
  });

  it('puts a read page in the input as a marker, through sign-up and login, which the question carries or leaves out', async () => {
    const { page, context, errors } = await openApp(browser, server.url);
    const input = page.getByTestId('input');
    const marker = `+page[${site.origin}/article/rust]`;
    await run(page, ':web "rust async traits"');
    expect(await run(page, ':web open 1')).toContain('Attached to your next question: Async fn in traits');
    await expect.poll(() => input.inputValue()).toBe(`${marker} `);
    // Deleted to type a command (a visitor signing up, then logging in), it comes back after each.
    expect(await run(page, ':user add reader reader@example.org hunter2hunter2')).toContain('User reader added.');
    expect(await input.inputValue()).toBe(`${marker} `);
    expect(await run(page, ':login reader hunter2hunter2')).toContain('Logged in as reader.');
    expect(await input.inputValue()).toBe(`${marker} `);
    // The question typed after it carries the page, as the account's now.
    fake.reply({ text: 'Traits are async now.' });
    await input.press('End');
    await input.pressSequentially('What changed?');
    await page.getByTestId('submit').click();
    await expect.poll(() => page.getByTestId('output').textContent(), { timeout: 15_000 }).toContain('Traits are async now.');
    const system = (req: RecordedRequest) => (req.body.messages as { role: string; content: string }[]).filter((m) => m.role === 'system').map((m) => m.content).join('\n');
    expect(system(fake.requests.at(-1)!)).toContain('Async functions in traits were stabilized in Rust 1.75');
    expect(await input.inputValue()).toBe('');
    // Read again, and deleted before asking as an attached file's marker is: the question goes without it.
    await run(page, ':web open 1');
    await expect.poll(() => input.inputValue()).toBe(`${marker} `);
    fake.reply({ text: 'Without the page.' });
    await input.fill('Anything new?');
    await page.getByTestId('submit').click();
    await expect.poll(() => page.getByTestId('output').textContent(), { timeout: 15_000 }).toContain('Without the page.');
    expect(system(fake.requests.at(-1)!)).not.toContain('Rust 1.75');
    expect(await input.inputValue()).toBe('');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('brings a read page\'s marker back after a reload while its read still waits, and the question carries it', async () => {
    const { page, context, errors } = await openApp(browser, server.url);
    const input = page.getByTestId('input');
    const marker = `+page[${site.origin}/article/rust]`;
    await run(page, `:web open ${site.origin}/article/rust`);
    await expect.poll(() => input.inputValue()).toBe(`${marker} `);
    await page.reload();
    await expect.poll(() => input.inputValue(), { timeout: 15_000 }).toBe(`${marker} `);
    fake.reply({ text: 'Read after a reload.' });
    await input.press('End');
    await input.pressSequentially('What changed?');
    await page.getByTestId('submit').click();
    await expect.poll(() => page.getByTestId('output').textContent(), { timeout: 15_000 }).toContain('Read after a reload.');
    const system = (fake.requests.at(-1)!.body.messages as { role: string; content: string }[]).filter((m) => m.role === 'system').map((m) => m.content).join('\n');
    expect(system).toContain('Async functions in traits were stabilized in Rust 1.75');
    // Read again, then taken by a question from another tab of the same browser: a reload finds
    // its read no longer waiting, and leaves the marker out.
    await run(page, `:web open ${site.origin}/article/rust`);
    await expect.poll(() => input.inputValue()).toBe(`${marker} `);
    const other = await context.newPage();
    await other.goto(server.url);
    fake.reply({ text: 'Taken in the other tab.' });
    await other.getByTestId('input').fill(`${marker} What changed?`);
    await other.getByTestId('submit').click();
    await expect.poll(() => other.getByTestId('output').textContent(), { timeout: 15_000 }).toContain('Taken in the other tab.');
    const checked = page.waitForResponse((r) => r.url().endsWith('/api/web/reads'));
    await page.reload();
    expect((await checked).ok()).toBe(true);
    // Time for the answer to reach the input (the first reload's came in as fast), then none did.
    await page.waitForTimeout(1000);
    expect(await input.inputValue()).toBe('');
    expect(errors).toEqual([]);
    await context.close();
  });

  it("+web[query] on a server with no search backend says :web's line in the page's language, and the question stays in the input", async () => {
    const bare = await startServer({ MODEL: 'gpt-demo', OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'sk-test' });
    try {
      const { page, context, errors } = await openApp(browser, bare.url);
      const asked = fake.requests.length;
      const question = 'What is new? +web[rust 1.75]';
      expect(await run(page, question)).toBe('Web search is not configured on this server (set SEARXNG_URL or BRAVE_SEARCH_API_KEY).');
      expect(await page.getByTestId('input').inputValue()).toBe(question);
      await run(page, ':lang use de-DE');
      expect(await run(page, question)).toBe('Die Websuche ist auf diesem Server nicht eingerichtet (SEARXNG_URL oder BRAVE_SEARCH_API_KEY setzen).');
      expect(fake.requests.length).toBe(asked);
      expect(errors).toEqual([]);
      await context.close();
    } finally {
      await bare.stop();
    }
  });

  it('the model searches, reads, and cites numbered sources that link to the pages', async () => {
    const { page, context, errors } = await openApp(browser, server.url);
    expect(await run(page, ':function use web_search')).toBe('Function web_search is in use.');
    expect(await run(page, ':function use web_fetch')).toBe('Function web_fetch is in use.');
    fake.reply({ toolCalls: [{ name: 'web_search', arguments: '{"query":"rust async traits"}' }] });
    // A model reads the first result's URL from the search results, then cites what it read.
    fake.reply((req) => ({ toolCalls: [{ name: 'web_fetch', arguments: JSON.stringify({ url: /\[1\] .*? (http\S+)/.exec(toolText(req))![1] }) }] }));
    fake.reply((req) => {
      const tools = toolText(req);
      const read = /\[1\] Web page "[^"]*" (http\S+)/.exec(tools)![1]!;
      const pdf = /\[2\] .*? (http\S+)/.exec(tools)![1]!;
      return { text: `Async fn in traits is stable since Rust 1.75 [1](${read}); a PDF explains it too [2](${pdf}).` };
    });
    await page.getByTestId('input').fill('Are async traits stable?');
    await page.getByTestId('submit').click();
    const output = page.getByTestId('output');
    await expect.poll(async () => output.textContent(), { timeout: 15_000 }).toContain('a PDF explains it too');
    // The answer's markdown renderer loads lazily (plain text shows meanwhile): wait for its links.
    const links = () => output.locator('a').evaluateAll((as) => as.map((a) => ({ text: a.textContent, href: a.getAttribute('href') })));
    await expect
      .poll(links, { timeout: 15_000 })
      .toEqual(
        expect.arrayContaining([
          { text: '1', href: `${site.origin}/article/rust` },
          { text: '2', href: `${site.origin}/doc.pdf` },
        ]),
      );
    // The model was offered exactly the two functions, and read the page's text.
    expect(fake.requests.at(-3)!.body.tools.map((tool: { function: { name: string } }) => tool.function.name).sort()).toEqual(['web_fetch', 'web_search']);
    expect(toolText(fake.requests.at(-1)!)).toContain('Async functions in traits were stabilized in Rust 1.75');
    // `:web` lists what the model read.
    expect(await run(page, ':web')).toContain(`${site.origin}/article/rust`);
    expect(errors).toEqual([]);
    await context.close();
  });
});
