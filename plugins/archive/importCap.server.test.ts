// The imports running at once are bounded: IMPORT_MAX_RUNNING on the server, one per person.
// Uploads the test holds open (half sent, the rest when it says) are imports that take as long
// as it likes: started together, exactly the limit run and the rest are refused at once (503,
// or 429 for a second of one's own, with Retry-After), before a temporary file is made for
// them; once the running ones end a new one runs. The temporary files (in a TMPDIR of this
// file's own) go on every path, an upload cut off midway included, and nothing of it is written.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { engines, startTestServer, type TestServer } from '../../tests/server/support.ts';
import type { ImportReport } from './common/api.ts';
import { MESSAGES } from './common/messages.ts';
import { json, simple } from './fixtures/exports.ts';

const LIMIT = 2;
const STARTED = 5;
const PW = 'import-cap-pass-1';
const CONVERSATIONS = 40;
const ARCHIVE = json(Array.from({ length: CONVERSATIONS }, (_, i) => simple(i, 'words '.repeat(40))));
const MAIN = path.join(import.meta.dirname, '../../src/cli/main.ts');
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

// The server's scratch files go to os.tmpdir(): here, a folder nobody else writes to.
const formerTmp = process.env.TMPDIR;
const scratchRoot = mkdtempSync(path.join(tmpdir(), 'shellchat-importcap-'));
process.env.TMPDIR = scratchRoot;
afterAll(() => {
  if (formerTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = formerTmp;
});

/** The scratch files that exist now, with their sizes. */
const scratch = () =>
  readdirSync(scratchRoot)
    .filter((name) => name.startsWith('shellchat-scratch-'))
    .map((name) => statSync(path.join(scratchRoot, name, 'data'), { throwIfNoEntry: false })?.size ?? 0);

async function until(what: string, check: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

type Answer = { success: boolean; result?: ImportReport; error?: string; code?: string; params?: Record<string, unknown> };
interface Sent {
  status: number;
  retryAfter: string | null;
  body: Answer;
}

/** Every upload held, finished after each test whatever happened (a failure leaves none holding a place). */
const holding: (() => void)[] = [];
afterEach(() => {
  for (const finish of holding.splice(0)) finish();
});

/** An upload held open: its first half sent now, the rest when `finish` is called. `answer` is set once it came. */
function held(raw: typeof fetch, url: string, signal?: AbortSignal) {
  let finish!: () => void;
  const rest = new Promise<void>((resolve) => (finish = resolve));
  holding.push(finish);
  const half = Math.floor(ARCHIVE.length / 2);
  const body = new ReadableStream<Uint8Array>({
    start: (controller) => controller.enqueue(ARCHIVE.slice(0, half)),
    async pull(controller) {
      await rest;
      controller.enqueue(ARCHIVE.slice(half));
      controller.close();
    },
  });
  const upload = { answer: undefined as Sent | undefined, finish, done: undefined as unknown as Promise<Sent> };
  upload.done = raw(`${url}/api/archive/import?name=held.json`, { method: 'POST', headers: { 'Content-Type': 'application/octet-stream' }, body, signal, ...({ duplex: 'half' } as object) }).then(
    async (res) => (upload.answer = { status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as Answer }),
  );
  return upload;
}

for (const engine of await engines()) {
  describe(`imports at once on ${engine}`, { timeout: 120_000 }, () => {
    let t: TestServer;
    const raws = new Map<string, typeof fetch>();
    const tag = engine.slice(0, 2);

    beforeAll(async () => {
      t = await startTestServer(engine, { IMPORT_MAX_RUNNING: String(LIMIT) });
      for (const name of ['a', 'b', 'c', 'd', 'e', 'cut', 'termi'].map((n) => `${n}${tag}`)) {
        await t.server.accounts.create({ username: name, email: `${name}@example.org`, password: PW });
        const client = t.client();
        await client.post('/api/user/login', { username: name, password: PW });
        raws.set(name, client.raw);
      }
    }, 60_000);
    afterAll(async () => {
      await t?.close();
    });

    const send = async (user: string, body: BodyInit = ARCHIVE): Promise<Sent> => {
      const res = await raws.get(user)!(`${t.url}/api/archive/import?name=cap.json`, { method: 'POST', headers: { 'Content-Type': 'application/octet-stream' }, body });
      return { status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as Answer };
    };

    it('runs exactly IMPORT_MAX_RUNNING of those started together, refuses the rest at once, then runs the next', async () => {
      const users = ['a', 'b', 'c', 'd', 'e'].map((n) => `${n}${tag}`);
      expect(users).toHaveLength(STARTED);
      const uploads = users.map((user) => held(raws.get(user)!, t.url));
      // The refused are answered while every body is still held: before their upload is read.
      await until('the refusals', () => uploads.filter((u) => u.answer).length === STARTED - LIMIT);
      const refused = uploads.filter((u) => u.answer);
      for (const { answer } of refused) {
        expect(answer!.status).toBe(503);
        const wait = Number(answer!.retryAfter);
        expect(wait).toBeGreaterThanOrEqual(5);
        expect(wait).toBeLessThanOrEqual(300);
        expect(answer!.body).toMatchObject({ success: false, error: MESSAGES.serverBusy(wait).text, code: 'archive.serverBusy' });
      }
      // A file for each running import, half written; none for the refused.
      await until('the running imports’ files', () => scratch().length === LIMIT && scratch().every((size) => size > 0));
      const running = uploads.filter((u) => !u.answer);
      expect(running).toHaveLength(LIMIT);
      // A second import of someone whose first runs: 429, whoever else runs.
      const runner = users[uploads.indexOf(running[0]!)]!;
      const second = await send(runner);
      expect(second).toMatchObject({ status: 429, body: { success: false, error: MESSAGES.busy.text, code: 'archive.busy' } });
      expect(Number(second.retryAfter)).toBeGreaterThanOrEqual(5);
      await sleep(200);
      expect(running.every((u) => !u.answer)).toBe(true);
      expect(scratch()).toHaveLength(LIMIT);

      for (const upload of uploads) upload.finish();
      for (const upload of running) {
        const { status, body } = await upload.done;
        expect(status).toBe(200);
        expect(body.result).toMatchObject({ imported: CONVERSATIONS, skipped: 0, refused: 0 });
      }
      expect(scratch()).toEqual([]);
      // Places again: a refused person imports now, and so does the one refused for running one.
      const later = users[uploads.indexOf(refused[0]!)]!;
      const [next, again] = await Promise.all([send(later), send(runner)]);
      expect(next).toMatchObject({ status: 200, body: { result: { imported: CONVERSATIONS } } });
      expect(again).toMatchObject({ status: 200, body: { result: { imported: 0, skipped: CONVERSATIONS } } });
      expect(scratch()).toEqual([]);
    });

    it('removes the file of an upload cut off midway, writes nothing of it, and runs the next import', async () => {
      const user = `cut${tag}`;
      const abort = new AbortController();
      const upload = held(raws.get(user)!, t.url, abort.signal);
      upload.done.catch(() => undefined);
      await until('the half-written file', () => scratch().length === 1 && scratch()[0]! > 0);
      abort.abort();
      await until('the file’s removal', () => scratch().length === 0);
      // The client's doing, not the server's fault: said as such, no error logged.
      await until('the log line', () => t.logs().includes('archive import cut off by the client'));
      expect(t.logs()).not.toContain('unhandled error');
      // Both its places are free: the person's own and the server's.
      const next = await send(user);
      expect(next).toMatchObject({ status: 200, body: { result: { imported: CONVERSATIONS, skipped: 0 } } });
      expect(upload.answer).toBeUndefined();
      // A body that is not an export, and one cut short: refused, their files gone too.
      expect(await send(user, '{"hello": 1}')).toMatchObject({ status: 400, body: { error: MESSAGES.notArchive.text } });
      expect((await send(user, ARCHIVE.slice(0, 100))).status).toBe(400);
      expect(scratch()).toEqual([]);
    });

    // The terminal's line is the same on every engine: said once, on SQLite.
    if (engine === 'sqlite')
      it('says the refusal as a line in the terminal', async () => {
        const dir = mkdtempSync(path.join(scratchRoot, 'cli-'));
        const file = path.join(dir, 'export.json');
        writeFileSync(file, ARCHIVE);
        const cli = (args: string[]) =>
          new Promise<{ status: number | null; out: string; err: string }>((resolve) => {
            const child = spawn(process.execPath, [MAIN, '--server', t.url, ...args], { env: { ...process.env, SHELLCHAT_CONFIG_DIR: dir, NO_COLOR: '' } });
            let out = '';
            let err = '';
            child.stdout.on('data', (d) => (out += String(d)));
            child.stderr.on('data', (d) => (err += String(d)));
            child.on('close', (status) => resolve({ status, out, err }));
            child.stdin.end('');
          });
        expect((await cli([`:login termi${tag} ${PW}`])).out).toBe(`Logged in as termi${tag}.\n`);
        const uploads = [`a${tag}`, `b${tag}`].map((user) => held(raws.get(user)!, t.url));
        await until('the running imports’ files', () => scratch().length === LIMIT);
        const refused = await cli([`:session import ${file}`]);
        expect(refused.status).toBe(1);
        expect(refused.err).toMatch(/Too many imports are running on the server; try again in \d+ seconds\./);
        for (const upload of uploads) upload.finish();
        await Promise.all(uploads.map((u) => u.done));
        const imported = await cli([`:session import ${file}`]);
        expect(imported.out).toContain(MESSAGES.summary(CONVERSATIONS, 0, 0).text);
      });
  });
}
