// Tracking pixels in shared sessions (issue 34, item 8), in Chromium. An attacker fills a
// session with images of a host they watch (a markdown image in an answer, a question's
// attached image, the images of a local model's turn sent to /api/log/add) and shares it.
// Whoever attaches it must not load anything from that host until they click: the host learns
// nothing of who read the log, from where, or when. The app's own images load at once.
import { createServer, type Server } from 'node:https';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { png } from '../fixtures/png.ts';
import { HAS_CHROME, openApp, run, useAppWithFakeProvider } from '../e2e/support.ts';

const TLS = path.resolve(import.meta.dirname, '../fixtures/tls');
const PIXEL = png(2, 2, () => [255, 0, 0]);

/** The attacker's image host over https (the app's CSP takes https images): it counts what it is asked for. */
function startTracker(): Promise<{ origin: string; host: string; hits: string[]; close(): Promise<void> }> {
  const hits: string[] = [];
  const server: Server = createServer({ key: readFileSync(path.join(TLS, 'key.pem')), cert: readFileSync(path.join(TLS, 'cert.pem')) }, (req, res) => {
    hits.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'image/png', 'cache-control': 'no-store' });
    res.end(PIXEL);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ origin: `https://127.0.0.1:${port}`, host: `127.0.0.1:${port}`, hits, close: () => new Promise((done) => server.close(() => done())) });
    }),
  );
}

// Skipped only where Chromium is missing, never under CI=true (support.ts refuses to start then).
describe.skipIf(!HAS_CHROME)('images of another host in a shared session', () => {
  let tracker: Awaited<ReturnType<typeof startTracker>>;
  const SESSION = 1_800_000_123_456;
  let cookie = '';

  beforeAll(async () => {
    tracker = await startTracker();
  });
  afterAll(async () => tracker?.close());

  const app = useAppWithFakeProvider((url) => ({
    MODEL: 'gpt-demo',
    MODEL_VISION: 'true',
    OPENAI_BASE_URL: url,
    OPENAI_API_KEY: 'sk-test',
    ROOT_PASSWORD: 'root-password-1',
    // The tracker (started above, before this block's server) listens on loopback, which the
    // egress-safe fetch refuses otherwise, with a certificate the server is told to trust.
    EGRESS_ALLOW_HOSTS: tracker.host,
    NODE_EXTRA_CA_CERTS: path.join(TLS, 'cert.pem'),
  }));

  const api = async (method: string, pathname: string, body?: unknown) => {
    const res = await fetch(`${app.server.url}${pathname}`, {
      method,
      headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    for (const set of res.headers.getSetCookie()) if (set.startsWith('auth=')) cookie = set.split(';')[0]!;
    const json = (await res.json()) as { result?: Record<string, unknown>; error?: string };
    if (!res.ok) throw new Error(`${method} ${pathname}: ${res.status} ${json.error}`);
    return json.result ?? {};
  };

  it('loads none of them when the log shows, and one when its button is clicked', async () => {
    await api('POST', '/api/user/add', { username: 'mallory', email: 'mallory@example.org', password: 'correct-horse-1' });
    await api('POST', '/api/user/login', { username: 'mallory', password: 'correct-horse-1' });

    // The app's own upload, whose URL the attacker writes with another host name.
    const signed = await api('GET', `/api/file/generate-presigned-url?${new URLSearchParams({ fileName: 'own.png', contentType: 'image/png' })}`);
    const put = await fetch(String(signed.url), { method: 'PUT', headers: { 'content-type': 'image/png', cookie }, body: new Uint8Array(png(8, 8, () => [0, 128, 0])) });
    expect(put.status).toBe(200);
    const ownPath = new URL(String(signed.object_url)).pathname;

    // A local model's turn, as /api/log/add takes it: the other host's images are dropped, the
    // upload's URL comes back on the app's own origin.
    await api('POST', '/api/log/add', {
      session: SESSION,
      model: 'llama3.2',
      input: 'first',
      output: `Look at this: ![chart](${tracker.origin}/answer-in-log-add.png)`,
      images: [`${tracker.origin}/log-add-image.png`, `https://evil.example${ownPath}`],
    });
    const logged = await api('GET', `/api/log/list?session=${SESSION}`);
    expect(JSON.stringify(logged)).not.toContain('log-add-image.png');
    expect(JSON.stringify(logged)).toContain(`${app.server.url}${ownPath}`);
    expect(JSON.stringify(logged)).not.toContain('evil.example');

    // A question with the tracker's picture attached, answered with another of its pictures.
    app.fake.reply({ text: `Here: ![pixel](${tracker.origin}/answer.png)` });
    await api('POST', '/api/generate', { session: SESSION, user_input: 'second', images: [`${tracker.origin}/question.png`] });
    await api('POST', '/api/session/share', { session: SESSION });
    // Whatever the server fetched for the model before, the count starts here.
    tracker.hits.length = 0;

    const { page, context, errors } = await openApp(app.browser, app.server.url, { ignoreHTTPSErrors: true });
    const attached = await run(page, `:session attach ${SESSION}`);
    expect(attached).toContain(`Session ${SESSION} attached.`);
    const output = page.getByTestId('output');
    const previews = page.getByTestId('previews');
    // The latest log's question image waits among the previews, naming its host.
    await expect.poll(() => previews.getByTestId('held-image').textContent()).toContain(`Load the image from ${tracker.host}`);
    expect(await previews.locator('img').count()).toBe(0);

    /** Walks to a log with an arrow key in the empty input, and waits until it shows. */
    const walk = async (key: string, text: string) => {
      await page.getByTestId('input').fill('');
      await page.getByTestId('input').press(key);
      await expect.poll(() => output.textContent()).toContain(text);
    };
    // The log before: its answer's image waits; its own upload shows at once, from the app.
    await walk('ArrowLeft', 'Look at this:');
    expect(await output.getByTestId('held-image').textContent()).toContain(`chartLoad the image from ${tracker.host}`);
    await expect.poll(() => previews.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(8);
    expect(await previews.locator('img').getAttribute('src')).toBe(`${app.server.url}${ownPath}`);
    // The latest: the answer's image and the question's both wait.
    await walk('ArrowRight', 'Here:');
    expect(await output.getByTestId('held-image').textContent()).toContain(`pixelLoad the image from ${tracker.host}`);
    expect(await previews.getByTestId('held-image').count()).toBe(1);
    expect(await page.locator('img').count()).toBe(0);
    await page.waitForTimeout(500);
    expect(tracker.hits).toEqual([]);

    // A click is a choice: that one image loads, and only it.
    await output.getByTestId('held-image').getByRole('button').click();
    await expect.poll(() => output.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(2);
    expect(tracker.hits).toEqual(['/answer.png']);
    await previews.getByTestId('held-image').getByRole('button').click();
    await expect.poll(() => previews.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(2);
    expect(tracker.hits).toEqual(['/answer.png', '/question.png']);
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);
});
