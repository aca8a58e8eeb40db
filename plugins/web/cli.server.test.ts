// The terminal client's `:web open`: the page's marker is printed under the attachment line (the
// interactive shell also puts it in the next prompt's line), for the question to carry.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../../tests/fixtures/fakeOpenAI.ts';
import { HAS_TMUX } from '../../tests/fixtures/tmux.ts';
import { startTestServer, type TestServer } from '../../tests/server/support.ts';
import { startFakeWeb, type FakeWeb } from './fixtures/site.ts';

const MAIN = path.join(import.meta.dirname, '../../src/cli/main.ts');
let site: FakeWeb;
let fake: FakeOpenAI;
let t: TestServer;

beforeAll(async () => {
  [site, fake] = await Promise.all([startFakeWeb(), startFakeOpenAI({ models: ['gpt-demo'] })]);
  t = await startTestServer('sqlite', { MODEL: 'gpt-demo', OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'sk-test', SEARXNG_URL: site.searxngUrl, EGRESS_ALLOW_HOSTS: `localhost:${site.port}` });
}, 60_000);
afterAll(async () => {
  await t?.close();
  await Promise.all([site?.close(), fake?.close()]);
});

/** The CLI as a child process (asynchronously: the server under test is in this process). */
function cli(args: string[], server = t.url, dir = mkdtempSync(path.join(tmpdir(), 'shellchat-web-cli-'))): Promise<{ status: number | null; out: string; err: string }> {
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
  it(':web open prints the page and its marker for the question', async () => {
    const run = await cli([`:web open ${site.origin}/article/rust`]);
    expect(run.err).toBe('');
    expect(run.out.split('\n')).toEqual([expect.stringMatching(/^Attached to your next question: Async fn in traits/), `+page[${site.origin}/article/rust]`, '']);
  }, 60_000);

  it('a +web[query] question on a server with no search backend says so in one line, and asks no model', async () => {
    const none = await startTestServer('sqlite', { MODEL: 'gpt-demo', OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'sk-test' });
    try {
      const asked = fake.requests.length;
      const run = await cli(['What is new? +web[rust 1.75]'], none.url);
      expect(`${run.out}${run.err}`.trim()).toBe('Web search is not configured on this server (set SEARXNG_URL or BRAVE_SEARCH_API_KEY).');
      expect(fake.requests.length).toBe(asked);
    } finally {
      await none.close();
    }
  }, 60_000);

  it('a +web[query] question whose search backend answers 500 says so in one line, in the interface language, and asks no model', async () => {
    const down = await startTestServer('sqlite', { MODEL: 'gpt-demo', OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'sk-test', SEARXNG_URL: `${site.origin}/broken` });
    try {
      const dir = mkdtempSync(path.join(tmpdir(), 'shellchat-web-cli-'));
      expect((await cli([':lang use de-DE'], down.url, dir)).status).toBe(0);
      const asked = fake.requests.length;
      const run = await cli(['Was gibt es Neues? +web[rust 1.75]'], down.url, dir);
      expect(`${run.out}${run.err}`.trim()).toBe('Der Suchdienst hat nicht geantwortet (status 500).');
      expect(fake.requests.length).toBe(asked);
    } finally {
      await down.close();
    }
  }, 60_000);

  it.skipIf(!HAS_TMUX)('puts the marker in the next prompt, again after a command, and the question carries the page', async () => {
    const tmux = (...args: string[]) => execFileSync('tmux', args, { encoding: 'utf8' });
    const screen = (name: string) => tmux('capture-pane', '-p', '-S', '-', '-t', name);
    const until = async (name: string, test: (text: string) => boolean) => {
      const end = Date.now() + 15_000;
      for (;;) {
        const text = screen(name);
        if (test(text)) return text;
        if (Date.now() > end) throw new Error(`screen never matched; its end:\n${text.trimEnd().split('\n').slice(-12).join('\n')}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    const dir = mkdtempSync(path.join(tmpdir(), 'shellchat-web-cli-'));
    const name = `shellchat-web-${process.pid}`;
    const marker = `+page[${site.origin}/article/rust]`;
    const promptWithMarker = (s: string) => s.trimEnd().split('\n').at(-1) === `gpt-demo> ${marker}`;
    tmux('new-session', '-d', '-s', name, '-x', '200', '-y', '40', `SHELLCHAT_CONFIG_DIR=${dir} ${process.execPath} ${MAIN} --server ${t.url}`);
    try {
      await until(name, (s) => s.includes('gpt-demo>'));
      tmux('send-keys', '-t', name, `:web open ${site.origin}/article/rust`, 'Enter');
      await until(name, promptWithMarker);
      // Deleted to type a command, it comes back in the next prompt's line.
      tmux('send-keys', '-t', name, 'C-u', ':web', 'Enter');
      await until(name, (s) => s.includes('Pages read') && promptWithMarker(s));
      fake.reply({ text: 'Traits are async now.' });
      tmux('send-keys', '-t', name, 'What changed?', 'Enter');
      await until(name, (s) => s.includes('Traits are async now.'));
      const system = (fake.requests.at(-1)!.body.messages as { role: string; content: string }[]).filter((m) => m.role === 'system').map((m) => m.content).join('\n');
      expect(system).toContain('Async functions in traits were stabilized in Rust 1.75');
      // The question took it: the next prompt is empty.
      expect(screen(name).trimEnd().split('\n').at(-1)).toBe('gpt-demo>');
    } finally {
      tmux('kill-session', '-t', name);
    }
  }, 60_000);
});
