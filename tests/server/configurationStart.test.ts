// One source for the configuration (issue 21): a wrong value stops the server with a message
// that names the variable. It starts the server (a second or so), so it runs with the server's
// tests rather than in the unit loop (issue 35); tests/contract/configuration.test.ts has the rest.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

describe('configuration', () => {
  // One line per variable at fault (issue 33: every operator error is one line).
  it('a wrong value stops the server, naming each variable at fault', () => {
    const started = spawnSync(process.execPath, [path.join(ROOT, 'src/server/main.ts')], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, PORT: 'eighty', TEMPERATURE: '3', TRUST_PROXY: 'maybe', DATA_DIR: path.join(ROOT, '.tmp', 'config-test') },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(started.status).toBe(1);
    expect(started.stderr).toBe(
      'shellchat cannot start: PORT must be a whole number from 0 to 65535, got eighty\n' +
        'shellchat cannot start: TRUST_PROXY must be true or false, got maybe\n' +
        'shellchat cannot start: TEMPERATURE must be a number from 0 to 2, got 3\n',
    );
  });
});
