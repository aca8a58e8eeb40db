// Files attached to questions, over real HTTP (spec part 7): the presigned URL, the one-time
// PUT with its checks (type, size, content, signature, deadline, quota), the object URL as
// it is served, and the file reaching the model: a document's text, an image inline. The
// whole path runs on each engine, since the bytes live in a blob column of each.
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { PresignedUpload } from '../../src/core/uploads.ts';
import { docxWith, pdfWith } from '../fixtures/documents.ts';
import { ONE_PIXEL_PNG, startFakeOpenAI, type FakeOpenAI } from '../fixtures/fakeOpenAI.ts';
import { engines, startTestServer, type TestServer } from './support.ts';

const PNG = Buffer.from(ONE_PIXEL_PNG, 'base64');
// A PNG signature before anything else is not a PNG (file-type reads its chunks).
const SIGNATURE_ONLY = Buffer.concat([PNG.subarray(0, 8), Buffer.from('<script>alert(1)</script>')]);
const INVALID_TYPE = 'Invalid file type. Supported type: JPEG/JPG, PNG, PDF, DOCX, TXT, Markdown, CSV, JSON.';
const SESSION = Date.now() - 5_000_000;

type Client = ReturnType<TestServer['client']>;

async function presign(t: TestServer, client: Client, fileName: string, contentType: string) {
  const query = new URLSearchParams({ fileId: 'marker-1', fileName, contentType });
  const response = await client.raw(`${t.url}/api/file/generate-presigned-url?${query}`);
  return { status: response.status, body: (await response.json()) as { success: boolean; error?: string; result?: PresignedUpload } };
}

async function put(client: Client, url: string, contentType: string, data: Uint8Array | Buffer, origin?: string) {
  const response = await client.raw(url, { method: 'PUT', headers: { 'content-type': contentType, ...(origin ? { origin } : {}) }, body: new Uint8Array(data) });
  return { status: response.status, body: (await response.json()) as { success: boolean; error?: string } };
}

/** Presigns and uploads; the object URL. */
async function upload(t: TestServer, client: Client, fileName: string, contentType: string, data: Uint8Array | Buffer): Promise<string> {
  const signed = await presign(t, client, fileName, contentType);
  expect(signed.body.success, signed.body.error).toBe(true);
  const done = await put(client, signed.body.result!.url, signed.body.result!.content_type, data, t.url);
  expect(done.body, done.body.error).toMatchObject({ success: true });
  return signed.body.result!.object_url;
}

