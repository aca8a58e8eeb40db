// Data stores and nodes in the browser against the real server: files picked with the browser's
// file picker and uploaded with progress, searched, and handed to the model as support data;
// a node's output and image in a chat turn (USE_NODE_AI); and a mysql store over the real
// MariaDB (skipped with a notice when MariaDB does not answer, unless CI=true).
import { randomBytes } from 'node:crypto';
import { docxWith, pdfWith } from '../fixtures/documents.ts';
import mysql from 'mysql2/promise';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeNode, type FakeNode } from '../fixtures/fakeNode.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fakeOpenAI.ts';
import { HAS_CHROME, launchBrowser, openApp, run, startServer, type RunningServer } from './support.ts';

const PW = 'correct-horse-1';
const MYSQL_ADMIN = process.env.TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test';


const mysqlUp = await (async () => {
  try {
    const conn = await mysql.createConnection({ uri: MYSQL_ADMIN, connectTimeout: 1500 });
    await conn.end();
    return true;
  } catch {
    return false;
  }
})();
// Locally a missing MariaDB skips these; under CI=true it is a failure, never a silent skip.
if (!mysqlUp && process.env.CI === 'true') throw new Error('MariaDB is required under CI=true (127.0.0.1:3306)');
if (!mysqlUp) {
  if (process.env.CI === 'true') throw new Error(`MariaDB is required under CI=true but ${MYSQL_ADMIN} does not answer`);
  console.warn(`[e2e] skipping the mysql store test: MariaDB does not answer at ${MYSQL_ADMIN} (set TEST_MYSQL_URL)`);
}

const outputText = async (page: Page) => (await page.getByTestId('output').textContent()) ?? '';

/** Records every text the output area shows from now on (progress lines come and go). */
async function recordOutputs(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate(() => {
    const w = window as unknown as { __outputs: string[] };
    w.__outputs = [];
    const el = document.querySelector('[data-testid=output]')!;
    new MutationObserver(() => w.__outputs.push(el.textContent ?? '')).observe(el, { childList: true, subtree: true, characterData: true });
  });
  return () => page.evaluate(() => (window as unknown as { __outputs: string[] }).__outputs);
}

