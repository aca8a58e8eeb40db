// Unit tests of the store plugin's pure parts: the SQL gate's accepted queries, setting keys per
// engine, chunking, query terms and snippets. Server behaviour: tests/server/stores.test.ts.
import { describe, expect, it } from 'vitest';
import { checkUpload, progressLines, UPLOAD_ACCEPT } from './common/index.ts';
import { MESSAGES } from './common/messages.ts';
import { checkStoreName, checkStoreSetting, extensionOf } from './common/rules.ts';
import { gateSql, sqlFromAnswer } from './server/mysqlGuard.ts';
import { chunkText, queryTerms, snippetOf } from './server/search.ts';

describe('the SQL gate', () => {
  it.each([
    'SELECT name, population FROM cities ORDER BY population DESC LIMIT 10',
    "select * from cities where name = 'O''Brien' limit 5",
    'SELECT c.name, COUNT(*) AS n FROM cities c JOIN orders o ON o.city_id = c.id GROUP BY c.name HAVING n > 2',
    'WITH big AS (SELECT * FROM cities WHERE population > 250000) SELECT name FROM big',
    "SELECT name FROM cities WHERE name LIKE '%; DROP TABLE x --%'",
    'SELECT `name` FROM `cities`',
  ])('accepts %s', (sql) => expect(gateSql(sql)).toEqual({ ok: true, sql }));

  it.each([
    ['SELECT 1; SELECT 2', 'only one statement is allowed'],
    ['SELECT 1 -- x', 'comments are not allowed'],
    ['DELETE FROM x', 'only SELECT is allowed'],
    ["SELECT LOAD_FILE('/etc/passwd')", 'LOAD_FILE is not allowed'],
    ['SELECT * FROM mysql.user', 'MYSQL is not allowed'],
    ['SELECT @@version', 'variables are not allowed'],
    ["SELECT 'a\\' ", 'backslashes are not allowed'],
  ])('refuses %s', (sql, reason) => expect(gateSql(sql)).toEqual({ ok: false, reason }));

  it('takes the query out of a JSON or fenced answer, and an empty query as nothing to run', () => {
    expect(sqlFromAnswer('{"query": "SELECT 1"}')).toBe('SELECT 1');
    expect(sqlFromAnswer('```sql\nSELECT 2\n```')).toBe('SELECT 2');
    expect(sqlFromAnswer('{"query": ""}')).toBe('');
  });
});

/** A settings check with its refusal as text. */
const checkedText = (r: ReturnType<typeof checkStoreSetting>) => (r.ok ? r : { ok: false, error: String(r.error) });

describe('store rules', () => {
  it('validates names and keys per engine', () => {
    expect(checkStoreName('docs_2024')).toBeUndefined();
    expect(checkStoreName('')).toBe(MESSAGES.invalidName);
    expect(checkStoreName('a,b')).toBe(MESSAGES.invalidName);
    expect(checkedText(checkStoreSetting('file', 'host', 'x'))).toEqual({ ok: false, error: 'Unknown key. Key must be one of: description' });
    expect(checkStoreSetting('mysql', 'HOST', 'db.example.com')).toEqual({ ok: true, key: 'host', value: 'db.example.com' });
    expect(checkedText(checkStoreSetting('mysql', 'port', '33o6'))).toEqual({ ok: false, error: 'Invalid value. Value must be a number.' });
    expect(extensionOf('https://x.org/a/Report.PDF?x=1')).toBe('pdf');
  });
});

describe('indexing and search helpers', () => {
  it('chunks long text on breaks, keeping every word', () => {
    const text = Array.from({ length: 300 }, (_, i) => `Sentence number ${i} is here.`).join(' ');
    const chunks = chunkText(text, 500);
    expect(chunks.length).toBeGreaterThan(10);
    for (const c of chunks) expect(c.length).toBeLessThanOrEqual(500);
    expect(chunks.join(' ').split(/\s+/).length).toBe(text.split(/\s+/).length);
  });

  it('drops stopwords from questions; snippets keep the text as it is, around the first hit', () => {
    expect(queryTerms('How do I configure the Frobnicator?')).toEqual(['configure', 'frobnicator']);
    expect(snippetOf('Open the panel to configure the frobnicator quickly.', ['frobnicator'])).toBe('Open the panel to configure the frobnicator quickly.');
    const long = `${'x '.repeat(200)}the frobnicator here ${'y '.repeat(200)}`;
    const snippet = snippetOf(long, ['frobnicator'], 60);
    expect(snippet).toMatch(/^….*frobnicator.*…$/);
    expect(snippet).not.toContain('*');
  });
});

describe('picked uploads', () => {
  it('checks the type and the 10MB limit before sending (spec part 5 messages)', () => {
    expect(UPLOAD_ACCEPT).toBe('.jpeg,.jpg,.png,.pdf,.docx,.txt,.md,.csv,.json');
    expect(checkUpload({ name: 'Report.PDF', size: 100 })).toBeUndefined();
    expect(checkUpload({ name: 'tool.exe', size: 2 })?.text).toBe('Invalid file type. Supported type: JPEG/JPG, PNG, PDF, DOCX, TXT, Markdown, CSV, JSON.');
    expect(checkUpload({ name: 'noext', size: 2 })).toBe(MESSAGES.invalidType);
    expect(checkUpload({ name: 'big.txt', size: 10 * 1024 * 1024 })).toBeUndefined();
    expect(checkUpload({ name: 'big.txt', size: 10 * 1024 * 1024 + 1 })?.text).toBe('failed: file size exceeds 10MB');
  });

  it('spreads the bytes sent of one request over the files, in order', () => {
    const files = [{ name: 'a.pdf', size: 100 }, { name: 'b.docx', size: 300 }];
    expect(progressLines(files, 0, 0)).toEqual(['Uploading a.pdf: 0%', 'Uploading b.docx: 0%']);
    expect(progressLines(files, 50, 400)).toEqual(['Uploading a.pdf: 50%', 'Uploading b.docx: 0%']);
    expect(progressLines(files, 250, 400)).toEqual(['Uploading a.pdf: 100%', 'Uploading b.docx: 50%']);
    expect(progressLines(files, 400, 400)).toEqual(['Uploading a.pdf: 100%', 'Uploading b.docx: 100%']);
    expect(progressLines([{ name: 'empty.txt', size: 0 }], 10, 10)).toEqual(['Uploading empty.txt: 100%']);
  });
});
