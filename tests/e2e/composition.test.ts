// Operator composition: a build whose app config leaves out `speak` has no speak code at all,
// and `:speak on` answers 'Unknown command.'; one that leaves out `subscription` has no payment
// code and no Subscriptions page, even with USE_SUBSCRIPTIONS on.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { buildApp } from '../../bench/initialLoad.ts';
import { HAS_CHROME, launchBrowser, openApp, run, startServer, type RunningServer } from './support.ts';

describe.skipIf(!HAS_CHROME)('a build without the speak plugin', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'shellchat-nospeak-'));
  const dist = path.join(dir, 'dist');
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    const config = path.join(dir, 'app.config.ts');
    writeFileSync(config, "export default { plugins: ['general', 'stats', 'info'] };\n");
    await buildApp(dist, { SHELLCHAT_APP_CONFIG: config });
    [server, browser] = await Promise.all([startServer({ SHELLCHAT_DIST: dist, USE_SUBSCRIPTIONS: 'true' }), launchBrowser()]);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('has no chunk with the speak plugin, its voices or its strings', () => {
    const manifest = readFileSync(path.join(dist, '.vite', 'manifest.json'), 'utf8');
    expect(manifest).not.toContain('plugins/speak');
    expect(manifest).not.toContain('speak.json');
    expect(manifest).not.toContain('plugins/subscription');
    for (const file of readdirSync(path.join(dist, 'assets'))) {
      const code = readFileSync(path.join(dist, 'assets', file), 'utf8');
      expect(code, file).not.toContain('speechSynthesis');
      expect(code, file).not.toContain('voice.use');
      expect(code, file).not.toContain('paypal');
    }
  });

  it("answers 'Unknown command.' to :speak on, and help has no Speak group", async () => {
    const { page, context, errors } = await openApp(browser, server.url);
    // The spec's message, and under it where the commands are listed (none is close).
    expect(await run(page, ':speak on')).toBe('Unknown command.Type :help to list the commands.');
    expect(await page.locator('.out-error').textContent()).toBe('Unknown command.');
    expect(await run(page, ':voice ls')).toBe('Unknown command.Type :help to list the commands.');
    const help = await run(page, ':help');
    expect(help).not.toContain('Speak');
    expect(help).toContain(':stats {on|off}');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('has no Subscriptions page although system info turns subscriptions on', async () => {
    const { page, context, errors } = await openApp(browser, server.url);
    await page.getByTestId('view-toggle').click();
    await page.getByTestId('nav-documentation').waitFor();
    expect(await page.getByTestId('nav-subscriptions').count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('has Settings sections only for what it ships: theme and language, no roles, functions or stores', async () => {
    const { page, context, errors } = await openApp(browser, server.url);
    await page.getByTestId('view-toggle').click();
    await page.getByTestId('nav-settings').click();
    const settings = page.getByTestId('page-settings');
    await settings.locator('button[data-setting=lang]').first().waitFor();
    await expect.poll(() => settings.locator('section.setting h2').allTextContents()).toEqual(['Theme', 'Language']);
    expect(errors).toEqual([]);
    await context.close();
  });
});
