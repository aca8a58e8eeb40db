// A third-party plugin loaded at runtime as a Module Federation remote: the example in
// examples/hello-plugin is built with Vite, served from another origin by a bare static
// server (with CORS), and named to the shellchat server through PLUGIN_REMOTES.
import { createReadStream, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, HAS_CHROME, launchBrowser, openApp, ROOT, run, startServer, type RunningServer } from './support.ts';

const REMOTE_DIR = path.join(ROOT, 'examples/hello-plugin');
const REMOTE_DIST = path.join(REMOTE_DIR, 'dist');

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

/** Serves `dir` read-only, to any origin. */
async function serveStatic(dir: string): Promise<{ server: Server; origin: string; requests: string[] }> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    requests.push(pathname);
    res.setHeader('Access-Control-Allow-Origin', '*');
    const file = path.join(dir, path.normalize(pathname));
    let isFile = false;
    try {
      isFile = file.startsWith(dir + path.sep) && statSync(file).isFile();
    } catch {
      isFile = false;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405).end();
    } else if (!isFile) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found');
    } else {
      res.writeHead(200, { 'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream', 'Cache-Control': 'no-store' });
      if (req.method === 'HEAD') res.end();
      else createReadStream(file).pipe(res);
    }
  });
  const port = await freePort();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return { server, origin: `http://127.0.0.1:${port}`, requests };
}

/**
 * Builds the example remote. @module-federation/vite turns itself off when it sees a test
 * runner (VITEST, NODE_ENV=test) unless MFE_VITE_NO_TEST_ENV_CHECK=true.
 */
async function buildRemote(): Promise<void> {
  const saved = process.env.MFE_VITE_NO_TEST_ENV_CHECK;
  process.env.MFE_VITE_NO_TEST_ENV_CHECK = 'true';
  try {
    await build({ configFile: path.join(REMOTE_DIR, 'vite.config.ts'), root: REMOTE_DIR, logLevel: 'silent' });
  } finally {
    if (saved === undefined) delete process.env.MFE_VITE_NO_TEST_ENV_CHECK;
    else process.env.MFE_VITE_NO_TEST_ENV_CHECK = saved;
  }
}

/** Runs the line until the remote has loaded (it loads after the first paint). */
async function runUntilKnown(page: Parameters<typeof run>[0], line: string, ms = 10_000): Promise<string> {
  const deadline = Date.now() + ms;
  for (;;) {
    const text = await run(page, line);
    if (!text.includes('Unknown command.') || Date.now() > deadline) return text;
    await page.waitForTimeout(200);
  }
}

describe.skipIf(!HAS_CHROME)('third-party plugin as a Module Federation remote', () => {
  let browser: Browser;
  let remote: Awaited<ReturnType<typeof serveStatic>>;
  const servers: RunningServer[] = [];

  beforeAll(async () => {
    await buildRemote();
    statSync(path.join(REMOTE_DIST, 'remoteEntry.js'));
    remote = await serveStatic(REMOTE_DIST);
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await Promise.all(servers.map((s) => s.stop()));
    await new Promise<void>((resolve) => (remote ? remote.server.close(() => resolve()) : resolve()));
  });

  it('loads the remote named in PLUGIN_REMOTES and runs its command', async () => {
    const server = await startServer({
      PLUGIN_REMOTES: JSON.stringify([{ name: 'hello_plugin', entry: `${remote.origin}/remoteEntry.js` }]),
    });
    servers.push(server);
    const { context, page, errors } = await openApp(browser, server.url);
    const consoleErrors: string[] = [];
    page.on('console', (m) => void (m.type() === 'error' && consoleErrors.push(m.text())));
    try {
      const answer = await runUntilKnown(page, ':hello Ada');
      expect(answer, `console: ${consoleErrors.join('\n')}\nserver: ${server.logs()}`).toBe('Hello, Ada!');
      expect(await run(page, ':hello')).toBe('Hello, world!');
      const help = await run(page, ':help hello');
      expect(help).toContain(':hello');
      expect(help).toContain('Say hello, to the world or to a name.');
      expect(remote.requests).toContain('/remoteEntry.js');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('knows no :hello without PLUGIN_REMOTES', async () => {
    const server = await startServer();
    servers.push(server);
    const { context, page, errors } = await openApp(browser, server.url);
    try {
      await page.waitForLoadState('networkidle');
      // The spec's message, and the hint under it (the closest built-in command).
      expect(await run(page, ':hello')).toBe('Unknown command.Did you mean :help?');
      expect(await page.locator('.out-error').textContent()).toBe('Unknown command.');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
