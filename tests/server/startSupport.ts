// The server started as an operator starts it (`node src/server/main.ts`, `npm start`'s
// scripts/start.ts, `npm run demo`'s scripts/demo.ts), with only the environment given, and
// its output read as that person reads it. For startErrors.test.ts and startLine.test.ts.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '../..');

export const tempDir = (name: string) => mkdtempSync(path.join(tmpdir(), `shellchat-${name}-`));

/** A built app for SHELLCHAT_DIST, newer than every source: `npm start` then builds nothing. */
export function builtApp(): string {
  const dist = tempDir('dist');
  writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>shellchat</title>');
  const later = new Date(Date.now() + 24 * 3600_000);
  utimesSync(path.join(dist, 'index.html'), later, later);
  mkdirSync(path.join(dist, 'assets'));
  return dist;
}

export async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** A port something else listens on (another program), until `close`. */
export async function occupiedPort(): Promise<{ port: number; close(): Promise<void> }> {
  const other = net.createServer();
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  const { port } = other.address() as net.AddressInfo;
  return { port, close: () => new Promise<void>((resolve) => other.close(() => resolve())) };
}

/** The environment of a start: nothing from the test's own, so a variable set here is the only one. */
export function operatorEnv(env: Record<string, string>): Record<string, string> {
  return { PATH: process.env.PATH ?? '', HOME: tmpdir(), HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env };
}

const started: ChildProcess[] = [];

/** Stops what a test left running (only the processes started here). */
export function stopStarted(): void {
  for (const child of started.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

export interface Run {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** The exit code (null when killed by a signal). */
  exited: Promise<number | null>;
}

export function run(script: string, env: Record<string, string>, options: { uid?: number; gid?: number } = {}): Run {
  const child = spawn(process.execPath, [script], { cwd: ROOT, env: operatorEnv(env), stdio: ['ignore', 'pipe', 'pipe'], ...options });
  started.push(child);
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
  // 'close': the exit, and the pipes read to their end.
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  return { child, stdout: () => out, stderr: () => err, exited };
}

/** A start that must stop: its exit code and output, once it has exited (killed past `ms`). */
export async function runToExit(script: string, env: Record<string, string>, options: { uid?: number; gid?: number } = {}, ms = 60_000) {
  const started = run(script, env, options);
  const timer = setTimeout(() => started.child.kill('SIGKILL'), ms);
  const code = await started.exited;
  clearTimeout(timer);
  return { code, stdout: started.stdout(), stderr: started.stderr() };
}

/** A start that must succeed: resolved once the log says it listens. */
export async function runUntilListening(script: string, env: Record<string, string>, ms = 60_000): Promise<Run> {
  const started = run(script, env);
  let gone = false;
  void started.exited.then(() => (gone = true));
  const deadline = Date.now() + ms;
  while (!started.stdout().includes('"msg":"shellchat listening"')) {
    if (gone || Date.now() > deadline) throw new Error(`the server did not start\nstdout: ${started.stdout()}\nstderr: ${started.stderr()}`);
    await new Promise((r) => setTimeout(r, 25));
  }
  return started;
}

/** The structured log's lines at a level (40 warn, 30 info), as their messages. */
export const logMessages = (stdout: string, level: number): string[] =>
  stdout
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { level: number; msg: string })
    .filter((line) => line.level === level)
    .map((line) => line.msg);

export const login = (url: string, password: string) =>
  fetch(`${url}/api/user/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'root', password }) });
