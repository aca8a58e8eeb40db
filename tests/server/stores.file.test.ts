// File stores end to end: the real server on every engine, the real commands through the shell
// tester, documents served over HTTP (txt/md, PDF, DOCX) indexed into the engine's full-text
// index, searched, and handed to the model as support data; and the upload checks (types and
// the 10MB limit, multipart or by URL).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { docxWith, pdfWith } from '../fixtures/documents.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GenerationEvent } from '../../src/core/index.ts';
import { streamGeneration } from '../../src/core/api/generationClient.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fakeOpenAI.ts';
import { createShellTester } from '../harness/shellTester.ts';
import { engines, startTestServer, type TestServer } from './support.ts';

const PW = 'hunter2hunter2';

let files: Server;
let filesUrl = '';
const FILES: Record<string, Buffer | (() => Promise<Buffer>)> = {
  'guide.md': Buffer.from('# Guide\n\nTo configure the frobnicator, open the settings panel and set the flux level to seven.\n\nUnrelated text about gardens and weather.'),
  'manual.pdf': pdfWith('The quantum widget needs a calibration every week.'),
  'notes.docx': () => docxWith('Remember the zebrafish aquarium password policy.'),
  'data.csv': Buffer.from('city,population\nOslo,700000\nBergen,285000\n'),
  'big.txt': Buffer.alloc(10 * 1024 * 1024 + 1, 'a'),
};

beforeAll(async () => {
  files = createServer(async (req, res) => {
    const name = decodeURIComponent((req.url ?? '/').slice(1));
    const body = FILES[name];
    if (!body) return void res.writeHead(404).end();
    res.writeHead(200).end(typeof body === 'function' ? await body() : body);
  });
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', () => resolve()));
  filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => files?.close(() => resolve()));
});

