// The page says an import refused because the server runs as many as it allows (IMPORT_MAX_RUNNING)
// as a line, even for an archive far larger than what the server drains of a refused upload;
// once the import running ends, an import runs. Chromium against the real built server;
// the running import is another person's upload the test holds open.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cookieFetch } from '../../tests/harness/shellTester.ts';
import { HAS_CHROME, launchBrowser, openApp, run, startServer, type RunningServer } from '../../tests/e2e/support.ts';
import { MESSAGES } from './common/messages.ts';
import { json, simple } from './fixtures/exports.ts';
import type { Browser } from 'playwright-core';

const PW = 'correct-horse-2';
const MB = 1024 * 1024;

// Skipped only where Chromium is not installed, outside CI: under CI=true tests/e2e/support.ts throws instead.
describe.skipIf(!HAS_CHROME)('too many imports at once, in the browser', () => {
  let server: RunningServer;
  let browser: Browser;
  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer({ IMPORT_MAX_RUNNING: '1' }), launchBrowser()]);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('shows the refusal as a line, then imports once the running one ends', async () => {
    const { page, context, errors } = await openApp(browser, server.url);
    await run(page, `:user add holder holder@example.org ${PW}`);
    await run(page, `:user add porter porter@example.org ${PW}`);
    expect(await run(page, `:login porter ${PW}`)).toBe('Logged in as porter.');

    // Someone else's import, held running: its upload half sent.
    const holder = cookieFetch();
    expect((await holder(`${server.url}/api/user/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'holder', password: PW }) })).status).toBe(200);
    const archive = json([simple(1), simple(2)]);
    let finish!: () => void;
    const rest = new Promise<void>((resolve) => (finish = resolve));
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => controller.enqueue(archive.slice(0, 10)),
      async pull(controller) {
        await rest;
        controller.enqueue(archive.slice(10));
        controller.close();
      },
    });
    const holding = holder(`${server.url}/api/archive/import?name=held.json`, { method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body, ...({ duplex: 'half' } as object) });

    // An archive well past the 64 MB the server reads of a refused upload before it closes the connection.
    const dir = mkdtempSync(path.join(tmpdir(), 'shellchat-importcap-e2e-'));
    const big = path.join(dir, 'big-export.json');
    writeFileSync(big, Buffer.concat([Buffer.from(json([simple(3)])), Buffer.alloc(100 * MB, 0x20)]));
    page.once('filechooser', (chooser) => chooser.setFiles(big));
    const refused = await run(page, ':session import');
    expect(refused).toMatch(/Too many imports are running on the server; try again in \d+ seconds\./);

    finish();
    expect((await holding).status).toBe(200);
    page.once('filechooser', (chooser) => chooser.setFiles({ name: 'export.json', mimeType: 'application/json', buffer: Buffer.from(json([simple(3)])) }));
    const imported = await run(page, ':session import');
    expect(imported).toContain(MESSAGES.summary(1, 0, 0).text);
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);
});
