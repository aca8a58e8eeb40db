// `:session import <path>` and `:session export [--all] [--format md] [<file>]` in the terminal
// client, run as a child process against the real server: the file is streamed to the import,
// the report and its summary are printed; the export goes to stdout or to the file named.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../tests/server/support.ts';
import { usageOfCommand } from '../../src/core/registry.ts';
import { MESSAGES } from './common/messages.ts';
import manifest from './manifest.ts';
import { branchy, chatgptZip, json, noSlug, simple } from './fixtures/exports.ts';
import { createServer } from 'node:net';

const MAIN = path.join(import.meta.dirname, '../../src/cli/main.ts');
let t: TestServer;

beforeAll(async () => {
  t = await startTestServer('sqlite');
  await t.server.accounts.create({ username: 'termi', email: 'termi@example.org', password: 'hunter2hunter2' });
}, 60_000);
afterAll(async () => {
  await t?.close();
});

function cli(dir: string, args: string[], server = t.url): Promise<{ status: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [MAIN, '--server', server, ...args], { env: { ...process.env, SHELLCHAT_CONFIG_DIR: dir, NO_COLOR: '' } });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += String(d)));
    child.stderr.on('data', (d) => (err += String(d)));
    child.on('close', (status) => resolve({ status, out, err }));
    child.stdin.end('');
  });
}

describe('the terminal client', () => {
  it('imports a ChatGPT zip by its path, prints the report, and exports to stdout or a file', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'shellchat-archive-cli-'));
    expect((await cli(dir, [':login termi hunter2hunter2'])).out).toBe('Logged in as termi.\n');
    const zip = path.join(dir, 'chatgpt export.zip');
    writeFileSync(zip, chatgptZip([branchy, noSlug, simple(1)], 2));
    const imported = await cli(dir, [`:session import ${zip}`]);
    expect(imported.status).toBe(0);
    expect(imported.out).toContain('Monads and pictures');
    expect(imported.out).toContain('No model slug');
    expect(imported.out).toContain(MESSAGES.summary(3, 0, 0).text);
    const again = await cli(dir, [`:session import ${zip}`]);
    expect(again.out).toContain(MESSAGES.summary(0, 3, 0).text);
    expect(again.out).toContain('Already there');
    // A path that is not there says so.
    const missing = await cli(dir, [`:session import ${path.join(dir, 'nope.zip')}`]);
    expect(missing.err + missing.out).toContain('Cannot read');
    // All of it as Markdown on stdout; as JSON into a file.
    const md = await cli(dir, [':session export --all --format md']);
    expect(md.status).toBe(0);
    expect(md.out).toContain('**You:**\n\nWhat is a monad?');
    const file = path.join(dir, 'mine.json');
    const saved = await cli(dir, [`:session export --all ${file}`]);
    expect(saved.out).toBe(`${MESSAGES.exported(file).text}\n`);
    const exported = JSON.parse(readFileSync(file, 'utf8')) as { format: string; conversations: unknown[] };
    expect(exported).toMatchObject({ format: 'shellchat' });
    expect(exported.conversations).toHaveLength(3);
    // Bad options give the usage line the shell gives, from the manifest; no file names the import's.
    const usage = 'Usage: :session export [--all] [--format md|json] [<file>]';
    expect(`Usage: ${usageOfCommand(manifest, 'session.export')}`).toBe(usage);
    expect((await cli(dir, [':session export --format pdf'])).err).toContain(usage);
    const noFile = await cli(dir, [':session import']);
    expect(noFile.err).toContain('Usage: :session import [<file>] (a .zip or a .json export).');
    expect(noFile.err).toContain(MESSAGES.noFile.text);
  }, 120_000);

  it('says once that the server is down, and shows no progress after saying it', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'shellchat-archive-cli-'));
    expect((await cli(dir, [':login termi hunter2hunter2'])).out).toBe('Logged in as termi.\n');
    const file = path.join(dir, 'big.json');
    writeFileSync(file, json(Array.from({ length: 300 }, (_, i) => simple(i, 'lorem ipsum '.repeat(200)))));
    // A port nothing listens on.
    const closed = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    const down = await cli(dir, [`:session import ${file}`], `http://127.0.0.1:${closed}`);
    expect(down.status).toBe(1);
    // The progress of a body the client went on reading after the answer failed was shown after
    // the failure, with the browser's 'You are offline.' repeated under it.
    expect(down.err).not.toContain('You are offline.');
    expect(down.err.trimEnd().split('\n').at(-1)).toContain(`Could not reach the server http://127.0.0.1:${closed}`);
  }, 60_000);
});
