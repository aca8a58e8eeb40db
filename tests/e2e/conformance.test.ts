// One list of colon commands, run in the browser and in the terminal client against the same
// server: both say the same thing (the same handlers through the same host; each environment
// only lays the outputs out its own way). Text is compared with whitespace collapsed: the
// browser's table cells are tab-separated and its lists one item a line, the terminal pads
// columns and lays lists across its width.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import appConfig from '../../app.config.ts';
import { usageOf } from '../../src/core/index.ts';
import { loadManifest } from '../harness/shellTester.ts';
import { HAS_CHROME, openApp, ROOT, useServerAndBrowser } from './support.ts';

/** What only the browser has (`:theme`, `:speak`...): its :help lists them, the terminal's does not. */
const browserOnly = (await Promise.all(appConfig.plugins.map(loadManifest)))
  .flatMap((m) => m.commands ?? [])
  .filter((c) => c.envs && !c.envs.includes('cli'))
  .map(usageOf);

/** The browser's :help without the browser's own commands, nor the groups they leave empty. */
function helpOfTerminal(browserHelp: string): string {
  const kept = browserHelp.split('\n').filter((line) => !browserOnly.some((usage) => line.startsWith(`${usage}\t`)));
  return kept.filter((line, i) => !(kept[i + 1]?.startsWith('Command\t') && !kept[i + 2]?.startsWith(':')) && !(line.startsWith('Command\t') && !kept[i + 1]?.startsWith(':'))).join('\n');
}

/** The commands compared, anonymous then logged in (a new account in each). */
const ANONYMOUS = [':help', ':help model use', ':help edit', ':lang', ':lang ls', ':stream off', ':stream on', ':stats on', ':eval off', ':set memLength 3', ':model', ':model ls', ':function', ':function ls', ':user', ':role ls', ':nope', ':logn', ': help', ':subscription ls'];
const LOGGED_IN = [ ':role add "helper" "You help."', ':role ls', ':role "helper"', ':store ls', ':node ls', ':role del "helper"', ':role ls'];
/** Where the environments differ by design: each says the command works in the other. */
const ELSEWHERE: [string, string, string][] = [
  [':theme dark', 'Theme: dark', ':theme works in the browser only.'],
  // (The terminal's editor here writes nothing.)
  [':edit', ':edit works in the terminal client (shellchat) only.', 'Nothing was written; nothing was sent.'],
];

const lines = (text: string) => {
  const words = text.replace(/\s+/g, ' ').trim();
  return words ? [words] : [];
};

function cli(server: string, dir: string, line: string): Promise<string> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'src/cli/main.ts'), '--server', server, line], {
      env: { ...process.env, SHELLCHAT_CONFIG_DIR: dir, NO_COLOR: '1', EDITOR: 'true', VISUAL: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += String(d)));
    child.stderr.on('data', (d) => (out += String(d)));
    child.on('close', () => resolve(out));
  });
}

/** Runs a line in the page and reads what the output shows, laid out as the page lays it out. */
async function browser(page: Page, line: string): Promise<string> {
  const output = page.getByTestId('output');
  const before = Number(await output.getAttribute('data-runs'));
  await page.getByTestId('input').fill(line);
  await page.getByTestId('submit').click();
  await page.waitForFunction((n) => Number(document.querySelector('[data-testid=output]')?.getAttribute('data-runs')) > n, before, { timeout: 10_000 });
  return output.innerText();
}

// Skipped only without Chromium, never under CI=true (.ci/run installs it; support.ts requires it then).
describe.skipIf(!HAS_CHROME)('the browser and the terminal client say the same', () => {
  const app = useServerAndBrowser({ ROOT_PASSWORD: 'root-password-1' });
  const contexts: BrowserContext[] = [];
  afterAll(async () => {
    await Promise.all(contexts.splice(0).map((c) => c.close().catch(() => undefined)));
  });

  it('for every command of the list, anonymous and logged in', async () => {
    const { page, context } = await openApp(app.browser, app.server.url);
    contexts.push(context);
    const dir = mkdtempSync(path.join(tmpdir(), 'shellchat-conformance-'));
    const diffs: string[] = [];
    const compare = async (line: string) => {
      let [inBrowser, inTerminal] = [await browser(page, line), await cli(app.server.url, dir, line)];
      if (line === ':help') inBrowser = helpOfTerminal(inBrowser);
      if (JSON.stringify(lines(inTerminal)) !== JSON.stringify(lines(inBrowser))) diffs.push(`${line}\nB: ${JSON.stringify(lines(inBrowser))}\nC: ${JSON.stringify(lines(inTerminal))}`);
      expect(lines(inTerminal).length, line).toBeGreaterThan(0);
    };
    for (const line of ANONYMOUS) await compare(line);
    for (const [line, inBrowser, inTerminal] of ELSEWHERE) {
      expect(lines(await browser(page, line)), line).toEqual(lines(inBrowser));
      expect(lines(await cli(app.server.url, dir, line)), line).toEqual(lines(inTerminal));
    }
    // The spec's message exact on its line, the closest command on the next, in the terminal too.
    expect(await cli(app.server.url, dir, ':logn')).toBe('Unknown command.\nDid you mean :login?\n');
    // Two new accounts, one in each, so that what one changes the other meets fresh.
    expect(await cli(app.server.url, dir, ':user add confo confo@example.org hunter2hunter2')).toBe('User confo added.\nLog in with :login confo <password>.\n');
    expect(await cli(app.server.url, dir, ':user add confb confb@example.org hunter2hunter2')).toBe('User confb added.\nLog in with :login confb <password>.\n');
    expect(await cli(app.server.url, dir, ':login confo hunter2hunter2')).toBe('Logged in as confo.\n');
    expect(await browser(page, ':login confb hunter2hunter2')).toContain('Logged in as confb.');
    for (const line of LOGGED_IN) await compare(line);
    expect(diffs.join('\n\n')).toBe('');
  }, 120_000);
});
