// The real server process (src/server/main.ts), as an operator starts it: the generated root
// password is shown once, on stderr only; a second start does not show it again; and SIGTERM
// lets a request that is still arriving finish before the process exits with code 0.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const dataDir = mkdtempSync(path.join(tmpdir(), 'shellchat-process-'));

interface Running {
  child: ChildProcess;
  port: number;
  url: string;
  stdout(): string;
  stderr(): string;
  /** The exit code (null when killed by a signal), once the process has exited. */
  exited: Promise<number | null>;
}

const started: ChildProcess[] = [];

async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

async function waitFor(what: string, check: () => boolean, ms: number, exited?: Promise<unknown>): Promise<void> {
  let gone = false;
  void exited?.then(() => (gone = true));
  const deadline = Date.now() + ms;
  while (!check()) {
    if (gone) throw new Error(`the server exited while waiting for ${what}`);
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Starts the server on a free port with only the environment given here (no ROOT_PASSWORD). */
async function start(): Promise<Running> {
  const port = await freePort();
  const child = spawn(process.execPath, ['src/server/main.ts'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? tmpdir(),
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SHELLCHAT_DIST: path.join(dataDir, 'no-dist'),
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const running: Running = { child, port, url: `http://127.0.0.1:${port}`, stdout: () => out, stderr: () => err, exited };
  await waitFor('"shellchat listening"', () => out.includes('"msg":"shellchat listening"'), 30_000, exited).catch((e: Error) => {
    throw new Error(`${e.message}\nstdout: ${out}\nstderr: ${err}`);
  });
  return running;
}

async function stop(running: Running): Promise<number | null> {
  running.child.kill('SIGTERM');
  return running.exited;
}

const login = (url: string, password: string) =>
  fetch(`${url}/api/user/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'root', password }) });

afterEach(() => {
  // Only the processes this file started, and only if a test left one running.
  for (const child of started.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});
afterAll(() => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

describe('the server process', () => {
  let rootPassword = '';

  it('prints the generated root password once on stderr, never in the structured log', async () => {
    const server = await start();
    const stderr = server.stderr();
    expect(stderr.match(/Password:/g)?.length).toBe(1);
    const shown = stderr.match(/Username: root {2}Password: (\S+)\n/);
    expect(shown?.[1]).toMatch(/^[A-Za-z0-9]{16}$/);
    rootPassword = shown![1]!;

    const res = await login(server.url, rootPassword);
    expect(res.status).toBe(200);
    expect((await res.json()).result.user).toMatchObject({ username: 'root', role: 'root_user' });
    expect((await login(server.url, 'not-the-root-password')).status).toBe(401);

    expect(await stop(server)).toBe(0);
    const stdout = server.stdout();
    // The structured log is JSON lines, carries the login, and not the password.
    const lines = stdout.trim().split('\n');
    for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow();
    expect(stdout).toContain('"msg":"login"');
    expect(stdout).not.toContain(rootPassword);
    expect(server.stderr()).toBe(stderr);
  }, 60_000);

  it('does not print a password again on a second start with the same DATA_DIR', async () => {
    expect(rootPassword).not.toBe('');
    const server = await start();
    expect(server.stderr()).not.toMatch(/Password/);
    expect((await login(server.url, rootPassword)).status).toBe(200);
    expect(await stop(server)).toBe(0);
    expect(server.stderr()).not.toMatch(/Password/);
    expect(server.stdout()).not.toContain(rootPassword);
  }, 60_000);

  it('lets a request that is still arriving finish on SIGTERM, then exits with code 0', async () => {
    expect(rootPassword).not.toBe('');
    const server = await start();
    const body = JSON.stringify({ username: 'root', password: rootPassword });
    const half = Math.floor(body.length / 2);
    const request = http.request({
      host: '127.0.0.1',
      port: server.port,
      method: 'POST',
      path: '/api/user/login',
      headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
    });
    const response = new Promise<{ status: number; text: string }>((resolve, reject) => {
      request.on('response', (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        res.on('error', reject);
      });
      request.on('error', reject);
    });
    request.write(body.slice(0, half));
    // Let the server take the request in hand (it waits for the rest of the body).
    await new Promise((r) => setTimeout(r, 300));

    server.child.kill('SIGTERM');
    await waitFor('the shutdown to begin', () => server.stdout().includes('"msg":"finishing in-flight requests"'), 5_000, server.exited);
    await new Promise((r) => setTimeout(r, 300));
    expect(server.child.exitCode).toBeNull(); // still waiting for our request

    request.end(body.slice(half));
    const answer = await response;
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toMatchObject({ success: true, message: 'Logged in as root.' });

    // The answered connection goes idle and is closed, so the process does not linger until the
    // keep-alive timeout (5 s) or the 10 s deadline.
    const answeredAt = Date.now();
    const code = await Promise.race([server.exited, new Promise<'slow'>((r) => setTimeout(() => r('slow'), 3_000))]);
    expect(code).toBe(0);
    expect(Date.now() - answeredAt).toBeLessThan(3_000);
  }, 60_000);
});