describe.each(await engines())('stores on %s', (engine) => {
  let t: TestServer;
  let fake: FakeOpenAI;
  let seq = 0;
  beforeAll(async () => {
    fake = await startFakeOpenAI();
    t = await startTestServer(engine, { MODEL: 'gpt-4o-mini', OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'sk-x', EGRESS_ALLOW_HOSTS: new URL(filesUrl).host });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  async function loggedIn() {
    const username = `store${engine}${++seq}`;
    await t.client().post('/api/user/add', { username, email: `${username}@example.org`, password: PW });
    const tester = await createShellTester({ plugins: ['general', 'user', 'store'], serverUrl: t.url });
    expect((await tester.run(`:login ${username} ${PW}`)).text).toBe(`Logged in as ${username}.`);
    return Object.assign(tester, { username });
  }

  it('needs a login', async () => {
    const tester = await createShellTester({ plugins: ['general', 'user', 'store'], serverUrl: t.url });
    expect((await tester.run(':store ls')).errors).toEqual(['Please login.']);
    // Logged in, with the server gone: offline, not 'No available store found.'.
    const away = await createShellTester({ plugins: ['general', 'user', 'store'], serverUrl: 'http://127.0.0.1:9', settings: { user: 'someone' } });
    expect((await away.run(':store ls')).errors).toEqual(['You are offline.']);
  });

  it("answers in the interface's language, the server's words included", async () => {
    const username = `storezh${engine}${++seq}`;
    await t.client().post('/api/user/add', { username, email: `${username}@example.org`, password: PW });
    const zh = await createShellTester({ plugins: ['general', 'user', 'store'], serverUrl: t.url, lang: 'zh-CN' });
    await zh.run(`:login ${username} ${PW}`);
    expect((await zh.run(':store add "file" "zhdocs"')).text).toContain('存储 `zhdocs` 已创建。');
    expect((await zh.run(':store add "file" "zhdocs"')).errors).toEqual(['存储 `zhdocs` 已存在。']);
    expect((await zh.run(':store del "zhdocs"')).text).toBe('存储 `zhdocs` 已删除。');
  });

  it('adds, activates, uploads, indexes and searches a file store; the model gets the results with their sources', async () => {
    const s = await loggedIn();
    expect((await s.run(':store add "nope" "x"')).errors).toEqual(['Invalid engine. Valid engines are: file, mysql.']);
    expect((await s.run(':store add "file" "docs"')).errors).toEqual([]);
    expect(s.settings.get('stores')).toBe('docs');
    expect((await s.run(':store use "docs"')).errors).toEqual(['Store `docs` is already active.']);
    const up = await s.run(`:store data upload +file[${filesUrl}/guide.md] +file[${filesUrl}/manual.pdf] +file[${filesUrl}/notes.docx] +file[${filesUrl}/data.csv]`);
    expect(up.errors).toEqual([]);
    expect(up.text).toContain('4 file(s) uploaded');
    expect((await s.run(':store search frobnicator')).errors).toEqual(['Search text must be quoted with double quotes.']);
    const found = await s.run(':store search "how do I configure the frobnicator"');
    expect(found.text).toContain('guide.md');
    expect(found.text).toContain('frobnicator');
    expect(found.text).not.toContain('**');
    expect((await s.run(':store search "what about the quantum widget calibration"')).text).toContain('manual.pdf');
    expect((await s.run(':store search "zebrafish aquarium"')).text).toContain('notes.docx');
    expect((await s.run(':store search "population of Bergen"')).text).toContain('data.csv');
    expect((await s.run(':store search "nonexistentwordxyz"')).text).toContain('No result found.');
    const ls = await s.run(':store ls');
    expect(ls.outputs[0]).toMatchObject({ kind: 'list', items: [{ text: 'docs (file)', active: true }] });
    const details = await s.run(':store "docs"');
    expect(details.text).toContain('manual.pdf');

    // Chat: the top results reach the model as support data, with the file name.
    fake.reply({ text: 'Seven.' });
    const events: GenerationEvent[] = [];
    const api = t.client();
    await api.post('/api/user/login', { username: s.username, password: PW });
    await streamGeneration({ session: Date.now(), user_input: 'How do I configure the frobnicator?', stores: 'docs', use_stats: true } as never, (e) => events.push(e), {
      signal: new AbortController().signal,
      baseUrl: t.url,
      fetch: api.raw,
    });
    expect(events).toContainEqual({ type: 'status', text: 'Searching...', message: { code: 'core.searching', params: {}, text: 'Searching...' } });
    const system = JSON.stringify(fake.requests.at(-1)!.body.messages);
    expect(system).toContain('Support data');
    expect(system).toContain('guide.md');
    expect(system).toContain('flux level');
    const stats = events.find((e) => e.type === 'stats') as { stats: { stores: string } } | undefined;
    expect(stats?.stats.stores).toBe('docs');

    // Three at most; one store for set/reset/owner; delete leaves the active list.
    await s.run(':store add "file" "two"');
    await s.run(':store add "file" "three"');
    expect(s.settings.get('stores')).toBe('docs,two,three');
    // A fourth is created all the same, not active, and the person is told how to use it.
    const fourth = await s.run(':store add "file" "four"');
    expect(fourth.errors).toEqual([]);
    expect(fourth.text).toBe('Store `four` is created.\nIt is not active: 3 stores are in use. Unuse one, then :store use "four".');
    expect(s.settings.get('stores')).toBe('docs,two,three');
    expect((await s.run(':store use "four"')).errors).toEqual(['You can only use 3 stores at the same time. Please unuse one of them first.']);
    expect((await s.run(':store set description "x"')).errors).toEqual(['Multiple stores are being used. Please unuse all but one store.']);
    expect((await s.run(':store data reset')).errors).toEqual(['Multiple stores are being used. Please unuse all but one store.']);
    expect((await s.run(':store set owner root')).errors).toEqual(['Multiple stores are being used. Please unuse all but one store.']);
    expect((await s.run(':store del "two"')).errors).toEqual([]);
    expect(s.settings.get('stores')).toBe('docs,three');
    expect((await s.run(':store unuse "three"')).errors).toEqual([]);
    expect((await s.run(':store set colour "red"')).errors).toEqual(['Unknown key. Key must be one of: description']);
    expect((await s.run(':store set description "Product docs"')).errors).toEqual([]);
    expect((await s.run(':store data reset')).errors).toEqual([]);
    expect((await s.run(':store search "frobnicator"')).text).toContain('No result found.');
    expect((await s.run(':store reset')).errors).toEqual([]);
    expect(s.settings.get('stores')).toBe('');
    expect((await s.run(':store use "missing"')).errors).toEqual(['Store not exists.']);
  }, 60_000);

  it('checks uploads: the allowed types and the 10MB limit, multipart or by URL', async () => {
    const s = await loggedIn();
    await s.run(':store add "file" "up"');
    expect((await s.run(`:store data upload +file[${filesUrl}/evil.exe]`)).errors).toEqual([
      'Invalid file type. Supported type: JPEG/JPG, PNG, PDF, DOCX, TXT, Markdown, CSV, JSON.',
    ]);
    expect((await s.run(`:store data upload +file[${filesUrl}/big.txt]`)).errors).toEqual(['failed: file size exceeds 10MB']);
    const api = t.client();
    await api.post('/api/user/login', { username: s.username, password: PW });
    const form = (name: string, data: Buffer) => {
      const f = new FormData();
      f.set('name', 'up');
      f.append("files", new Blob([new Uint8Array(data)]), name);
      return f;
    };
    const send = (body: FormData) => api.raw(`${t.url}/api/store/file-upload`, { method: 'POST', body });
    let res = await send(form('x.exe', Buffer.from('MZ')));
    expect(await res.json()).toEqual({ success: false, error: 'Invalid file type. Supported type: JPEG/JPG, PNG, PDF, DOCX, TXT, Markdown, CSV, JSON.', code: 'store.invalidType', params: {} });
    res = await send(form('big.txt', FILES['big.txt'] as Buffer));
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ success: false, error: 'failed: file size exceeds 10MB', code: 'store.tooLarge', params: {} });
    // Between 1 MB and 10 MB passes this route (the global 1 MB limit is raised only here).
    res = await send(form('mid.txt', Buffer.from('needle '.repeat(300_000))));
    expect(res.status).toBe(200);
    const other = await api.raw(`${t.url}/api/store/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ search: 'x'.repeat(2_000_000), store: 'up' }) });
    expect(other.status).toBe(413);

    // Several files at once: the good ones are stored, each refused one is named with its reason.
    const mixed = new FormData();
    mixed.set('name', 'up');
    mixed.append('files', new Blob([new TextEncoder().encode('The heron nests by the mill pond.')]), 'notes.txt');
    mixed.append('files', new Blob([new Uint8Array(FILES['big.txt'] as Buffer)]), 'big.txt');
    mixed.append('files', new Blob([new TextEncoder().encode('MZ')]), 'bad.exe');
    res = await send(mixed);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      success: true,
      message: '1 file(s) uploaded to store `up`.',
      code: 'store.uploaded',
      params: { count: 1, name: 'up' },
      result: {
        files: [{ name: 'notes.txt', chunks: 1 }],
        refused: [
          { name: 'big.txt', reason: 'failed: file size exceeds 10MB' },
          { name: 'bad.exe', reason: 'Invalid file type. Supported type: JPEG/JPG, PNG, PDF, DOCX, TXT, Markdown, CSV, JSON.' },
        ],
      },
    });
    // None good: every file is named.
    const bad = new FormData();
    bad.set('name', 'up');
    bad.append('files', new Blob([new TextEncoder().encode('MZ')]), 'a.exe');
    bad.append('files', new Blob([new TextEncoder().encode('MZ')]), 'b.exe');
    res = await send(bad);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe(
      ['a.exe', 'b.exe'].map((f) => `Upload failed: ${f}: Invalid file type. Supported type: JPEG/JPG, PNG, PDF, DOCX, TXT, Markdown, CSV, JSON.`).join('\n'),
    );
  }, 60_000);
});
