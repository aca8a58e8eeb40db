// Hostile documents cannot hurt the server (DESIGN.md §4). Each file of tests/fixtures/hostile.ts
// reaches the real server the way a visitor would send it: uploaded (the presigned flow) and
// asked about, or named by URL (+file[url], served by a small local HTTP server) in a question
// or a store upload. For each, the test measures while the server reads it:
// - the person's answer: the server's message saying which limit the document passed (the
//   model is told it in the question; a store upload answers it), or the document's text;
// - the process's memory: its RSS is sampled every 5 ms, and the peak may exceed what it was
//   before by less than 200 MB. The server runs in this process, and so do its extraction
//   workers (threads), whose heap V8 caps (resourceLimits) and whose ArrayBuffers the pool
//   watches; a worker that passes a limit is ended (the pool's counters say which);
// - the time: the request is answered within 5 s;
// - the server's own thread: GET /api/ping, sent every 25 ms meanwhile, answered in a median
//   under 100 ms and never later than 1 s (the thread does nothing heavy: the slowest pings,
//   tens of milliseconds, are the machine's other work; the bound is loose for a loaded CI).
// Normal documents read as before: uploads.test.ts and stores.file.test.ts.
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Message } from '../../src/core/messages.ts';
import { MESSAGES as STORE_MESSAGES } from '../../plugins/store/common/messages.ts';
import { SERVER_MESSAGES } from '../../src/core/serverMessages.ts';
import type { PresignedUpload } from '../../src/core/uploads.ts';
import { extractPool } from '../../src/server/uploads/extractPool.ts';
import { IMAGE_MAX_MEGAPIXELS, IMAGE_MAX_SIDE } from '../../src/server/uploads/sniff.ts';
import { DOCX_MAX_UNPACKED, EXTRACT_HEAP_MB, EXTRACT_MEMORY_MB, EXTRACT_TIME_MS, EXTRACT_WORKERS, EXTRACT_YOUNG_MB, PDF_MAX_PAGES, ZIP_MAX_ENTRIES } from '../../src/server/uploads/limits.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fakeOpenAI.ts';
import { png } from '../fixtures/png.ts';
import * as hostile from '../fixtures/hostile.ts';
import { createShellTester } from '../harness/shellTester.ts';
import { startTestServer, type TestServer } from './support.ts';

const MB = 1024 * 1024;
const PW = 'hostile-password-1';

const unpacked = SERVER_MESSAGES.documentUnpacked(DOCX_MAX_UNPACKED / MB);
/** A refusal as the API answers it: the English, and the message's code and values beside it. */
const refusal = (said: Message) => {
  const { code, params, text } = said.toData();
  return { success: false, error: text, code, params };
};
const memory = SERVER_MESSAGES.documentMemory(EXTRACT_MEMORY_MB);
const damagedDocx = SERVER_MESSAGES.documentDamaged('DOCX');
const damagedPdf = SERVER_MESSAGES.documentDamaged('PDF');

/** What each case may cost at most (the bounds). */
const MAX_GROWTH_MB = 200;
const MAX_MS = 5000;
const MEDIAN_PING_MS = 100;
const MAX_PING_MS = 1000;

let files: Server;
let filesUrl = '';
const served = new Map<string, Buffer>();

beforeAll(async () => {
  files = createServer((req, res) => {
    const body = served.get(decodeURIComponent((req.url ?? '/').slice(1)));
    if (!body) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-length': body.length }).end(body);
  });
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', () => resolve()));
  filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => files?.close(() => resolve()));
});

interface Cost {
  ms: number;
  growthMb: number;
  pings: number[];
}

/** Runs `work` while sampling the process's RSS and pinging the server; what it cost. */
async function measured<T>(t: TestServer, work: () => Promise<T>): Promise<{ result: T; cost: Cost }> {
  const base = process.memoryUsage.rss();
  let peak = base;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 5);
  const pings: number[] = [];
  let running = true;
  const pinger = (async () => {
    while (running) {
      const started = performance.now();
      const response = await fetch(`${t.url}/api/ping`);
      expect(((await response.json()) as { message: string }).message).toBe('pong');
      pings.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  })();
  const started = performance.now();
  try {
    const result = await work();
    const ms = performance.now() - started;
    peak = Math.max(peak, process.memoryUsage.rss());
    return { result, cost: { ms, growthMb: (peak - base) / MB, pings } };
  } finally {
    running = false;
    await pinger;
    clearInterval(sampler);
  }
}

