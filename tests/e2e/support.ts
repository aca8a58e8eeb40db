// Browser test support: the real server in a child process on a free port, and Debian's
// Chromium driven by Playwright. Without Chromium the browser tests skip with a notice,
// except under CI=true, where they must run.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, inject } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fakeOpenAI.ts';

export const ROOT = path.resolve(import.meta.dirname, '../..');
export const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';
export const HAS_CHROME = existsSync(CHROME_PATH);
export const CHROME_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

if (!HAS_CHROME) {
  if (process.env.CI === 'true') throw new Error(`Chromium is required under CI=true but ${CHROME_PATH} is missing`);
  console.warn(`[e2e] skipping browser tests: no Chromium at ${CHROME_PATH} (set CHROME_PATH)`);
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export interface RunningServer {
  url: string;
  port: number;
  logs: () => string;
  stop: () => Promise<void>;
  process: ChildProcess;
}

/** Starts `src/server/main.ts` with the e2e build and the given environment. */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const port = env.PORT ? Number(env.PORT) : await freePort();
  let logs = '';
  const child = spawn(process.execPath, [path.join(ROOT, 'src/server/main.ts')], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      // Outside vitest (benchmarks) the caller names the build.
      SHELLCHAT_DIST: env.SHELLCHAT_DIST ?? inject('distDir'),
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'shellchat-data-')),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (logs += String(d)));
  child.stderr!.on('data', (d) => (logs += String(d)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${logs}`);
    try {
      if ((await fetch(`${url}/api/ping`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`server did not start:\n${logs}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url,
    port,
    logs: () => logs,
    process: child,
    stop: () =>
      new Promise<void>((resolve) => {
        // Exited, or killed by a signal (its exitCode stays null then).
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROME_PATH, headless: true, args: CHROME_ARGS });
}

/** Opens the app in a fresh context and waits for the input. */
export async function openApp(
  browser: Browser,
  url: string,
  options: Parameters<Browser['newContext']>[0] = {},
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  // The service worker precaches every chunk of the app after each first visit: ~300 requests
  // per context, which the other tests do not need. The offline-at-load tests allow it.
  const context = await browser.newContext({ viewport: { width: 1024, height: 768 }, serviceWorkers: 'block', ...options });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(url);
  await page.waitForSelector('[data-testid=input]');
  return { context, page, errors };
}

/**
 * Types a line into the input, submits it with the button (Enter adds a line in the split
 * layout), waits until the shell has run it, and returns the output text.
 */
export async function run(page: Page, line: string): Promise<string> {
  const output = page.getByTestId('output');
  const before = Number(await output.getAttribute('data-runs'));
  await page.getByTestId('input').fill(line);
  await page.getByTestId('submit').click();
  await page.waitForFunction(
    (n) => Number(document.querySelector('[data-testid=output]')?.getAttribute('data-runs')) > n,
    before,
    { timeout: 10_000 },
  );
  return (await output.textContent()) ?? '';
}

/**
 * Records in the page, from the next click on Send, each change of the output area: when (ms after
 * the click), whether the working line is in it, and its text.
 */
export async function watchOutput(page: Page): Promise<() => Promise<{ at: number; working: boolean; text: string }[]>> {
  await page.evaluate(() => {
    const seen: { at: number; working: boolean; text: string }[] = [];
    const output = document.querySelector('[data-testid=output]')!;
    let start = 0;
    document.querySelector('[data-testid=submit]')!.addEventListener('click', () => (start = performance.now()), { capture: true, once: true });
    new MutationObserver(() => {
      if (start) seen.push({ at: performance.now() - start, working: !!output.querySelector('[role=status]'), text: output.textContent ?? '' });
    }).observe(output, { childList: true, subtree: true, characterData: true });
    (window as unknown as { seen: typeof seen }).seen = seen;
  });
  return () => page.evaluate(() => (window as unknown as { seen: { at: number; working: boolean; text: string }[] }).seen);
}

/** Starts a server and a browser before the tests of a describe block, and stops them after. */
export function useServerAndBrowser(env: Record<string, string> = {}): { server: RunningServer; browser: Browser } {
  const handles = {} as { server: RunningServer; browser: Browser };
  beforeAll(async () => {
    [handles.server, handles.browser] = await Promise.all([startServer(env), launchBrowser()]);
  });
  afterAll(async () => {
    await handles.browser?.close();
    await handles.server?.stop();
  });
  return handles;
}

/**
 * A fake OpenAI-compatible provider, the server wired to it (`env` gets the provider's URL),
 * and a browser, started before the tests of a describe block and stopped after.
 */
export function useAppWithFakeProvider(
  env: (fakeUrl: string) => Record<string, string>,
  models = ['gpt-demo'],
): { fake: FakeOpenAI; server: RunningServer; browser: Browser } {
  const handles = {} as { fake: FakeOpenAI; server: RunningServer; browser: Browser };
  beforeAll(async () => {
    handles.fake = await startFakeOpenAI({ models });
    [handles.server, handles.browser] = await Promise.all([startServer(env(handles.fake.url)), launchBrowser()]);
  });
  afterAll(async () => {
    await handles.browser?.close();
    await handles.server?.stop();
    await handles.fake?.close();
  });
  return handles;
}
