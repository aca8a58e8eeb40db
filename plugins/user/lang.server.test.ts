// The language a person chooses sticks across runs of the terminal client, as on the page: a
// visitor's in the profile, a logged-in user's on the server too, and a choice made elsewhere
// (the page, another device) read at the next start. The CLI runs as a child process against the
// real server, through a proxy that answers the account's start-up check (/api/user/info) late,
// as a slow link may: the first command must still see the account's settings, and a choice
// made meanwhile (in the terminal or on the page) must not be undone by that older answer.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createShellTester } from '../../tests/harness/shellTester.ts';
import { engines, startTestServer, type TestServer } from '../../tests/server/support.ts';

const MAIN = path.resolve(import.meta.dirname, '../../src/cli/main.ts');
/** How long the slow link holds the start-up check's answer at most: longer than a command takes here. */
const SLOW_CHECK_MS = 1_500;

/**
 * A proxy to the server that holds the answer of the account's start-up check back until the
 * client saves a setting (or SLOW_CHECK_MS pass): an answer older than the choice, arriving just
 * as it is made.
 */
async function slowLink(target: string): Promise<{ url: string; close: () => Promise<void> }> {
  let settingSaved = () => {};
  const proxy = http.createServer((req, res) => {
    const held = req.url?.startsWith('/api/user/info')
      ? new Promise<void>((resolve) => {
          settingSaved = resolve;
          setTimeout(resolve, SLOW_CHECK_MS);
        })
      : undefined;
    if (req.url?.startsWith('/api/user/update/setting')) settingSaved();
    const upstream = http.request(`${target}${req.url}`, { method: req.method, headers: req.headers }, async (answer) => {
      await held;
      res.writeHead(answer.statusCode!, answer.headers);
      answer.pipe(res);
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`, close: () => new Promise((resolve) => proxy.close(() => resolve())) };
}

for (const engine of await engines()) {
  describe(`a chosen language across runs (${engine})`, () => {
    let server: TestServer;
    let link: Awaited<ReturnType<typeof slowLink>>;

    beforeAll(async () => {
      server = await startTestServer(engine);
      link = await slowLink(server.url);
      for (const name of ['hilde', 'marie', 'greta']) await server.server.accounts.create({ username: name, email: `${name}@example.org`, password: `pw-${name}-secret` });
    }, 60_000);

    afterAll(async () => {
      await link?.close();
      await server?.close();
    });

    /** One run of `shellchat <line>` with the profile in dir; what it printed. */
    const cli = (dir: string, line: string) =>
      new Promise<string>((resolve) => {
        const child = spawn(process.execPath, [MAIN, '--server', link.url, line], { env: { ...process.env, SHELLCHAT_CONFIG_DIR: dir, NO_COLOR: '', SHELLCHAT_API_KEY: '' } });
        let out = '';
        child.stdout.on('data', (d) => (out += String(d)));
        child.stderr.on('data', (d) => (out += String(d)));
        child.on('close', () => resolve(out));
        child.stdin.end();
      });
    const profile = () => mkdtempSync(path.join(tmpdir(), 'shellchat-lang-cli-'));
    const savedLang = (dir: string) => (JSON.parse(readFileSync(path.join(dir, 'settings.json'), 'utf8')) as { lang: string }).lang;
    const accountLang = async (name: string) => (await server.server.accounts.toPublic((await server.server.accounts.byUsername(name))!)).settings.lang;

    it("keeps a visitor's language in the profile, and `:lang` says it after a restart", async () => {
      const dir = profile();
      expect(await cli(dir, ':lang use de-DE')).toBe('Sprache auf Deutsch (Deutschland) (de-DE) gesetzt.\n');
      expect(savedLang(dir)).toBe('de-DE');
      expect(await cli(dir, ':lang')).toBe('Sprache: Deutsch (Deutschland) (de-DE)\n');
      await cli(dir, ':lang reset');
      expect(await cli(dir, ':lang')).toBe('Language not set.\n');
    }, 60_000);

    it("keeps a logged-in user's language on the server and in the profile, though the start-up check answers late", async () => {
      const dir = profile();
      expect(await cli(dir, ':login hilde pw-hilde-secret')).toBe('Logged in as hilde.\n');
      expect(await cli(dir, ':lang use de-DE')).toBe('Sprache auf Deutsch (Deutschland) (de-DE) gesetzt.\n');
      expect(savedLang(dir)).toBe('de-DE');
      expect(await accountLang('hilde')).toBe('de-DE');
      expect(await cli(dir, ':lang')).toBe('Sprache: Deutsch (Deutschland) (de-DE)\n');
      expect(savedLang(dir)).toBe('de-DE');
    }, 60_000);

    it('reads a language chosen elsewhere (the page, another device) at the next start', async () => {
      const dir = profile();
      expect(await cli(dir, ':login marie pw-marie-secret')).toBe('Logged in as marie.\n');
      expect(await cli(dir, ':lang use de-DE')).toBe('Sprache auf Deutsch (Deutschland) (de-DE) gesetzt.\n');
      // The page, logged in as marie, saves another language to her account.
      const { token } = await server.server.accounts.createLoginToken((await server.server.accounts.byUsername('marie'))!.id, 60_000);
      const saved = await fetch(`${server.url}/api/user/update/setting`, {
        method: 'POST',
        headers: { cookie: `auth=${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ key: 'lang', value: 'fr-FR' }),
      });
      expect(saved.status).toBe(200);
      expect(await cli(dir, ':lang')).toBe('Langue : français (France) (fr-FR)\n');
      expect(savedLang(dir)).toBe('fr-FR');
    }, 60_000);

    it('on the page too, a language chosen before the start-up check answers stays chosen', async () => {
      const greta = (await server.server.accounts.byUsername('greta'))!;
      await server.server.accounts.updateSetting(greta, 'theme', 'dark');
      // A page opened with greta's login, as she left it, on the slow link.
      const page = await createShellTester({ serverUrl: link.url, settings: { user: 'greta', theme: 'light' } });
      page.cookies.set('auth', (await server.server.accounts.createLoginToken(greta.id, 60_000)).token);
      await page.host.activateStartup();
      expect((await page.run(':lang use de-DE')).text).toBe('Language set to Deutsch (Deutschland) (de-DE).');
      // The check's answer is in once the account's theme is.
      await expect.poll(() => page.settings.get('theme'), { timeout: 5_000 }).toBe('dark');
      expect(page.settings.get('lang')).toBe('de-DE');
      expect(await accountLang('greta')).toBe('de-DE');
    }, 30_000);
  });
}
