// Models in the browser, with the local model server (Ollama) called from the page itself:
// `:model ls` shows the local models, `:model use` picks one, and a question streams the
// answer from Ollama through the browser (the server only builds the messages and saves the
// log). Run twice: with the fake Ollama on the default port 11434 (skipped with a notice when
// that port is taken) and on a random port named by OLLAMA_BASE_URL.
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import appConfig from '../../app.config.ts';
import { startFakeOllama, type FakeOllama } from '../fixtures/fakeOllama.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fakeOpenAI.ts';
import { HAS_CHROME, launchBrowser, openApp, run, startServer, type RunningServer } from './support.ts';
import type { Browser } from 'playwright-core';

const PASSWORD = 'hunter2hunter2';
const ANSWER_CHUNKS = ['The sky ', 'is blue ', 'because of ', 'Rayleigh ', 'scattering.'];

/** Whether 127.0.0.1:11434 can be listened on (no real or fake Ollama there already). */
function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

const DEFAULT_PORT_FREE = await portFree(11434);
if (HAS_CHROME && !DEFAULT_PORT_FREE) console.warn('[e2e] skipping the default-port Ollama case: 127.0.0.1:11434 is in use');

interface Setup {
  ollama: FakeOllama;
  openai: FakeOpenAI;
  server: RunningServer;
  dataDir: string;
}

/** The fakes and a server; `ollamaPort` 11434 uses the default URL, any other one OLLAMA_BASE_URL. */
async function setUp(ollamaPort: number): Promise<Setup> {
  // Ollama first: when its port is taken nothing else has started yet.
  const ollama = await startFakeOllama({ port: ollamaPort });
  const openai = await startFakeOpenAI();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'shellchat-e2e-models-'));
  const server = await startServer({
    DATA_DIR: dataDir,
    MODEL: 'gpt-4o-mini',
    OPENAI_BASE_URL: openai.url,
    OPENAI_API_KEY: 'sk-e2e-system-key',
    ...(ollamaPort === 11434 ? {} : { OLLAMA_BASE_URL: ollama.url }),
  });
  return { ollama, openai, server, dataDir };
}

async function tearDown(setup: Partial<Setup>): Promise<void> {
  await setup.server?.stop();
  // The "gone" case closes Ollama itself.
  await Promise.all([setup.ollama?.close().catch(() => undefined), setup.openai?.close()]);
}

/** The turns saved on the server, read from its SQLite database. */
function savedLogs(dataDir: string): { session: number; model: string; input: string; output: string }[] {
  const db = new Database(path.join(dataDir, 'shellchat.db'), { readonly: true, fileMustExist: true });
  try {
    return db.prepare('SELECT session, model, input, output FROM logs ORDER BY id').all() as never;
  } finally {
    db.close();
  }
}

async function localTurn(browser: Browser, setup: Setup, username: string): Promise<void> {
  const { context, page, errors } = await openApp(browser, setup.server.url);
  // A step that hangs fails with its own message, well before the test's timeout.
  context.setDefaultTimeout(10_000);
  try {
    expect(await run(page, `:user add ${username} ${username}@example.org ${PASSWORD}`)).toBe(`User ${username} added.Log in with :login ${username} <password>.`);
    expect(await run(page, `:login ${username} ${PASSWORD}`)).toBe(`Logged in as ${username}.`);

    const listed = await run(page, ':model ls');
    expect(listed).toContain('System models');
    expect(listed).toContain('gpt-4o-mini');
    expect(listed).toContain('Local models');
    expect(listed).toContain('llama3.2');
    expect(listed).toContain('qwen2.5:0.5b');

    expect(await run(page, ':model use "llama3.2"')).toBe('Model set to llama3.2.');
    await run(page, ':model ls');
    expect(await page.locator('[data-testid=output] li[aria-current]').allTextContents()).toEqual(['*llama3.2']);

    // A paced answer, so the page shows it growing before it is complete.
    setup.ollama.reply({ chunks: ANSWER_CHUNKS, delayMs: 120 });
    const output = page.getByTestId('output');
    const before = Number(await output.getAttribute('data-runs'));
    await page.getByTestId('input').fill('Why is the sky blue?');
    await page.getByTestId('submit').click();
    await page.waitForFunction(
      () => {
        const text = document.querySelector('[data-testid=output]')?.textContent ?? '';
        return document.querySelector('[data-generating]')?.getAttribute('data-generating') === 'true' && text.includes('The sky') && !text.includes('scattering.');
      },
      undefined,
      { timeout: 10_000 },
    );
    await page.waitForFunction((n) => Number(document.querySelector('[data-testid=output]')?.getAttribute('data-runs')) > n, before, { timeout: 10_000 });
    // The finished answer replaces the streaming one on the next render.
    await expect.poll(() => output.textContent(), { timeout: 5000 }).toContain(ANSWER_CHUNKS.join(''));
    await expect.poll(() => page.getByTestId('model-info').textContent(), { timeout: 5000 }).toContain('llama3.2');

    // The browser called Ollama (a cross-origin request from the page), never the server's provider.
    const request = setup.ollama.requests.at(-1)!;
    expect(request.path).toBe('/v1/chat/completions');
    expect(request.headers.origin).toBe(setup.server.url);
    expect(request.body).toMatchObject({ model: 'llama3.2', stream: true });
    expect((request.body.messages as { role: string; content: unknown }[]).at(-1)).toEqual({ role: 'user', content: 'Why is the sky blue?' });
    expect(setup.openai.requests).toEqual([]);

    // The turn was saved on the server, into the page's session.
    const logs = savedLogs(setup.dataDir).filter((l) => l.input === 'Why is the sky blue?');
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ model: 'llama3.2', output: ANSWER_CHUNKS.join('') });
    if (appConfig.plugins.includes('session')) {
      const shown = await run(page, ':log');
      expect(shown).toContain('Why is the sky blue?');
      expect(shown).toContain('Rayleigh');
    }

    // Back to the default model: the next question goes to the server's provider.
    expect(await run(page, ':model unuse')).toBe('Model unset. The default model gpt-4o-mini is in use.');
    setup.openai.reply({ text: 'Server answer.' });
    expect(await run(page, 'And now?')).toContain('Server answer.');
    expect(setup.openai.requests).toHaveLength(1);
    expect(errors).toEqual([]);
  } finally {
    await context.close();
  }
}