/** The bounds, and a line for the record. */
function withinBounds(name: string, cost: Cost): void {
  const sorted = [...cost.pings].sort((a, b) => a - b);
  const worstPing = sorted.at(-1)!;
  const median = sorted[Math.floor(sorted.length / 2)]!;
  console.info(
    `[hostile] ${name}: ${Math.round(cost.ms)} ms, +${Math.round(cost.growthMb)} MB RSS, ${cost.pings.length} pings (median ${Math.round(median)} ms, slowest ${Math.round(worstPing)} ms)`,
  );
  expect(cost.ms, `${name}: time`).toBeLessThan(MAX_MS);
  expect(cost.growthMb, `${name}: memory`).toBeLessThan(MAX_GROWTH_MB);
  expect(cost.pings.length, `${name}: the server was pinged meanwhile`).toBeGreaterThan(0);
  expect(median, `${name}: median ping latency`).toBeLessThan(MEDIAN_PING_MS);
  expect(worstPing, `${name}: slowest ping`).toBeLessThan(MAX_PING_MS);
}

describe('hostile documents', () => {
  let t: TestServer;
  let fake: FakeOpenAI;
  let visitor: ReturnType<TestServer['client']>;
  let member: ReturnType<TestServer['client']>;
  let session = Date.now() - 9_000_000;

  beforeAll(async () => {
    fake = await startFakeOpenAI();
    t = await startTestServer('sqlite', { MODEL: 'gpt-4o-mini', OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'sk-test', EGRESS_ALLOW_HOSTS: new URL(filesUrl).host });
    // An anonymous visitor asks in the chat; a member indexes files into a store.
    visitor = t.client();
    member = t.client();
    await member.post('/api/user/add', { username: 'hostile', email: 'hostile@example.org', password: PW });
    await member.post('/api/user/login', { username: 'hostile', password: PW });
    await member.post('/api/store/add', { name: 'docs', engine: 'file' });
    // A first document starts the workers, so that no case pays for it.
    served.set('warm.docx', hostile.docxOf({ data: hostile.documentXml('Warm.') }));
    await store(`${filesUrl}/warm.docx`);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  /** Presigns and PUTs a file as the visitor; its object URL. */
  async function upload(name: string, data: Uint8Array): Promise<string> {
    const query = new URLSearchParams({ fileName: name, contentType: '' });
    const signed = (await (await visitor.raw(`${t.url}/api/file/generate-presigned-url?${query}`)).json()) as { result: PresignedUpload };
    const put = await visitor.raw(signed.result.url, { method: 'PUT', headers: { 'content-type': signed.result.content_type, origin: t.url }, body: new Uint8Array(data) });
    expect(await put.json()).toMatchObject({ success: true });
    return signed.result.object_url;
  }

  /** Asks about a file in the chat; what the model was told of it. */
  async function ask(url: string): Promise<string> {
    fake.reply({ text: 'Noted.' });
    const answer = await visitor.post<{ text: string }>('/api/generate', { session: session++, user_input: 'What does it say?', files: [url] });
    expect(answer.result!.text).toBe('Noted.');
    return String(fake.requests.at(-1)!.body.messages.at(-1).content);
  }

  /** Indexes a file into the member's store by URL; the answer. */
  async function store(url: string): Promise<{ success: boolean; error?: string; message?: string }> {
    const response = await member.raw(`${t.url}/api/store/file-upload`, { method: 'POST', headers: { 'content-type': 'application/json', origin: t.url }, body: JSON.stringify({ name: 'docs', urls: [url] }) });
    return (await response.json()) as { success: boolean; error?: string; message?: string };
  }

  const refusedInChat = (told: string, message: Message) => expect(told).toContain(`(The file could not be read: ${message})`);
  const refusedInStore = (answer: { success: boolean; error?: string }, name: string, message: Message) =>
    expect(answer).toEqual(refusal(STORE_MESSAGES.uploadFailed(name, message)));

  it('the issue’s file: a 1.2 MB DOCX whose directory says 1 KB and that inflates to 1.2 GB, uploaded and asked about', async () => {
    const file = hostile.lyingDirectoryDocx();
    expect(file.length).toBeLessThan(1.5 * MB);
    // The upload check reads the directory, which lies: it takes the file.
    const url = await upload('report.docx', file);
    const { result, cost } = await measured(t, () => ask(url));
    refusedInChat(result, unpacked);
    withinBounds('lying directory (upload, chat)', cost);
  });

  it('a 10 MB DOCX at deflate’s maximum ratio (~10 GB), by URL into a store', async () => {
    const file = hostile.maxRatioDocx();
    expect(file.length).toBeGreaterThan(9.5 * MB);
    served.set('max-ratio.docx', file);
    const { result, cost } = await measured(t, () => store(`${filesUrl}/max-ratio.docx`));
    refusedInStore(result, 'max-ratio.docx', unpacked);
    withinBounds('maximum ratio (URL, store)', cost);
  });

  it('the person reads the refusal in their language: the store’s words and the server’s reason', async () => {
    const de = await createShellTester({ plugins: ['general', 'user', 'store'], serverUrl: t.url, lang: 'de-DE' });
    expect((await de.run(`:login hostile ${PW}`)).errors).toEqual([]);
    await de.run(':store use "docs"');
    const { result, cost } = await measured(t, () => de.run(`:store data upload +file[${filesUrl}/max-ratio.docx]`));
    expect(result.errors).toEqual([`Upload fehlgeschlagen: max-ratio.docx: Das Dokument entpackt sich auf mehr als ${DOCX_MAX_UNPACKED / MB} MB.`]);
    withinBounds('maximum ratio (URL, store, German shell)', cost);
  });

  it('parts that are modest alone but not together (3 × 20 MB), uploaded and indexed into a store', async () => {
    const url = await upload('spread.docx', hostile.spreadBombDocx());
    const { result, cost } = await measured(t, () => store(url));
    refusedInStore(result, 'spread.docx', unpacked);
    withinBounds('parts over the budget together (upload, store)', cost);
  });

  it('many small entries: 5,000 are read, one more is refused (and the upload check refuses it too)', async () => {
    served.set('many.docx', hostile.manyEntriesDocx(ZIP_MAX_ENTRIES - 3));
    served.set('too-many.docx', hostile.manyEntriesDocx(ZIP_MAX_ENTRIES - 2));
    const many = await measured(t, () => ask(`${filesUrl}/many.docx`));
    expect(many.result).toContain('Many entries around me.');
    withinBounds('5,000 entries (URL, chat)', many.cost);
    const tooMany = await measured(t, () => ask(`${filesUrl}/too-many.docx`));
    refusedInChat(tooMany.result, SERVER_MESSAGES.documentEntries(ZIP_MAX_ENTRIES));
    withinBounds('5,001 entries (URL, chat)', tooMany.cost);
  });

  it('nested archives are never opened: a DOCX carrying a ZIP bomb and a DOCX bomb reads as its own text', async () => {
    const url = await upload('nested.docx', hostile.nestedArchiveDocx());
    const { result, cost } = await measured(t, () => ask(url));
    expect(result).toContain('The outer document is fine.');
    withinBounds('nested archives (upload, chat)', cost);
    // An archive where the XML should be is a damaged document.
    served.set('archive-inside.docx', hostile.archiveAsDocumentDocx());
    const inside = await measured(t, () => store(`${filesUrl}/archive-inside.docx`));
    refusedInStore(inside.result, 'archive-inside.docx', damagedDocx);
    withinBounds('archive as the document (URL, store)', inside.cost);
  });

  it('XML built to be expensive: a million nested elements ends the worker at its heap; a DOCTYPE is refused', async () => {
    served.set('deep.docx', hostile.deepXmlDocx());
    const endedBefore = extractPool.stats.ended.memory;
    const deep = await measured(t, () => ask(`${filesUrl}/deep.docx`));
    refusedInChat(deep.result, memory);
    // V8 ended the worker at its heap limit (resourceLimits: EXTRACT_HEAP_MB + EXTRACT_YOUNG_MB).
    expect(extractPool.stats.ended.memory).toBe(endedBefore + 1);
    expect(EXTRACT_HEAP_MB + EXTRACT_YOUNG_MB).toBeLessThan(MAX_GROWTH_MB);
    withinBounds('deeply nested XML (URL, chat)', deep.cost);
    served.set('laughs.docx', hostile.entityBombDocx());
    const laughs = await measured(t, () => ask(`${filesUrl}/laughs.docx`));
    refusedInChat(laughs.result, damagedDocx);
    withinBounds('entity expansion (URL, chat)', laughs.cost);
  });

  it('truncated DOCX files: cut in half (no directory), and with a deflate stream cut short', async () => {
    served.set('half.docx', hostile.truncated(hostile.nestedArchiveDocx()));
    const half = await measured(t, () => store(`${filesUrl}/half.docx`));
    refusedInStore(half.result, 'half.docx', damagedDocx);
    withinBounds('truncated DOCX (URL, store)', half.cost);
    // Its directory is whole, so the upload check takes it.
    const url = await upload('cut.docx', hostile.truncatedStreamDocx());
    const cut = await measured(t, () => ask(url));
    refusedInChat(cut.result, damagedDocx);
    withinBounds('truncated deflate stream (upload, chat)', cut.cost);
  });

  it('a PDF whose page tree claims a billion pages reads its one page; 2,001 real pages are refused before one is read', async () => {
    const url = await upload('count.pdf', hostile.hugeCountPdf());
    const claimed = await measured(t, () => ask(url));
    expect(claimed.result).toContain('One of many pages.');
    withinBounds('a billion pages claimed (upload, chat)', claimed.cost);
    served.set('pages.pdf', hostile.manyPagesPdf(PDF_MAX_PAGES + 1));
    const pages = await measured(t, () => store(`${filesUrl}/pages.pdf`));
    refusedInStore(pages.result, 'pages.pdf', SERVER_MESSAGES.documentPages(PDF_MAX_PAGES));
    withinBounds('2,001 pages (URL, store)', pages.cost);
  });

  it('a PDF whose 2,000 pages each parse 4 MB of drawing again is ended at the time limit', async () => {
    served.set('heavy.pdf', hostile.heavyPagesPdf());
    const endedBefore = extractPool.stats.ended.time;
    const { result, cost } = await measured(t, () => ask(`${filesUrl}/heavy.pdf`));
    refusedInChat(result, SERVER_MESSAGES.documentTime(EXTRACT_TIME_MS / 1000));
    expect(extractPool.stats.ended.time).toBe(endedBefore + 1);
    expect(cost.ms).toBeGreaterThanOrEqual(EXTRACT_TIME_MS - 50);
    withinBounds('2,000 heavy pages (URL, chat)', cost);
  });

  it('a 10 MB PDF whose content stream is a deflate bomb (~10 GB) is ended at its memory limit', async () => {
    const url = await upload('bomb.pdf', hostile.flateBombPdf());
    const endedBefore = extractPool.stats.ended.memory;
    const { result, cost } = await measured(t, () => ask(url));
    refusedInChat(result, memory);
    expect(extractPool.stats.ended.memory).toBe(endedBefore + 1);
    withinBounds('deflate bomb in a PDF (upload, chat)', cost);
  });

  it('recursive PDF objects: a page tree that is its own kid, a form that draws itself; and a truncated PDF', async () => {
    served.set('cyclic.pdf', hostile.cyclicPagesPdf());
    const cyclic = await measured(t, () => store(`${filesUrl}/cyclic.pdf`));
    refusedInStore(cyclic.result, 'cyclic.pdf', damagedPdf);
    withinBounds('cyclic page tree (URL, store)', cyclic.cost);
    served.set('forms.pdf', hostile.recursiveFormPdf());
    const forms = await measured(t, () => ask(`${filesUrl}/forms.pdf`));
    expect(forms.result).toContain('Before the loop.');
    withinBounds('self-drawing form (URL, chat)', forms.cost);
    const url = await upload('cut.pdf', hostile.truncatedPdf());
    const cut = await measured(t, () => store(url));
    refusedInStore(cut.result, 'cut.pdf', damagedPdf);
    withinBounds('truncated PDF (upload, store)', cut.cost);
  });

  it('ten hostile files at once: two are read at a time, four wait, the rest are told to try again; memory stays bounded', async () => {
    served.set('bomb.docx', hostile.lyingDirectoryDocx());
    const busyBefore = extractPool.stats.refusedBusy;
    const { result, cost } = await measured(t, () => Promise.all(Array.from({ length: 10 }, () => store(`${filesUrl}/bomb.docx`))));
    const errors = result.map((r) => r.error);
    const busy = SERVER_MESSAGES.documentBusy.text;
    expect(errors.filter((e) => e === `Upload failed: bomb.docx: ${unpacked}`).length + errors.filter((e) => e === `Upload failed: bomb.docx: ${busy}`).length).toBe(10);
    expect(extractPool.stats.refusedBusy - busyBefore).toBe(errors.filter((e) => e?.endsWith(busy)).length);
    expect(extractPool.workers).toBeLessThanOrEqual(EXTRACT_WORKERS);
    withinBounds('ten at once (URL, store)', cost);
  });

  it('images are not decoded on the server; one whose header declares too many pixels is refused at upload', async () => {
    const refused = async (name: string, data: Uint8Array) => {
      const query = new URLSearchParams({ fileName: name, contentType: '' });
      const signed = (await (await visitor.raw(`${t.url}/api/file/generate-presigned-url?${query}`)).json()) as { result: PresignedUpload };
      const put = await visitor.raw(signed.result.url, { method: 'PUT', headers: { 'content-type': signed.result.content_type, origin: t.url }, body: new Uint8Array(data) });
      return { status: put.status, body: await put.json() };
    };
    const { result, cost } = await measured(t, () => refused('bomb.png', hostile.pngBomb()));
    expect(result).toEqual({ status: 400, body: refusal(SERVER_MESSAGES.imageTooLarge(100_000, 100_000, IMAGE_MAX_SIDE, IMAGE_MAX_MEGAPIXELS)) });
    withinBounds('PNG declaring 100,000² pixels (upload)', cost);
    expect((await refused('wide.jpg', hostile.jpegBomb(65_000, 2))).body.error).toBe(SERVER_MESSAGES.imageTooLarge(65_000, 2, IMAGE_MAX_SIDE, IMAGE_MAX_MEGAPIXELS).text);
    // 10,000 × 10,000 is within a side, but 100 megapixels is too many.
    expect((await refused('square.jpg', hostile.jpegBomb(10_000, 10_000))).body.error).toBe(SERVER_MESSAGES.imageTooLarge(10_000, 10_000, IMAGE_MAX_SIDE, IMAGE_MAX_MEGAPIXELS).text);
    // A real photo's size is taken.
    expect((await refused('photo.jpg', hostile.jpegBomb(6000, 4000))).body).toMatchObject({ success: true });
    await upload('real.png', png(64, 48, () => [200, 100, 50]));
  });

  it('the largest text file (10 MB, 10,000 chunks) is indexed into a store within the same bounds', async () => {
    // Words and newlines, no paragraph breaks: the chunker cuts at its fallbacks all the way.
    const line = 'lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor\n';
    served.set('big.txt', Buffer.from(line.repeat(Math.floor((10 * MB - 1) / line.length))));
    const { result, cost } = await measured(t, () => store(`${filesUrl}/big.txt`));
    expect(result).toMatchObject({ success: true });
    withinBounds('10 MB text file (URL, store)', cost);
  });

  it('a normal document still reads after all that, in a worker that was not ended', async () => {
    served.set('fine.docx', hostile.docxOf({ data: hostile.documentXml('First line.', 'Second line.') }));
    expect(await ask(`${filesUrl}/fine.docx`)).toContain('First line.\n\nSecond line.\n\n');
  });

  // Last: its 16 MB strings leave garbage that would weigh on the next case's measures.
  it("the store's JSON form: 16 MB of nested or tiny values are refused unparsed, and too many URLs too", async () => {
    // The 16 MB bodies are sent by another process: sent from this one (the server's too), their
    // writing would queue the pings behind it and measure the client, not the server's thread.
    const cookie = [...member.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const dir = mkdtempSync(join(tmpdir(), 'hostile-form-'));
    const sendJson = (name: string, text: string) => {
      const file = join(dir, name);
      writeFileSync(file, text);
      const script = `const body = require('node:fs').readFileSync(process.argv[1]);
fetch(process.argv[2], { method: 'POST', body, headers: { 'content-type': 'application/json', origin: process.argv[3], cookie: process.argv[4] } })
  .then(async (r) => process.stdout.write(JSON.stringify({ status: r.status, body: await r.json() })));`;
      return () =>
        new Promise<{ status: number; body: unknown }>((resolve, reject) =>
          execFile(process.execPath, ['-e', script, file, `${t.url}/api/store/file-upload`, t.url, cookie], { maxBuffer: MB }, (error, stdout) =>
            error ? reject(error) : resolve(JSON.parse(stdout) as { status: number; body: unknown }),
          ),
        );
    };
    const post = async (body: FormData) => {
      const response = await member.raw(`${t.url}/api/store/file-upload`, { method: 'POST', headers: { origin: t.url }, body });
      return { status: response.status, body: await response.json() };
    };
    const nested = sendJson('nested.json', `{"name":"docs","urls":${'['.repeat(8 * MB)}${']'.repeat(8 * MB)}}`);
    const flat = sendJson('flat.json', `{"name":"docs","texts":[${'{},'.repeat(5 * MB)}{}]}`);
    const deep = await measured(t, nested);
    expect(deep.result).toEqual({ status: 400, body: refusal(STORE_MESSAGES.invalidRequest) });
    withinBounds('16 MB of nested JSON (store form)', deep.cost);
    const tiny = await measured(t, flat);
    expect(tiny.result.status).toBe(400);
    withinBounds('15 MB of empty objects (store form)', tiny.cost);
    const form = new FormData();
    form.set('name', 'docs');
    for (let i = 0; i < 11; i++) form.append('urls', `${filesUrl}/fine-${i}.txt`);
    expect(await post(form)).toEqual({ status: 400, body: refusal(STORE_MESSAGES.invalidRequest) });
  });
});