describe.each(await engines())('uploads on %s', (engine) => {
  let t: TestServer;
  let fake: FakeOpenAI;
  beforeAll(async () => {
    fake = await startFakeOpenAI();
    t = await startTestServer(engine, {
      MODEL: 'gpt-4o-mini',
      OPENAI_BASE_URL: fake.url,
      OPENAI_API_KEY: 'sk-test',
      MODELS: JSON.stringify([{ name: 'vision', provider: 'openai-compatible', model: 'gpt-4o', base_url: fake.url, capabilities: { vision: true } }]),
    });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  it('presigns, takes the PUT once, and serves the file as an image with no way to run script', async () => {
    const client = t.client();
    const signed = await presign(t, client, 'photo of me.png', 'image/png');
    expect(signed.status).toBe(200);
    const { url, object_url, content_type } = signed.body.result!;
    expect(content_type).toBe('image/png');
    expect(object_url).toMatch(new RegExp(`^${t.url}/api/file/[0-9a-f-]{36}/photo%20of%20me\\.png$`));
    // Before the PUT there is nothing to see.
    expect((await client.raw(object_url)).status).toBe(404);
    expect(await put(client, url, 'image/png', PNG, t.url)).toEqual({ status: 200, body: { success: true, message: 'Uploaded.' } });
    // Taken once.
    expect(await put(client, url, 'image/png', PNG, t.url)).toEqual({ status: 403, body: { success: false, error: 'Pre-signed URL invalid.', code: 'core.presignedInvalid', params: {} } });
    // Anyone holding the object URL reads it (a browser without the cookie: a shared session's reader).
    const served = await fetch(object_url);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer())).toEqual(PNG);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('content-disposition')).toBe(`inline; filename="photo of me.png"; filename*=UTF-8''photo%20of%20me.png`);
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(served.headers.get('content-security-policy')).toContain('sandbox');
    expect(served.headers.get('cross-origin-resource-policy')).toBe('same-origin');
  });

  it('reads an uploaded PDF and DOCX into the question, and sends an uploaded image inline to a vision model', async () => {
    const client = t.client();
    const pdf = await upload(t, client, 'report.pdf', 'application/pdf', pdfWith('Quarterly revenue grew 12 percent'));
    const docx = await upload(t, client, 'notes.docx', '', await docxWith('Ship on Thursday'));
    fake.reply({ text: 'Read them.' });
    const answer = await client.post<{ text: string }>('/api/generate', { session: SESSION, user_input: 'Summarize', files: [pdf, docx] });
    expect(answer.result!.text).toBe('Read them.');
    const sent = String(fake.requests.at(-1)!.body.messages.at(-1).content);
    expect(sent).toContain('Quarterly revenue grew 12 percent');
    expect(sent).toContain('Ship on Thursday');

    const image = await upload(t, client, 'cat.png', 'image/png', PNG);
    fake.reply({ text: 'A cat.' });
    const seen = await client.post<{ images: string[] }>('/api/generate', { session: SESSION + 1, user_input: 'What is this?', model: 'vision', images: [image] });
    // The browser shows the object URL; the provider, which cannot reach this server, gets the bytes.
    expect(seen.result!.images).toEqual([image]);
    const parts = fake.requests.at(-1)!.body.messages.at(-1).content as { type: string; image_url?: { url: string } }[];
    expect(parts[1]!.image_url!.url).toBe(`data:image/png;base64,${PNG.toString('base64')}`);
    // The next turn's memory carries the image again, inline too.
    fake.reply({ text: 'Still a cat.' });
    await client.post('/api/generate', { session: SESSION + 1, user_input: 'And now?', model: 'vision' });
    const memory = fake.requests.at(-1)!.body.messages.find((m: { role: string; content: unknown }) => m.role === 'user' && Array.isArray(m.content));
    expect(JSON.stringify(memory)).toContain(`data:image/png;base64,${PNG.toString('base64')}`);
  });

  it('keeps a file of exactly 10 MB whole (in parts a MySQL packet takes)', async () => {
    const client = t.client();
    const big = Buffer.alloc(10 * 1024 * 1024, 'shellchat '.charCodeAt(3));
    big.write('first line\n', 0);
    big.write('\nlast line', big.length - 10);
    const object = await upload(t, client, 'big.txt', 'text/plain', big);
    const served = Buffer.from(await (await fetch(object)).arrayBuffer());
    expect(served.length).toBe(big.length);
    expect(served.equals(big)).toBe(true);
  }, 30_000);

  it('removes an account’s uploads with the account', async () => {
    await t.server.accounts.create({ username: `gone${engine}`, email: `gone${engine}@example.org`, password: 'gone-password-1' });
    const client = t.client();
    await client.post('/api/user/login', { username: `gone${engine}`, password: 'gone-password-1' });
    const object = await upload(t, client, 'mine.txt', 'text/plain', Buffer.from('my notes'));
    expect((await fetch(object)).status).toBe(200);
    const id = object.split('/')[5]!;
    expect((await t.server.db.db.selectFrom('upload_parts').select('seq').where('upload_id', '=', id).execute()).length).toBe(1);
    await client.post('/api/user/delete', { username: `gone${engine}` });
    expect((await fetch(object)).status).toBe(404);
    // The bytes too, not only the row that names them.
    expect(await t.server.db.db.selectFrom('upload_parts').select('seq').where('upload_id', '=', id).execute()).toEqual([]);
  });
});

