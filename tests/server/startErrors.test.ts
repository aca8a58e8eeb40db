// Issue 33, items 9 to 11: what an operator reads when a start cannot go on. The server is
// started as a person starts it, with each mistake; stderr must be one line per fault that names
// the variable and the cause (never a stack trace), and the exit code 1. A port in use stops the
// start before root is made, so the one-time password is shown by the next start; what the
// server can run without is one warning each in the log.
import { chmodSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { builtApp, freePort, login, logMessages, occupiedPort, runToExit, runUntilListening, stopStarted, tempDir } from './startSupport.ts';

const MAIN = 'src/server/main.ts';
const PORT_IN_USE = (port: number) => `shellchat cannot start: PORT ${port} is already in use on 127.0.0.1: stop what listens there, or set PORT to a free port\n`;

afterEach(stopStarted);

/** A start with the mistake in `env` (on a free port, a fresh DATA_DIR): its exit code and stderr. */
async function startWith(env: Record<string, string>) {
  return runToExit(MAIN, { PORT: String(await freePort()), DATA_DIR: tempDir('start'), SHELLCHAT_DIST: builtApp(), ...env });
}

/** Exactly these lines, each one fault; and nothing of a trace. */
function expectLines(result: { code: number | null; stderr: string }, ...lines: string[]) {
  expect(result.stderr).toBe(lines.map((line) => `shellchat cannot start: ${line}\n`).join(''));
  expect(result.stderr).not.toMatch(/^\s+at /m);
  expect(result.code).toBe(1);
}

describe('a port in use', () => {
  it('stops the start with one line, and the next start still shows the one-time root password', async () => {
    const other = await occupiedPort();
    const dataDir = tempDir('port');
    const env = { PORT: String(other.port), DATA_DIR: dataDir, SHELLCHAT_DIST: builtApp() };
    const refused = await runToExit(MAIN, env);
    expect(refused.stderr).toBe(PORT_IN_USE(other.port));
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');

    // The port is free again: the same DATA_DIR's first real start makes root and says its password.
    await other.close();
    const server = await runUntilListening(MAIN, env);
    // stderr and stdout are two pipes: the password may arrive after the listening line.
    await expect.poll(() => server.stderr(), { timeout: 10_000 }).toMatch(/^Created the root account\./m);
    const shown = server.stderr().match(/^Created the root account\. Username: root {2}Password: (\S+)$/m);
    expect(shown, server.stderr()).not.toBeNull();
    expect((await login(`http://127.0.0.1:${other.port}`, shown![1]!)).status).toBe(200);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  }, 90_000);

  it('npm start (scripts/start.ts) says it in one line, before building anything', async () => {
    const other = await occupiedPort();
    try {
      // No built app: a start that reached the build would print Vite's output first.
      const result = await runToExit('scripts/start.ts', { PORT: String(other.port), DATA_DIR: tempDir('npm-start'), SHELLCHAT_DIST: tempDir('no-dist') });
      expect(result.stderr).toBe(PORT_IN_USE(other.port));
      expect(result.stdout).toBe('');
      expect(result.code).toBe(1);
    } finally {
      await other.close();
    }
  }, 60_000);

  it('npm run demo (scripts/demo.ts) says it in one line', async () => {
    const other = await occupiedPort();
    try {
      const result = await runToExit('scripts/demo.ts', { PORT: String(other.port), DATA_DIR: tempDir('demo'), SHELLCHAT_DIST: builtApp() });
      expect(result.stderr).toBe(PORT_IN_USE(other.port));
      expect(result.stdout).toMatch(/^Demo model server \(fake, OpenAI wire format\) at http:\/\/127\.0\.0\.1:\d+\/v1; demo PayPal at http:\/\/127\.0\.0\.1:\d+\n$/);
      expect(result.code).toBe(1);
    } finally {
      await other.close();
    }
  }, 60_000);
});

describe('a database that cannot be reached or a DATABASE_URL that is not one', () => {
  it('says where PostgreSQL was looked for and why, never the URL with its password', async () => {
    const result = await startWith({ DATABASE_URL: 'postgres://shellchat:hunter2secret@127.0.0.1:1/chat' });
    expectLines(result, 'DATABASE_URL: cannot connect to PostgreSQL at 127.0.0.1:1: connection refused');
    expect(result.stderr).not.toContain('hunter2secret');
  }, 60_000);

  it('says the same of MySQL', async () => {
    const result = await startWith({ DATABASE_URL: 'mysql://shellchat:hunter2secret@127.0.0.1:1/chat' });
    expectLines(result, 'DATABASE_URL: cannot connect to MySQL at 127.0.0.1:1: connection refused');
    expect(result.stderr).not.toContain('hunter2secret');
  }, 60_000);

  it('says what a malformed one must look like, without repeating it', async () => {
    const unknown = await startWith({ DATABASE_URL: 'postgress://shellchat:hunter2secret@db/chat' });
    expectLines(unknown, 'DATABASE_URL must start with sqlite:, postgres://, postgresql://, mysql:// or mariadb://');
    const malformed = await startWith({ DATABASE_URL: 'postgres://shellchat:hunter2secret@db:port/chat' });
    expectLines(malformed, 'DATABASE_URL is not a valid URL: postgres://user:password@host:5432/db, with the password URL-encoded (%40 for @)');
    expect(unknown.stderr + malformed.stderr).not.toContain('hunter2secret');
  }, 60_000);
});

describe('a value accepted without a word before', () => {
  it('OPENAI_BASE_URL that is not a URL', async () => {
    expectLines(await startWith({ MODEL: 'gpt-test', OPENAI_BASE_URL: 'notaurl' }), 'OPENAI_BASE_URL must be an http(s) URL, got notaurl');
  }, 60_000);

  it('files named that do not exist: MODELS_FILE, ROLES_FILE, PLANS_FILE, SHELLCHAT_APP_CONFIG', async () => {
    const nowhere = path.join(tempDir('nowhere'), 'missing');
    for (const variable of ['MODELS_FILE', 'ROLES_FILE', 'PLANS_FILE', 'SHELLCHAT_APP_CONFIG']) {
      expectLines(await startWith({ [variable]: `${nowhere}.json` }), `${variable} ${nowhere}.json does not exist`);
    }
  }, 120_000);

  it('a models file that is not JSON', async () => {
    const file = path.join(tempDir('models'), 'models.json');
    writeFileSync(file, '[{"name": "gpt"');
    const result = await startWith({ MODELS_FILE: file });
    expect(result.stderr).toMatch(new RegExp(`^shellchat cannot start: MODELS_FILE ${file} is not valid JSON: [^\\n]+\\n$`));
    expect(result.code).toBe(1);
  }, 60_000);

  it('a DATA_DIR that cannot be written', async () => {
    const file = path.join(tempDir('data-file'), 'data');
    writeFileSync(file, 'not a directory');
    expectLines(await startWith({ DATA_DIR: file }), `DATA_DIR ${file} is not a directory`);
    const readOnly = tempDir('read-only');
    chmodSync(readOnly, 0o555);
    // root writes anywhere: the start is then made as nobody, as a service account would be.
    const asNobody = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
    const result = await runToExit(MAIN, { PORT: String(await freePort()), DATA_DIR: readOnly, SHELLCHAT_DIST: builtApp() }, asNobody);
    expectLines(result, `DATA_DIR ${readOnly} cannot be written: permission denied`);
  }, 60_000);

  it('a bad PORT, a HOST that is not this machine\'s, a ROOT_PASSWORD the account rules refuse', async () => {
    expectLines(await startWith({ PORT: 'eighty' }), 'PORT must be a whole number from 0 to 65535, got eighty');
    expectLines(await startWith({ HOST: '192.0.2.1' }), 'HOST 192.0.2.1 is not an address of this machine: set HOST to one of its addresses, 127.0.0.1 or 0.0.0.0');
    expectLines(await startWith({ ROOT_PASSWORD: 'short' }), 'ROOT_PASSWORD is refused: Password must be at least 8 characters.');
  }, 90_000);

  it('URLs and lists of the wrong shape, one line each, without repeating a URL that may hold a password', async () => {
    const result = await startWith({
      REDIS_URL: 'redis//cache:6379',
      SECRET_KEY: 'one-secret-for-all-instances',
      DATABASE_URL: 'postgres://shellchat@127.0.0.1:1/chat',
      SMTP_URL: 'mail.example.org',
      HTTPS_PROXY: 'proxy:3128',
      PUBLIC_URL: 'chat.example.org',
      ALLOWED_ORIGINS: 'https://chat.example.org/app',
      EGRESS_ALLOW_HOSTS: 'http://llm.lan',
      PAYPAL_API_URL: 'api-m.paypal.com',
    });
    expectLines(
      result,
      'REDIS_URL must be a URL such as redis://host:6379 (redis://, rediss://)',
      'PUBLIC_URL must be an http(s) URL, got chat.example.org',
      'SMTP_URL must be a URL such as smtp://user:pass@host:587 (smtp://, smtps://)',
      'ALLOWED_ORIGINS must be origins as browsers send them, such as https://chat.example.org (scheme, host in lowercase, a port only when not the default; no path), got https://chat.example.org/app',
      'HTTPS_PROXY must be a URL such as http://proxy:3128 (http://, https://)',
      'EGRESS_ALLOW_HOSTS must be host or host:port entries, without a scheme or a path, got http://llm.lan',
      'PAYPAL_API_URL must be an http(s) URL, got api-m.paypal.com',
    );
    expectLines(await startWith({ https_proxy: 'proxy:3128' }), 'https_proxy must be a URL such as http://proxy:3128 (http://, https://)');
    const remotes = await startWith({ PLUGIN_REMOTES: '[{"name": "x"' });
    expect(remotes.stderr).toMatch(/^shellchat cannot start: PLUGIN_REMOTES is not valid JSON: [^\n]+\n$/);
    expect(remotes.code).toBe(1);
  }, 90_000);

  it('a start that fails after the database is ready does not make root: the next start shows its password', async () => {
    const dataDir = tempDir('late');
    const env = { PORT: String(await freePort()), DATA_DIR: dataDir, SHELLCHAT_DIST: builtApp() };
    expectLines(await runToExit(MAIN, { ...env, PLANS: '{not json' }), 'PLANS is not JSON: [{"role":"plus_user","price":"6.00"}]');
    const server = await runUntilListening(MAIN, env);
    await expect.poll(() => server.stderr(), { timeout: 10_000 }).toMatch(/^Created the root account\. Username: root {2}Password: \S+$/m);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  }, 90_000);
});

describe('what the server can run without', () => {
  it('is one warning each in the log, and a start without any logs none', async () => {
    const clean = await runUntilListening(MAIN, { PORT: String(await freePort()), DATA_DIR: tempDir('clean'), SHELLCHAT_DIST: builtApp(), ROOT_PASSWORD: 'root-password-1' });
    clean.child.kill('SIGTERM');
    expect(await clean.exited).toBe(0);
    expect(logMessages(clean.stdout(), 40)).toEqual([]);
    expect(clean.stderr()).toBe('');

    const closed = await freePort();
    const dist = path.join(tempDir('unbuilt'), 'dist');
    const warned = await runUntilListening(MAIN, {
      PORT: String(await freePort()),
      DATA_DIR: tempDir('warned'),
      SHELLCHAT_DIST: dist,
      ROOT_PASSWORD: 'root-password-1',
      USE_SUBSCRIPTIONS: 'true',
      SMTP_URL: `smtp://127.0.0.1:${closed}`,
    });
    warned.child.kill('SIGTERM');
    expect(await warned.exited).toBe(0);
    expect(logMessages(warned.stdout(), 40)).toEqual([
      'USE_SUBSCRIPTIONS is on, but PAYPAL_CLIENT_ID and PAYPAL_CLIENT_SECRET are not both set: plans are shown, nothing can be bought',
      `SHELLCHAT_DIST ${dist} holds no built app: the API is served, the page is not (npm start builds it)`,
      `SMTP_URL: the mail server at 127.0.0.1:${closed} does not answer (connection refused): e-mails (password reset, address verification) fail until it does`,
    ]);
    expect(warned.stderr()).toBe('');
  }, 90_000);
});