async function ollamaDown(browser: Browser, setup: Setup, username: string): Promise<void> {
  const { context, page } = await openApp(browser, setup.server.url);
  context.setDefaultTimeout(10_000);
  try {
    await run(page, `:user add ${username} ${username}@example.org ${PASSWORD}`);
    await run(page, `:login ${username} ${PASSWORD}`);
    expect(await run(page, ':model use "qwen2.5:0.5b"')).toBe('Model set to qwen2.5:0.5b.');
    // The local model server goes away: the chat says so and nothing is saved.
    await setup.ollama.close();
    const answer = await run(page, 'Anyone there?');
    expect(answer).toContain('Cannot connect to Ollama server.');
    expect(savedLogs(setup.dataDir).some((l) => l.input === 'Anyone there?')).toBe(false);
    const listed = await run(page, ':model ls');
    expect(listed).toContain('Local models');
    expect(listed).not.toContain('Cannot connect');
  } finally {
    await context.close();
  }
}

describe.skipIf(!HAS_CHROME)('models in the browser with a local model server', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  describe.skipIf(!DEFAULT_PORT_FREE)('Ollama on the default port 11434', () => {
    const setup: Partial<Setup> = {};
    let taken = false;
    beforeAll(async () => {
      try {
        Object.assign(setup, await setUp(11434));
      } catch (err) {
        // Someone took the port between the check and now: skip, never fail.
        if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
        taken = true;
        await tearDown(setup);
      }
    });
    afterAll(() => tearDown(setup));

    it(':model ls lists local models; a question streams from Ollama through the browser and is saved', async (ctx) => {
      if (taken) {
        console.warn('[e2e] skipping the default-port Ollama case: 127.0.0.1:11434 was taken');
        ctx.skip();
      }
      await localTurn(browser, setup as Setup, 'ollie');
    });
  });

  describe('Ollama on the URL of OLLAMA_BASE_URL', () => {
    const setup: Partial<Setup> = {};
    beforeAll(async () => {
      Object.assign(setup, await setUp(0));
    });
    afterAll(() => tearDown(setup));

    it('streams the answer the same way', async () => {
      await localTurn(browser, setup as Setup, 'olive');
    });

    it('goes on with the local model when the server goes away: the browser builds the messages and keeps the turns as memory', async () => {
      const { context, page, errors } = await openApp(browser, setup.server!.url);
      context.setDefaultTimeout(10_000);
      try {
        await run(page, ':user add otto otto@example.org ' + PASSWORD);
        await run(page, ':login otto ' + PASSWORD);
        expect(await run(page, ':model use "llama3.2"')).toBe('Model set to llama3.2.');
        await run(page, ':lang use de-DE');
        await page.waitForLoadState('networkidle');
        // The shellchat server is gone; the local model server (another origin) is still there.
        await context.route(`${setup.server!.url}/**`, (route) => route.abort('connectionrefused'));
        setup.ollama!.reply({ text: 'Hallo! Ich bin offline da.' });
        expect(await run(page, 'Bist du da?')).toContain('Hallo! Ich bin offline da.');
        let sent = setup.ollama!.requests.at(-1)!.body.messages as { role: string; content: unknown }[];
        expect(sent).toEqual([
          { role: 'system', content: 'Must reply with German (Germany).' },
          { role: 'user', content: 'Bist du da?' },
        ]);
        // The offline turn is the next one's memory.
        setup.ollama!.reply({ text: 'Immer noch.' });
        expect(await run(page, 'Und jetzt?')).toContain('Immer noch.');
        sent = setup.ollama!.requests.at(-1)!.body.messages as { role: string; content: unknown }[];
        expect(sent.slice(1)).toEqual([
          { role: 'user', content: 'Bist du da?' },
          { role: 'assistant', content: 'Hallo! Ich bin offline da.' },
          { role: 'user', content: 'Und jetzt?' },
        ]);
        // Nothing reached the server.
        expect(savedLogs(setup.dataDir!).some((l) => l.input === 'Bist du da?')).toBe(false);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    });

    it("says 'Cannot connect to Ollama server.' when it is gone, and saves nothing", async () => {
      await ollamaDown(browser, setup as Setup, 'oscar');
    });
  });
});