describe('upload checks', () => {
  let t: TestServer;
  let fake: FakeOpenAI;
  beforeAll(async () => {
    fake = await startFakeOpenAI();
    t = await startTestServer('sqlite', { MODEL: 'gpt-4o-mini', OPENAI_BASE_URL: fake.url, UPLOAD_QUOTA_MB: '1' });
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  it('refuses types outside the spec’s list, and a content type that does not fit the name', async () => {
    const client = t.client();
    expect(await presign(t, client, 'run.exe', 'application/octet-stream')).toEqual({ status: 400, body: { success: false, error: INVALID_TYPE, code: 'core.uploadInvalidType', params: {} } });
    expect(await presign(t, client, 'page.html', 'text/html')).toEqual({ status: 400, body: { success: false, error: INVALID_TYPE, code: 'core.uploadInvalidType', params: {} } });
    expect(await presign(t, client, 'no-extension', '')).toEqual({ status: 400, body: { success: false, error: INVALID_TYPE, code: 'core.uploadInvalidType', params: {} } });
    expect(await presign(t, client, 'cat.png', 'text/html')).toEqual({
      status: 400,
      body: { success: false, error: 'The content type text/html does not match the file name.', code: 'core.uploadContentType', params: { type: 'text/html' } },
    });
    // What pickers give for Markdown and CSV is taken; the server serves its own type.
    const md = await upload(t, client, 'README.md', '', Buffer.from('# Title'));
    const served = await fetch(md);
    expect(served.headers.get('content-type')).toBe('text/markdown');
    expect(served.headers.get('content-disposition')).toMatch(/^attachment; /);
    await upload(t, client, 'table.csv', 'application/vnd.ms-excel', Buffer.from('a,b\n1,2'));
  });

  it('refuses another site\'s request for a presigned URL (a GET the origin check does not cover)', async () => {
    const client = t.client();
    const query = new URLSearchParams({ fileName: 'a.txt', contentType: 'text/plain' });
    const response = await client.raw(`${t.url}/api/file/generate-presigned-url?${query}`, { headers: { 'sec-fetch-site': 'cross-site' } });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ success: false, error: 'Cross-origin request refused.', code: 'core.crossOrigin', params: {} });
    const own = await client.raw(`${t.url}/api/file/generate-presigned-url?${query}`, { headers: { 'sec-fetch-site': 'same-origin' } });
    expect(own.status).toBe(200);
  });

  it('stores a name as metadata only, encoded for the download', async () => {
    const client = t.client();
    const object = await upload(t, client, '../../etc/\u202Egnp.txt', 'text/plain', Buffer.from('x'));
    expect(object).toMatch(/\/api\/file\/[0-9a-f-]{36}\/gnp\.txt$/);
    const unicode = await upload(t, client, 'résumé "final".txt', 'text/plain', Buffer.from('x'));
    expect((await fetch(unicode)).headers.get('content-disposition')).toBe(`attachment; filename="r_sum_ _final_.txt"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%22final%22.txt`);
  });

  it('refuses a PUT whose URL, type, deadline or size is wrong, and content that is not what its name says', async () => {
    const client = t.client();
    const invalid = { status: 403, body: { success: false, error: 'Pre-signed URL invalid.', code: 'core.presignedInvalid', params: {} } };
    let signed = (await presign(t, client, 'a.png', 'image/png')).body.result!;
    expect(await put(client, signed.url, 'text/html', PNG)).toEqual(invalid);
    // Another signature of the same length (never the right one: a tampered URL, not a lucky one).
    const forged = signed.url.replace(/signature=([\w-]+)/, (_m, sig: string) => `signature=${[...sig].map((ch) => (ch === 'A' ? 'B' : 'A')).join('')}`);
    expect(forged).not.toBe(signed.url);
    expect(await put(client, forged, 'image/png', PNG)).toEqual(invalid);
    expect(await put(client, signed.url.replace(/expires=(\d+)/, (_m, n) => `expires=${Number(n) + 1000}`), 'image/png', PNG)).toEqual(invalid);
    // After its deadline (5 minutes).
    const later = Date.now() + 6 * 60_000;
    vi.spyOn(Date, 'now').mockReturnValue(later);
    try {
      expect(await put(client, signed.url, 'image/png', PNG)).toEqual(invalid);
    } finally {
      vi.restoreAllMocks();
    }
    // HTML under an image's name is never stored, nor served.
    signed = (await presign(t, client, 'b.png', 'image/png')).body.result!;
    expect(await put(client, signed.url, 'image/png', Buffer.from('<script>alert(1)</script>'))).toEqual({
      status: 400,
      body: { success: false, error: 'The file is not what its name says: its content is not PNG.', code: 'core.uploadMismatch', params: { type: 'PNG' } },
    });
    expect((await fetch(signed.object_url)).status).toBe(404);
    signed = (await presign(t, client, 'b2.png', 'image/png')).body.result!;
    expect((await put(client, signed.url, 'image/png', SIGNATURE_ONLY)).body.error).toBe('The file is not what its name says: its content is not PNG.');
    signed = (await presign(t, client, 'c.pdf', 'application/pdf')).body.result!;
    expect((await put(client, signed.url, 'application/pdf', Buffer.from('<html>'))).body.error).toBe('The file is not what its name says: its content is not PDF.');
    signed = (await presign(t, client, 'd.txt', 'text/plain')).body.result!;
    expect((await put(client, signed.url, 'text/plain', Buffer.from([0x4d, 0x5a, 0, 0, 1]))).body.error).toBe('The file is not what its name says: its content is not text.');
    signed = (await presign(t, client, 'e.json', 'application/json')).body.result!;
    expect((await put(client, signed.url, 'application/json', Buffer.from('{"a":'))).body.error).toBe('The file is not what its name says: its content is not JSON.');
    signed = (await presign(t, client, 'f.txt', 'text/plain')).body.result!;
    expect(await put(client, signed.url, 'text/plain', Buffer.alloc(0))).toEqual({ status: 400, body: { success: false, error: 'The file is empty.', code: 'core.uploadEmpty', params: {} } });
    // Over 10 MB, in the spec's words.
    signed = (await presign(t, client, 'g.txt', 'text/plain')).body.result!;
    expect(await put(client, signed.url, 'text/plain', Buffer.alloc(10 * 1024 * 1024 + 1, 97))).toEqual({
      status: 413,
      body: { success: false, error: 'failed: file size exceeds 10MB', code: 'core.uploadTooLarge', params: {} },
    });
  }, 30_000);

  it('refuses a DOCX that would unpack into too many entries (a zip bomb) before inflating it', async () => {
    const zip = new JSZip();
    zip.file('word/document.xml', '<w:document/>');
    for (let i = 0; i < 5_001; i++) zip.file(`f/${i}`, '');
    const bomb = await zip.generateAsync({ type: 'nodebuffer' });
    const client = t.client();
    const signed = (await presign(t, client, 'bomb.docx', '')).body.result!;
    expect((await put(client, signed.url, signed.content_type, bomb)).body.error).toBe('The file is not what its name says: its content is not DOCX.');
    // A ZIP that is not a Word document is not a DOCX either.
    const plain = new JSZip();
    plain.file('a.txt', 'x');
    const other = (await presign(t, client, 'other.docx', '')).body.result!;
    expect((await put(client, other.url, other.content_type, await plain.generateAsync({ type: 'nodebuffer' }))).body.error).toBe(
      'The file is not what its name says: its content is not DOCX.',
    );
  });

  it('keeps each owner within the quota (UPLOAD_QUOTA_MB), counted per owner', async () => {
    const ada = t.client();
    await upload(t, ada, 'one.txt', 'text/plain', Buffer.alloc(600 * 1024, 97));
    const signed = (await presign(t, ada, 'two.txt', 'text/plain')).body.result!;
    expect(await put(ada, signed.url, 'text/plain', Buffer.alloc(600 * 1024, 97))).toEqual({
      status: 400,
      body: { success: false, error: 'Your uploads have reached their limit of 1 MB.', code: 'core.uploadQuota', params: { mb: 1 } },
    });
    // Another browser has its own.
    await upload(t, t.client(), 'three.txt', 'text/plain', Buffer.alloc(600 * 1024, 97));
  });

  it('says which uploaded file is missing when a question names one that does not exist', async () => {
    fake.reply({ text: 'ok' });
    const client = t.client();
    const missing = `${t.url}/api/file/00000000-0000-4000-8000-000000000000/gone.txt`;
    await client.post('/api/generate', { session: SESSION + 50, user_input: 'read it', files: [missing] });
    expect(String(fake.requests.at(-1)!.body.messages.at(-1).content)).toContain(`(The file could not be read: The uploaded file ${missing} was not found.)`);
  });
});