describe.skipIf(!HAS_CHROME)('stores and nodes in the browser', () => {
  let fake: FakeOpenAI;
  let fakeNode: FakeNode;
  let server: RunningServer;
  let browser: Browser;
  beforeAll(async () => {
    [fake, fakeNode] = await Promise.all([startFakeOpenAI(), startFakeNode()]);
    [server, browser] = await Promise.all([
      startServer({ MODEL: 'gpt-4o-mini', OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'sk-test', USE_NODE_AI: 'true', EGRESS_ALLOW_HOSTS: '127.0.0.1' }),
      launchBrowser(),
    ]);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await Promise.all([fake?.close(), fakeNode?.close()]);
  });

  async function loggedIn(username: string) {
    const app = await openApp(browser, server.url);
    await run(app.page, `:user add ${username} ${username}@example.org ${PW}`);
    expect(await run(app.page, `:login ${username} ${PW}`)).toBe(`Logged in as ${username}.`);
    return app;
  }

  it('uploads a PDF and a DOCX through the file picker with progress, searches them, and answers with them as support data', async () => {
    const { page, context, errors } = await loggedIn('filer');
    expect(await run(page, ':store add "file" "docs"')).toContain('Store `docs` is created.');

    // Client-side checks first: the type and the 10MB limit, before anything is sent.
    const uploads = () => server.logs().match(/store files indexed/g)?.length ?? 0;
    page.once('filechooser', (chooser) => chooser.setFiles({ name: 'tool.exe', mimeType: 'application/octet-stream', buffer: Buffer.from('MZ') }));
    expect(await run(page, ':store data upload')).toBe('Invalid file type. Supported type: JPEG/JPG, PNG, PDF, DOCX, TXT, Markdown, CSV, JSON.');
    page.once('filechooser', (chooser) => chooser.setFiles({ name: 'huge.txt', mimeType: 'text/plain', buffer: Buffer.alloc(10 * 1024 * 1024 + 1, 'a') }));
    expect(await run(page, ':store data upload')).toBe('failed: file size exceeds 10MB');
    expect(uploads()).toBe(0);

    // The picker offers the allowed types, several at once.
    const pdf = pdfWith('The quantum widget needs a calibration every week.');
    const docx = await docxWith('Remember the zebrafish aquarium password policy.');
    let accept = '';
    let multiple = false;
    page.once('filechooser', async (chooser) => {
      accept = (await chooser.element().getAttribute('accept')) ?? '';
      multiple = chooser.isMultiple();
      await chooser.setFiles([
        { name: 'report.pdf', mimeType: 'application/pdf', buffer: pdf },
        { name: 'letter.docx', mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', buffer: docx },
      ]);
    });
    const seen = await recordOutputs(page);
    const uploaded = await run(page, ':store data upload');
    expect(uploaded).toContain('2 file(s) uploaded to store `docs`.');
    expect(uploaded).toContain('report.pdf');
    expect(uploaded).toContain('letter.docx');
    expect(accept).toBe('.jpeg,.jpg,.png,.pdf,.docx,.txt,.md,.csv,.json');
    expect(multiple).toBe(true);
    const progress = (await seen()).join('\n');
    expect(progress).toMatch(/Uploading report\.pdf: \d+%/);
    expect(progress).toMatch(/Uploading letter\.docx: \d+%/);
    expect(progress).toContain('Uploading letter.docx: 100%');
    // The server's log line reaches this process through a pipe, a moment after the answer.
    await expect.poll(uploads).toBe(1);
    // The picker's input is gone again (the input box's own Attach picker stays).
    expect(await page.locator('input[type=file]:not([data-testid=attach-input])').count()).toBe(0);

    const pdfHit = await run(page, ':store search "quantum widget calibration"');
    expect(pdfHit).toContain('report.pdf');
    expect(pdfHit).toContain('quantum');
    const docxHit = await run(page, ':store search "zebrafish aquarium"');
    expect(docxHit).toContain('letter.docx');
    expect(docxHit).toContain('zebrafish');

    // A question with the store active: the model gets the support data with its source.
    fake.reply({ text: 'Calibrate the quantum widget every week.' });
    const before = fake.requests.length;
    await page.getByTestId('input').fill('How often does the quantum widget need a calibration?');
    await page.getByTestId('submit').click();
    await expect.poll(() => outputText(page), { timeout: 10_000 }).toContain('Calibrate the quantum widget every week.');
    const sent = fake.requests.slice(before);
    expect(sent).toHaveLength(1);
    const system = (sent[0]!.body.messages as { role: string; content: unknown }[]).filter((m) => m.role === 'system').map((m) => JSON.stringify(m.content)).join('\n');
    expect(system).toContain('Support data');
    expect(system).toContain('source: report.pdf');
    // The document's words as they are: no highlight markers reach the model.
    expect(system).toContain('The quantum widget needs a calibration every week.');
    expect(system).not.toContain('**');
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);

  it('stores the good files of a mixed upload and names the refused ones; a user cannot publish a store to everyone', async () => {
    const { page, context, errors } = await loggedIn('mixer');
    expect(await run(page, ':store add "file" "mixed"')).toContain('Store `mixed` is created.');
    page.once('filechooser', (chooser) =>
      chooser.setFiles([
        { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('The heron nests by the mill pond.') },
        { name: 'doc.md', mimeType: 'text/markdown', buffer: Buffer.from('# Otters\nOtters slide down the weir.') },
        { name: 'bad.exe', mimeType: 'application/octet-stream', buffer: Buffer.from('MZ') },
      ]),
    );
    const mixed = await run(page, ':store data upload');
    expect(mixed).toContain('2 file(s) uploaded to store `mixed`.');
    expect(mixed).toContain('notes.txt');
    expect(mixed).toContain('Upload failed: bad.exe: Invalid file type. Supported type: JPEG/JPG, PNG, PDF, DOCX, TXT, Markdown, CSV, JSON.');
    page.once('filechooser', (chooser) =>
      chooser.setFiles([
        { name: 'big.txt', mimeType: 'text/plain', buffer: Buffer.alloc(11 * 1024 * 1024, 'a') },
        { name: 'small.txt', mimeType: 'text/plain', buffer: Buffer.from('Kingfishers dive at dawn.') },
      ]),
    );
    const sized = await run(page, ':store data upload');
    expect(sized).toContain('1 file(s) uploaded to store `mixed`.');
    expect(sized).toContain('Upload failed: big.txt: failed: file size exceeds 10MB');
    expect(await run(page, ':store search "kingfishers"')).toContain('small.txt');
    expect(await run(page, ':store search "heron"')).toContain('notes.txt');
    expect(await run(page, ':store search "weir"')).toContain('doc.md');

    // Handing the store to root would publish it as a system store into everybody's prompts.
    expect(await run(page, ':store set owner "root"')).toBe('Only root can give to the system.');
    expect(await run(page, ':store set owner "system"')).toBe('Only root can give to the system.');
    // Nor to a stranger's account, who never agreed to share anything with this user.
    const stranger = await loggedIn('stranger');
    expect(await run(page, ':store set owner "stranger"')).toBe('You can only give to a member of a group you belong to; stranger is not in any of yours.');
    expect(await run(stranger.page, ':store ls')).not.toContain('mixed');
    // The author still owns it, and can delete it.
    expect(await run(page, ':store del "mixed"')).toBe('Store `mixed` is deleted.');
    expect([...errors, ...stranger.errors]).toEqual([]);
    await Promise.all([context.close(), stranger.context.close()]);
  }, 60_000);

  it("uses an http node: its output reaches the model as context and its image shows in the previews", async () => {
    const { page, context, errors } = await loggedIn('noder');
    expect(await run(page, ':node add "helper"')).toContain('Node "helper" added.');
    expect(await run(page, ':node set kind "http"')).not.toMatch(/invalid|unknown|not found/i);
    expect(await run(page, `:node set base_url "${fakeNode.url}"`)).toContain(fakeNode.url);
    expect(await run(page, ':node use "helper"')).toContain('helper');
    fake.reply({ text: 'I see a picture.' });
    const before = fake.requests.length;
    const calls = fakeNode.requests.length;
    await page.getByTestId('input').fill('what do you see?');
    await page.getByTestId('submit').click();
    await expect.poll(() => outputText(page), { timeout: 10_000 }).toContain('I see a picture.');
    expect(fakeNode.requests.length).toBe(calls + 1);
    expect(fakeNode.requests.at(-1)!.body).toMatchObject({ input: 'what do you see?' });
    const sent = fake.requests.slice(before);
    expect(sent).toHaveLength(1);
    const system = (sent[0]!.body.messages as { role: string; content: unknown }[]).filter((m) => m.role === 'system').map((m) => JSON.stringify(m.content));
    expect(system.some((s) => s.includes('node says: what do you see?'))).toBe(true);
    // The node's image is of another host: it waits for a click that names the host (issue 34).
    const held = page.getByTestId('previews').getByTestId('held-image');
    await expect.poll(() => held.textContent(), { timeout: 10_000 }).toContain(`Load the image from ${new URL(fakeNode.image).host}`);
    expect(await page.getByTestId('previews').isVisible()).toBe(true);
    await held.getByRole('button').click();
    await expect.poll(() => page.locator('[data-testid=previews] img').getAttribute('src')).toBe(fakeNode.image);
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);

  describe.skipIf(!mysqlUp)('a mysql store over MariaDB', () => {
    const dbName = `shellchat_e2e_${randomBytes(5).toString('hex')}`;
    const roUser = `sc_e2e_${randomBytes(3).toString('hex')}`;
    const roPass = `pw_${randomBytes(8).toString('hex')}`;
    let admin: mysql.Connection;
    beforeAll(async () => {
      admin = await mysql.createConnection({ uri: MYSQL_ADMIN });
      await admin.query(`CREATE DATABASE \`${dbName}\``);
      await admin.query(`CREATE TABLE \`${dbName}\`.cities (id INT PRIMARY KEY, name VARCHAR(64), population INT)`);
      await admin.query(`INSERT INTO \`${dbName}\`.cities VALUES (1, 'Oslo', 700000), (2, 'Bergen', 285000), (3, 'Trondheim', 210000)`);
      await admin.query(`CREATE USER '${roUser}'@'%' IDENTIFIED BY '${roPass}'`);
      await admin.query(`GRANT SELECT ON \`${dbName}\`.* TO '${roUser}'@'%'`);
    });
    afterAll(async () => {
      await admin?.query(`DROP DATABASE IF EXISTS \`${dbName}\``);
      await admin?.query(`DROP USER IF EXISTS '${roUser}'@'%'`);
      await admin?.end();
    });

    it('is configured with :store set, initialized, and answers a search with rows', async () => {
      const { page, context, errors } = await loggedIn('sqler');
      expect(await run(page, ':store add "mysql" "pop"')).toContain('Store `pop` is created.');
      for (const [key, value] of [['host', '127.0.0.1'], ['port', '3306'], ['user', roUser], ['password', roPass], ['database', dbName], ['table', 'cities']] as const) {
        expect(await run(page, `:store set ${key} "${value}"`)).toBe(`Store \`pop\` ${key} is set.`);
      }
      // The password is masked in the details.
      expect(await run(page, ':store "pop"')).not.toContain(roPass);
      expect(await run(page, ':store init')).toContain('Store `pop` is initialized.');
      fake.reply({ text: '{"query": "SELECT name, population FROM cities ORDER BY population DESC LIMIT 10"}' });
      const found = await run(page, ':store search "Which city is the largest?"');
      expect(found).toContain('pop');
      expect(found).toContain('query: SELECT name, population FROM cities');
      expect(found).toContain('"name":"Oslo","population":700000');
      expect(found).toContain('Bergen');
      expect(JSON.stringify(fake.requests.at(-1)!.body.messages)).toContain('Table: cities');
      expect(errors).toEqual([]);
      await context.close();
    }, 60_000);
  });
});
