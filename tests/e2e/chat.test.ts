// Chat in the browser against the real server and the fake OpenAI-compatible provider:
// streamed markdown with code, math and tables, stop, stats and self-evaluation, errors,
// 'Silent...', the model-info line, and speech.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fakeOpenAI.ts';
import { HAS_CHROME, launchBrowser, openApp, ROOT, run, startServer, type RunningServer } from './support.ts';

const ANSWER = [
  '# Result',
  '',
  'Here is **bold** text and a table:',
  '',
  '| a | b |',
  '| - | - |',
  '| 1 | 2 |',
  '',
  '```ts',
  'const x: number = 42;',
  '```',
  '',
  'Math: $a^2 + b^2 = c^2$',
].join('\n');

const output = (page: Page) => page.getByTestId('output');

describe.skipIf(!HAS_CHROME)('chat', () => {
  let fake: FakeOpenAI;
  let server: RunningServer;
  let browser: Browser;
  beforeAll(async () => {
    fake = await startFakeOpenAI({ models: ['gpt-demo'] });
    [server, browser] = await Promise.all([
      startServer({ MODEL: 'gpt-demo', OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'sk-test' }),
      launchBrowser(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await fake?.close();
  });

  it('streams a markdown answer with a table, highlighted code and rendered math', async () => {
    const { page, context, errors } = await openApp(browser, server.url);
    fake.reply({ text: ANSWER, delayMs: 5 });
    await run(page, 'Show me everything');
    await page.locator('[data-testid=output] .katex').first().waitFor({ timeout: 10_000 });
    expect(await output(page).locator('table td').allTextContents()).toEqual(['1', '2']);
    expect(await output(page).locator('pre code').count()).toBeGreaterThan(0);
    expect(await output(page).locator('pre .token').count()).toBeGreaterThan(0);
    expect(await output(page).locator('strong').textContent()).toBe('bold');
    expect(await page.getByTestId('model-info').textContent()).toBe('gpt-demo');
    expect(fake.requests.at(-1)!.body.messages.at(-1)).toMatchObject({ role: 'user', content: 'Show me everything' });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('marks generating, ignores input meanwhile, and Ctrl+C stops and aborts upstream', async () => {
    const { page, context } = await openApp(browser, server.url);
    fake.reply({ text: 'Hi.' });
    expect(await run(page, 'hello')).toContain('Hi.');
    const abortedBefore = fake.aborted();
    fake.reply({ chunks: Array.from({ length: 200 }, (_, i) => `word${i} `), delayMs: 30 });
    await page.getByTestId('input').fill('Tell me a long story');
    await page.getByTestId('input').press('Enter');
    const root = page.locator('.shell');
    await expect.poll(() => root.getAttribute('data-generating')).toBe('true');
    // Screen readers wait for the whole answer: the live region is busy meanwhile.
    expect(await output(page).getAttribute('aria-busy')).toBe('true');
    await expect.poll(async () => (await output(page).textContent())?.includes('word3')).toBe(true);
    const requests = fake.requests.length;
    await page.getByTestId('input').fill('second question');
    await page.getByTestId('input').press('Enter');
    expect(fake.requests.length).toBe(requests);
    await page.locator('body').click();
    await page.keyboard.press('Control+c');
    await expect.poll(() => root.getAttribute('data-generating')).toBe('false');
    expect(await output(page).getAttribute('aria-busy')).toBe('false');
    await expect.poll(() => fake.aborted(), { timeout: 2000 }).toBe(abortedBefore + 1);
    expect(await output(page).textContent()).not.toContain('word199');
    // The stopped answer is kept: the next question follows it in the same session (looking at
    // the turn before it would have branched from there, without the story in memory).
    fake.reply({ text: 'Continuing.' });
    expect(await run(page, 'go on')).toContain('Continuing.');
    const messages = (fake.requests.at(-1)!.body.messages as { role: string; content: string }[]).filter((m) => m.role !== 'system');
    expect(messages.map((m) => m.content).slice(0, 3)).toEqual(['hello', 'Hi.', 'Tell me a long story']);
    expect(messages[3]!.content).toMatch(/^word0 word1 word2 word3 /);
    expect(messages[3]!.content).not.toContain('word199');
    expect(messages.slice(4).map((m) => m.content)).toEqual(['go on']);
    await context.close();
  });

  it('while generating, Send becomes Stop, and a typed :stop stops too', async () => {
    const { page, context } = await openApp(browser, server.url);
    const root = page.locator('.shell');
    const input = page.getByTestId('input');
    const long = () => fake.reply({ chunks: Array.from({ length: 200 }, (_, i) => `word${i} `), delayMs: 30 });
    // Waits for this request's own words, not the ones the last stopped answer left on screen.
    const startLong = async () => {
      long();
      const sent = fake.requests.length;
      await input.fill('Tell me a long story');
      await input.press('Enter');
      await expect.poll(() => fake.requests.length).toBe(sent + 1);
      await expect.poll(async () => (await output(page).textContent())?.includes('word3')).toBe(true);
    };

    // The Stop button.
    let aborted = fake.aborted();
    await startLong();
    expect(await page.getByTestId('submit').count()).toBe(0);
    expect(await page.getByTestId('stop').textContent()).toBe('Stop');
    await page.getByTestId('stop').click();
    await expect.poll(() => root.getAttribute('data-generating')).toBe('false');
    await expect.poll(() => fake.aborted(), { timeout: 2000 }).toBe(aborted + 1);
    expect(await page.getByTestId('submit').textContent()).toBe('Send');

    // ':stop' typed and sent with Enter; other input meanwhile is still ignored.
    aborted = fake.aborted();
    await startLong();
    const requests = fake.requests.length;
    await input.fill(':help');
    await input.press('Enter');
    expect(await input.inputValue()).toBe(':help');
    await input.fill('  :stop ');
    await input.press('Enter');
    await expect.poll(() => root.getAttribute('data-generating')).toBe('false');
    await expect.poll(() => fake.aborted(), { timeout: 2000 }).toBe(aborted + 1);
    expect(fake.requests.length).toBe(requests);
    expect(await output(page).textContent()).not.toContain('word199');
    expect(await input.inputValue()).toBe('');
    await context.close();
  });

  it('refuses an input too long for a turn before sending it, and keeps it in the box', async () => {
    const { page, context } = await openApp(browser, server.url);
    const requests = fake.requests.length;
    const long = 'x'.repeat(200_001);
    await page.getByTestId('input').fill(long);
    expect(await run(page, long)).toBe('The input is too long: 200,001 characters, at most 200,000.');
    expect((await page.getByTestId('input').inputValue()).length).toBe(200_001);
    expect(fake.requests.length).toBe(requests);
    await context.close();
  });

  it('keeps working when the markdown renderer cannot load: the answer shows as plain text, with a line saying why', async () => {
    // As when the server went away, or a deploy replaced the hashed files, before the chunk loaded.
    const context = await browser.newContext({ viewport: { width: 1024, height: 768 } });
    await context.route(/\/assets\/markdown-[^/]*\.(js|css)$/, (route) => route.abort('connectionrefused'));
    const page = await context.newPage();
    await page.goto(server.url);
    await page.waitForSelector('[data-testid=input]');
    fake.reply({ text: 'Plain **still** readable.' });
    expect(await run(page, 'render this')).toContain('Plain **still** readable.');
    await expect.poll(() => page.getByTestId('load-failed').count()).toBe(1);
    expect(await page.getByTestId('load-failed').textContent()).toBe(
      'Part of the app could not load (the server may be down, or updated since this page opened). Reload the page to try again.',
    );
    // The rest of the app goes on: commands run, and the next answer shows the same way.
    expect(await run(page, ':stats on')).toBe('Stats on.');
    fake.reply({ text: 'Second answer.' });
    expect(await run(page, 'and again')).toContain('Second answer.');
    expect(await page.getByTestId('input').isVisible()).toBe(true);
    await context.close();
  });

  it("shows 'Silent...' for an empty reply and the provider's error text for a failure", async () => {
    const { page, context } = await openApp(browser, server.url);
    fake.reply({ chunks: [''] });
    expect(await run(page, 'say nothing')).toBe('Silent...');
    // In the interface's language, like every other message.
    const japanese = (JSON.parse(readFileSync(path.join(ROOT, 'locales/ja-JP/shell.json'), 'utf8')) as { msg: { silent: string } }).msg.silent;
    expect(japanese).not.toBe('Silent...');
    await run(page, ':lang use ja');
    fake.reply({ chunks: [''] });
    expect(await run(page, 'say nothing')).toBe(japanese);
    await run(page, ':lang use en-US');
    fake.reply({ status: 500, text: 'The upstream exploded' });
    fake.reply({ status: 500, text: 'The upstream exploded' });
    fake.reply({ status: 500, text: 'The upstream exploded' });
    fake.reply({ status: 500, text: 'The upstream exploded' });
    expect(await run(page, 'fail please')).toContain('The model provider answered 500: The upstream exploded.');
    await context.close();
  });

  it("shows the server's and the plugins' messages in the interface's language", async () => {
    const { page, context } = await openApp(browser, server.url);
    // Every string of the page loaded (idle), then the new language's strings arrive slowly.
    await page.waitForLoadState('networkidle');
    await context.route('**/assets/*.js', async (route) => {
      await new Promise((r) => setTimeout(r, 400));
      await route.continue();
    });
    expect(await run(page, ':lang use zh-CN')).toContain('zh-CN');
    // At once: the next command waits for them instead of answering in English.
    expect(await run(page, ':help')).toContain('列出所有命令');
    // Requests still held by the handler go on as they are.
    await context.unrouteAll({ behavior: 'ignoreErrors' });
    for (let i = 0; i < 4; i++) fake.reply({ status: 500, text: 'The upstream exploded' });
    // The provider's own words stay as it wrote them.
    expect(await run(page, 'fail please')).toBe('模型提供商返回了 500：The upstream exploded。');
    // The default status line while the provider thinks, in words of the language too.
    fake.reply({ chunks: ['好的。'], firstDelayMs: 1500 });
    await page.getByTestId('input').fill('slow please');
    await page.getByTestId('submit').click();
    await expect.poll(() => page.locator('.out-notice').textContent(), { timeout: 5000 }).toMatch(/^(查询中|生成中)\.\.\.$/);
    await expect.poll(() => page.getByTestId('output').textContent(), { timeout: 5000 }).toContain('好的。');
    // A plugin's rule checked in the browser, and one its server answers.
    expect(await run(page, ':role "nope"')).toBe('角色“nope”不存在。');
    expect(await run(page, ':login nobody wrongpassword')).toBe('用户名或密码错误。');
    await context.close();
  });

  it('shows stats and a coloured self-evaluation score', async () => {
    const { page, context } = await openApp(browser, server.url);
    await run(page, ':stats on');
    await run(page, ':eval on');
    fake.reply({ text: 'Paris is the capital of France.' });
    fake.reply({ text: '9 - Correct and well known.' });
    await run(page, 'What is the capital of France?');
    const stats = page.getByTestId('stats');
    await expect.poll(async () => (await stats.textContent()) ?? '').toContain('token_ct');
    expect(await stats.textContent()).toMatch(/mem: 0\/7/);
    const evaluation = page.getByTestId('eval');
    await expect.poll(() => evaluation.getAttribute('data-colour')).toBe('green');
    expect(await evaluation.textContent()).toContain('Correct and well known.');

    // An evaluator that ignores the format: a grey '?' and its reply on one line, cut at 150.
    fake.reply({ text: 'Berlin.' });
    fake.reply({ text: `I would rather not score this.\n\n${'blah '.repeat(60)}` });
    await run(page, 'And of Germany?');
    await expect.poll(() => evaluation.getAttribute('data-colour')).toBe('grey');
    expect(await evaluation.locator('.eval-score').textContent()).toBe('?');
    expect(await evaluation.textContent()).toMatch(/^\? I would rather not score this\. (blah ){23}blah\.\.\.$/);
    expect(await stats.textContent()).toMatch(/eval: \?/);
    await context.close();
  });

  it('copies the raw answer from the model-info line, and Ctrl-click copies the attach command', async () => {
    const { page, context } = await openApp(browser, server.url, { permissions: ['clipboard-read', 'clipboard-write'] });
    fake.reply({ text: 'Copy **me**.' });
    await run(page, 'something to copy');
    await page.getByTestId('model-info').click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('Copy **me**.');
    // Ctrl-click shares the session on the server first, then copies.
    await page.getByTestId('model-info').click({ modifiers: ['Control'] });
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toMatch(/^:session attach \d{13}$/);
    await context.close();
  });

  it("copies a code block's code with its Copy button, in the interface's language", async () => {
    const { page, context } = await openApp(browser, server.url, { permissions: ['clipboard-read', 'clipboard-write'] });
    fake.reply({ text: 'Two blocks:\n\n```ts\nconst a = 1;\nconst b = `${a}<b>`;\n```\n\n```\nsecond\n```\n' });
    await run(page, 'show me code');
    const buttons = page.getByTestId('code-copy');
    await expect.poll(() => buttons.count()).toBe(2);
    await page.locator('.md-code').first().hover();
    await buttons.first().click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('const a = 1;\nconst b = `${a}<b>`;\n');
    expect(await buttons.first().textContent()).toBe('Copied');
    await expect.poll(() => buttons.first().textContent(), { timeout: 3000 }).toBe('Copy');
    await buttons.nth(1).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('second\n');
    // Selecting the whole answer selects the code, not the buttons' labels.
    const selected = await page.evaluate(() => {
      getSelection()!.selectAllChildren(document.querySelector('[data-testid=output]')!);
      return getSelection()!.toString();
    });
    expect(selected).toContain('const a = 1;');
    expect(selected).not.toMatch(/Copy|Copied/);
    await run(page, ':lang use de-DE');
    fake.reply({ text: '```\nnoch einmal\n```' });
    await run(page, 'noch einmal');
    await expect.poll(() => buttons.first().textContent()).toBe('Kopieren');
    // The whole answer came in one chunk, just before the end: its final form stays (a frame
    // of the stream still due used to put the open-fence form back over it).
    await page.waitForTimeout(100);
    expect(await page.locator('[data-testid=output] .markdown[data-streaming]').count()).toBe(0);
    expect(await page.locator('.md-pending').count()).toBe(0);
    await context.close();
  });

  it('runs no script from a hostile answer, streamed or whole, in the real app', async () => {
    const { page, context } = await openApp(browser, server.url);
    await page.evaluate(() => {
      (window as unknown as { hits: number }).hits = 0;
      (window as unknown as { __xss: () => void }).__xss = () => (window as unknown as { hits: number }).hits++;
    });
    const payloads = [
      '<script>__xss()</script>',
      '<img src=x onerror=__xss()>',
      '[click](javascript:__xss())',
      '![x](javascript:__xss())',
      '<svg onload=__xss()>',
      '<a href="javascript:__xss()">a</a>',
      '$\\href{javascript:__xss()}{x}$',
      '<iframe srcdoc="<script>parent.__xss()</script>"></iframe>',
      '[x](data:text/html,<script>__xss()</script>)',
      '<details open ontoggle=__xss()>',
    ].join('\n\n');
    fake.reply({ text: payloads, delayMs: 2 });
    await run(page, 'be evil');
    await run(page, ':stream off');
    const calls: string[] = [];
    page.on('request', (r) => calls.push(new URL(r.url()).pathname));
    fake.reply({ text: payloads });
    await run(page, 'be evil again');
    // With stream off the browser uses the non-stream call.
    expect(calls).toContain('/api/generate');
    expect(calls).not.toContain('/api/generate_sse');
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => (window as unknown as { hits: number }).hits)).toBe(0);
    expect(await page.locator('[data-testid=output] [href^="javascript:"], [data-testid=output] [src^="javascript:"], [data-testid=output] iframe, [data-testid=output] script').count()).toBe(0);
    await context.close();
  });

  it('picks a model on the Settings page through :model use (login required)', async () => {
    const { page, context } = await openApp(browser, server.url);
    await page.keyboard.press('Control+,');
    const choice = page.locator('[data-testid=page-settings] button[data-setting=model][data-value=gpt-demo]');
    // A visitor may not use a model (spec part 6): no model section until logged in.
    await page.locator('[data-testid=page-settings] button[data-setting=lang]').first().waitFor();
    expect(await page.locator('[data-testid=page-settings] button[data-setting=model]').count()).toBe(0);
    await page.keyboard.press('Escape');
    expect(await run(page, ':set model "gpt-demo"')).toBe('Please login.');
    await run(page, ':user add picker picker@example.org correct-horse-1');
    await run(page, ':login picker correct-horse-1');
    await page.keyboard.press('Control+,');
    await choice.click();
    await expect.poll(() => choice.getAttribute('aria-pressed')).toBe('true');
    await page.keyboard.press('Escape');
    expect(await run(page, ':model')).toContain('gpt-demo');
    await context.close();
  });

  it('speaks the answer sentence by sentence when speak is on', async () => {
    const { page, context } = await openApp(browser, server.url);
    await page.evaluate(() => {
      const spoken: { text: string; volume: number; rate: number; pitch: number }[] = [];
      (window as unknown as { spoken: typeof spoken }).spoken = spoken;
      Object.defineProperty(speechSynthesis, 'speak', {
        value: (u: SpeechSynthesisUtterance) => spoken.push({ text: u.text, volume: u.volume, rate: u.rate, pitch: u.pitch }),
      });
    });
    await run(page, ':speak on');
    fake.reply({ text: 'First sentence. Second one! 😀 Third?' });
    await run(page, 'speak to me');
    await expect.poll(() => page.evaluate(() => (window as unknown as { spoken: unknown[] }).spoken.length)).toBe(3);
    const spoken = await page.evaluate(() => (window as unknown as { spoken: { text: string; volume: number; pitch: number }[] }).spoken);
    expect(spoken.map((s) => s.text)).toEqual(['First sentence.', 'Second one!', 'Third?']);
    // The Web Speech API keeps these as 32-bit floats.
    expect(spoken[0]!.volume).toBeCloseTo(0.7, 5);
    expect(spoken[0]!.pitch).toBeCloseTo(1.1, 5);
    await context.close();
  });
});
