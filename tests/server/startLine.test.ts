// Issue 33, item 12: at a terminal (tmux), a start ends with one plain line that says where the
// app is, then the first start's root password, after the structured log; piped, the output
// stays JSON lines only (process.test.ts and startErrors.test.ts read it so).
import { execFileSync, spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { builtApp, freePort, login, operatorEnv, ROOT, runUntilListening, stopStarted, tempDir } from './startSupport.ts';
import { HAS_TMUX } from '../fixtures/tmux.ts';


afterEach(stopStarted);

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

describe.skipIf(!HAS_TMUX)('the start line at a terminal', () => {
  const tmux = (...args: string[]) => execFileSync('tmux', args, { encoding: 'utf8' });

  it('says in one plain line where the app is served, after the log, with the root password last', async () => {
    const port = await freePort();
    const name = `shellchat-start-${process.pid}`;
    const env = operatorEnv({ PORT: String(port), DATA_DIR: tempDir('tty'), SHELLCHAT_DIST: builtApp() });
    const command = `env -i ${Object.entries(env).map(([k, v]) => `${k}=${quote(v)}`).join(' ')} ${quote(process.execPath)} src/server/main.ts`;
    tmux('new-session', '-d', '-s', name, '-x', '200', '-y', '50', '-c', ROOT, command);
    try {
      const screen = () => tmux('capture-pane', '-p', '-J', '-t', name);
      const deadline = Date.now() + 60_000;
      while (!/not shown again/.test(screen()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      const lines = screen().split('\n').filter((line) => line.trim() !== '');
      const at = lines.findIndex((line) => line.startsWith('shellchat is at '));
      expect(lines[at], screen()).toBe(`shellchat is at http://127.0.0.1:${port}`);
      // The structured log comes before it (its last line says the same), the password after it.
      expect(JSON.parse(lines[at - 1]!)).toMatchObject({ msg: 'shellchat listening', url: `http://127.0.0.1:${port}` });
      expect(lines.slice(at + 1)).toEqual([
        expect.stringMatching(/^Created the root account\. Username: root {2}Password: [A-Za-z0-9]{16}$/),
        'Set ROOT_PASSWORD to choose it yourself; this password is not shown again.',
      ]);
      const password = lines[at + 1]!.split('Password: ')[1]!;
      expect((await login(`http://127.0.0.1:${port}`, password)).status).toBe(200);
    } finally {
      spawnSync('tmux', ['kill-session', '-t', name]);
    }
  }, 90_000);

  it('piped, the output is the JSON log alone', async () => {
    const server = await runUntilListening('src/server/main.ts', { PORT: String(await freePort()), DATA_DIR: tempDir('piped'), SHELLCHAT_DIST: builtApp(), ROOT_PASSWORD: 'root-password-1' });
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(server.stdout()).not.toContain('shellchat is at');
    for (const line of server.stdout().trim().split('\n')) expect(() => JSON.parse(line), line).not.toThrow();
  }, 60_000);
});
