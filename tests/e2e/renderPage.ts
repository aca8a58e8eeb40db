// The renderer test page (tests/e2e/render/), built with Vite and served without any CSP, and
// a Chromium page opened on it. Shared by the renderer browser tests.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { buildPage, serve } from '../../bench/render/run.ts';
import { launchBrowser } from './support.ts';

export interface RenderPage {
  browser: Browser;
  page: Page;
  /** Alerts, confirms and prompts the page opened (any is an execution). */
  dialogs: string[];
  errors: string[];
  close: () => Promise<void>;
}

export async function openRenderPage(): Promise<RenderPage> {
  const outDir = mkdtempSync(path.join(tmpdir(), 'shellchat-render-page-'));
  await buildPage(path.join(import.meta.dirname, 'render'), outDir);
  const server = await serve(outDir, { isolate: false });
  const browser = await launchBrowser();
  const context = await browser.newContext({ viewport: { width: 1024, height: 768 } });
  // No request leaves the machine: anything but the page's own origin is answered locally.
  await context.route(/^(?!http:\/\/127\.0\.0\.1)/, (route) => route.fulfill({ status: 404, body: '' }));
  const page = await context.newPage();
  const dialogs: string[] = [];
  const errors: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(server.url);
  await page.waitForFunction(() => document.title === 'ready');
  return {
    browser,
    page,
    dialogs,
    errors,
    close: async () => {
      await browser.close();
      await server.close();
      rmSync(outDir, { recursive: true, force: true });
    },
  };
}
