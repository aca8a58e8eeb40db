// Offline at load (issue 19 part 5, spec parts 1 and 4): a page visited once opens again with
// the server down, or with no network at all, from its service worker; it says it is offline,
// chats with the local model server, and finds the server's features again when the server is
// back. The app is installable (a web app manifest with icons).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startFakeOllama, type FakeOllama } from '../fixtures/fakeOllama.ts';
import { freePort, HAS_CHROME, launchBrowser, openApp, run, startServer, type RunningServer } from './support.ts';

const PASSWORD = 'offline-password-1';

describe.skipIf(!HAS_CHROME)('offline at load', () => {
  let ollama: FakeOllama;
  let server: RunningServer;
  let browser: Browser;
  let port: number;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'shellchat-offline-'));
  const start = () => startServer({ PORT: String(port), DATA_DIR: dataDir, OLLAMA_BASE_URL: ollama.url });

  beforeAll(async () => {
    ollama = await startFakeOllama();
    port = await freePort();
    [server, browser] = await Promise.all([start(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await ollama?.close();
  });

  /** A first visit: signed up, the local model in use, and the service worker in charge. */
  async function firstVisit(username: string): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
    // A test before may have stopped the server and failed before starting it again.
    if (server.process.exitCode !== null) server = await start();
    const opened = await openApp(browser, server.url, { serviceWorkers: 'allow' });
    expect(await run(opened.page, `:user add ${username} ${username}@example.org ${PASSWORD}`)).toBe(`User ${username} added.Log in with :login ${username} <password>.`);
    expect(await run(opened.page, `:login ${username} ${PASSWORD}`)).toBe(`Logged in as ${username}.`);
    expect(await run(opened.page, ':model use "llama3.2"')).toBe('Model set to llama3.2.');
    // Registered once the page is idle and everything has loaded; it takes over this page.
    await expect.poll(() => opened.page.evaluate(() => !!navigator.serviceWorker.controller), { timeout: 20_000 }).toBe(true);
    return opened;
  }

  it('is installable: a web app manifest with icons, and a service worker', async () => {
    const manifest = (await (await fetch(`${server.url}/manifest.webmanifest`)).json()) as { name: string; display: string; icons: { src: string; sizes: string }[] };
    expect(manifest).toMatchObject({ name: 'shellchat', display: 'standalone' });
    expect(manifest.icons.map((i) => i.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
    for (const icon of manifest.icons) expect((await fetch(`${server.url}${icon.src}`)).status, icon.src).toBe(200);
    const worker = await fetch(`${server.url}/sw.js`);
    expect(worker.headers.get('content-type')).toContain('javascript');
    expect(worker.headers.get('cache-control')).toBe('no-cache');
    const { page, context } = await openApp(browser, server.url, { serviceWorkers: 'allow' });
    expect(await page.locator('link[rel=manifest]').getAttribute('href')).toBe('/manifest.webmanifest');
    // The worker serves the page at `/` only: another path is the server's answer (its 404), not the page.
    await expect.poll(() => page.evaluate(() => !!navigator.serviceWorker.controller), { timeout: 20_000 }).toBe(true);
    const other = await page.goto(`${server.url}/metrics`);
    expect(other?.status()).toBe(404);
    expect(await other?.headerValue('content-type')).not.toContain('html');
    await context.close();
  });

  it('opens with the server down, chats with the local model, and finds the server again when it is back', async () => {
    const { context, page, errors } = await firstVisit('sailor');
    await server.stop();
    await page.reload();
    await page.waitForSelector('[data-testid=input]');
    expect(await run(page, ':user')).toBe('`:user` command is not available offline.');
    ollama.reply({ text: 'Ahoy from the local model.' });
    expect(await run(page, 'Anyone there?')).toContain('Ahoy from the local model.');
    expect(ollama.requests.at(-1)!.body.messages).toEqual(expect.arrayContaining([{ role: 'user', content: 'Anyone there?' }]));

    // The server comes back: without a reload, its commands work again.
    server = await start();
    await expect.poll(async () => run(page, ':user'), { timeout: 20_000 }).toContain('sailor');
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);

  it('opens with no network at all, says it is offline, and comes back with the network', async () => {
    const { context, page, errors } = await firstVisit('drifter');
    await context.setOffline(true);
    await page.reload();
    await page.waitForSelector('[data-testid=input]');
    expect(await run(page, ':session ls')).toBe('`:session` command is not available offline.');
    // Local commands still work.
    expect(await run(page, ':theme dark')).toBe('Theme: dark');
    await context.setOffline(false);
    await expect.poll(async () => run(page, ':user'), { timeout: 20_000 }).toContain('drifter');
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);
});
