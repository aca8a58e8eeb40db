// The web commands through the real plugin host against the real server and the fake site, as
// the browser and the terminal run them: `:web "query"` lists numbered results as plain text,
// `:web open <n|url>` says what the next question gets, `:web` lists the pages read, and
// `:function use web_search` finds the plugin's system functions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createShellTester } from '../../tests/harness/shellTester.ts';
import { startTestServer, type TestServer } from '../../tests/server/support.ts';
import { startFakeWeb, type FakeWeb } from './fixtures/site.ts';
import { HTML_MAX_BYTES } from './server/extract.ts';
import { pageMarker } from './common/marker.ts';

let site: FakeWeb;
let server: TestServer;
let bare: TestServer;

beforeAll(async () => {
  site = await startFakeWeb();
  server = await startTestServer('sqlite', { SEARXNG_URL: site.searxngUrl, EGRESS_ALLOW_HOSTS: `localhost:${site.port}` });
  bare = await startTestServer('sqlite');
}, 60_000);
afterAll(async () => {
  await server?.close();
  await bare?.close();
  await site?.close();
});

const tester = (url = server.url, env: 'browser' | 'cli' = 'browser') => createShellTester({ plugins: ['general', 'function', 'web'], serverUrl: url, env });

describe(':web', () => {
  it.each(['browser', 'cli'] as const)('searches, opens a result by number, and lists what was read (%s)', async (env) => {
    const t = await tester(server.url, env);
    const found = await t.run(':web "rust async traits"');
    expect(found.text).toContain('Results for "rust async traits"');
    expect(found.text).toMatch(/1\s+Async fn in traits stabilized\s+localhost\s+Rust 1\.75 & async traits/);
    expect(found.text).toContain('Read one with :web open <number>.');
    expect(found.text).not.toMatch(/<script|onerror|javascript:/);
    expect((await t.run(':web')).text).toBe('No pages read yet.');
    const opened = await t.run(':web open 1');
    expect(opened.text).toMatch(new RegExp(`^Attached to your next question: Async fn in traits \\(${site.origin}/article/rust, \\d+ characters\\)\\.$`));
    const listed = await t.run(':web');
    expect(listed.text).toContain('Pages read');
    expect(listed.text).toMatch(/Async fn in traits\s+http:\/\/localhost:\d+\/article\/rust\s+\d+\s+for the next question/);
  });

  it('opens a URL, says what was cut, and refuses what is not a result or a URL', async () => {
    const t = await tester();
    expect((await t.run(':web open 9')).text).toBe('No result 9: search first with :web "words".');
    expect((await t.run(':web open ftp://x')).text).toBe('URL must start with http or https.');
    const big = await t.run(`:web open ${site.origin}/big`);
    expect(big.text).toContain(`Cut: the page is longer than ${HTML_MAX_BYTES.toLocaleString('en-US')} bytes; only that much was read; `);
    expect((await t.run(`:web open ${site.origin}/to-loopback`)).text).toMatch(/^The page could not be read: .*127\.0\.0\.1/);
  });

  it("says what was cut in the interface's language, numbers written as it writes them", async () => {
    const t = await createShellTester({ plugins: ['general', 'web'], serverUrl: server.url, env: 'browser', lang: 'de-DE' });
    const big = await t.run(`:web open ${site.origin}/big`);
    expect(big.text).toContain(`Gekürzt: die Seite ist länger als ${HTML_MAX_BYTES.toLocaleString('de-DE')} Bytes; nur so viel wurde gelesen; `);
    expect(big.text).toContain('/big, 20.000 Zeichen).');
    expect(big.text).toMatch(/\d Zeichen über 20\.000 hinaus\.$/);
    expect(big.text).not.toMatch(/longer than|characters past|were read/);
    // Why a page could not be read (the egress-safe fetch's refusal) is said in the language too.
    expect((await t.run(`:web open ${site.origin}/to-loopback`)).text).toBe('Die Seite konnte nicht gelesen werden: Verbindung zu 127.0.0.1 abgelehnt (Loopback-Adresse).');
    // So is fetch's own refusal of a port browsers refuse (it says only 'fetch failed').
    expect((await t.run(':web open http://example.test:1/')).text).toBe('Die Seite konnte nicht gelesen werden: der Port ist nicht erlaubt (Browser lehnen ihn ebenfalls ab).');
    // The list of pages read writes its character counts as the language does, whatever the system's locale.
    expect((await t.run(':web')).text).toMatch(/\/big\s+20\.000\s+für die nächste Frage/);
  });

  it('says in the page what it is doing while a search or a page read is on its way (a slow network showed nothing)', async () => {
    const t = await tester();
    const said: string[] = [];
    t.events.on('output', (outputs) => said.push(outputs.map((o) => (o.kind === 'text' ? o.text : o.kind)).join('\n')));
    await t.run(':web "rust async traits"');
    expect(said).toEqual(['Searching the web...']);
    said.length = 0;
    await t.run(`:web open ${site.origin}/article/rust`);
    expect(said).toEqual([`Reading ${site.origin}/article/rust...`]);
    said.length = 0;
    await t.run(':web open 1');
    expect(said).toEqual([`Reading ${site.origin}/article/rust...`]);
    // The terminal prints these on stderr, which stays for errors there.
    const cli = await tester(server.url, 'cli');
    const quiet: unknown[] = [];
    cli.events.on('output', (outputs) => quiet.push(outputs));
    await cli.run(`:web open ${site.origin}/article/rust`);
    expect(quiet).toEqual([]);
  });

  it('says in one line that search is not configured', async () => {
    const t = await tester(bare.url);
    const out = await t.run(':web "anything"');
    expect(out.text).toBe('Web search is not configured on this server (set SEARXNG_URL or BRAVE_SEARCH_API_KEY).');
  });

  it('a page of injection shows as plain text and runs nothing', async () => {
    const t = await tester();
    const out = await t.run(`:web open ${site.origin}/inject`);
    // Text lines, and the page's marker for the input: no other effect (no link opened, no view changed).
    expect(out.outputs.filter((o) => o.kind !== 'text')).toEqual([{ kind: 'effect', effect: { type: 'attach', marker: pageMarker(`${site.origin}/inject`) } }]);
    expect(out.text).toMatch(/^Attached to your next question: Totally normal page/);
  });

  it(':function use finds web_search and web_fetch; :function ls lists them', async () => {
    const t = await tester();
    expect((await t.run(':function use web_search')).text).toBe('Function web_search is in use.');
    expect((await t.run(':function use web_fetch')).text).toBe('Function web_fetch is in use.');
    expect(t.settings.get('functions')).toBe('web_search,web_fetch');
    expect((await t.run(':function ls')).text).toContain('*\\web_search *\\web_fetch');
  });
});
