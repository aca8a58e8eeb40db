// The careful DOCX reading (zip.ts, docxBody.ts, documents.ts) against mammoth reading the whole
// file itself: the same raw text, however small the pieces mammoth is given; and the archive
// reader's budget, counted on what the inflater produces whatever the directory claims.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { deflateRawSync } from 'node:zlib';
import JSZip from 'jszip';
import mammoth from 'mammoth';
import { describe, expect, it } from 'vitest';
import { docxOf, documentXml, lyingDirectoryDocx, zeroBomb, zipOf } from '../../../tests/fixtures/hostile.ts';
import { bodyChunks } from './docxBody.ts';
import { docxText, pdfText } from './documents.ts';
import { RefusedError } from './refusal.ts';
import { ZipArchive } from './zip.ts';

const MB = 1024 * 1024;
const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';

const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    if (err instanceof RefusedError) return err.refusal;
    throw err;
  }
  throw new Error('expected a refusal');
};

/** A DOCX as Word lays it out (JSZip, deflated), with a style sheet mammoth needs for tables. */
async function wordDocx(body: string): Promise<Buffer> {
  const zip = new JSZip();
  zip.file('[Content_Types].xml', '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/></Types>');
  zip.file(
    '_rels/.rels',
    '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="/word/document.xml"/></Relationships>',
  );
  zip.file(
    'word/_rels/document.xml.rels',
    '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rLink" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink" Target="https://example.org/" TargetMode="External"/></Relationships>',
  );
  zip.file('word/styles.xml', `<w:styles xmlns:w="${W}"><w:style w:type="table" w:styleId="TableGrid"><w:name w:val="Table Grid"/></w:style></w:styles>`);
  zip.file(
    'word/document.xml',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:document xmlns:w="${W}" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"><w:body>${body}<w:sectPr><w:pgSz w:w="11906" w:h="16838"/></w:sectPr></w:body></w:document>`,
  );
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

const BLOCKS = [
  '<w:p><w:r><w:t xml:space="preserve">Plain &amp; "quoted" text, é 中文 😀 </w:t></w:r><w:r><w:tab/><w:t>after a tab</w:t></w:r></w:p>',
  '<w:p><w:pPr><w:pStyle w:val="Heading1"/><w:tabs><w:tab w:val="left" w:pos="720"/></w:tabs></w:pPr><w:r><w:rPr><w:b/></w:rPr><w:t>A heading with a tab stop</w:t></w:r></w:p>',
  '<w:tbl><w:tblPr><w:tblStyle w:val="TableGrid"/></w:tblPr><w:tr><w:tc><w:p><w:r><w:t>cell one</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>cell two</w:t></w:r></w:p></w:tc></w:tr></w:tbl>',
  '<w:p><w:hyperlink r:id="rLink"><w:r><w:t>a link</w:t></w:r></w:hyperlink><w:r><w:br/><w:t>after a break</w:t></w:r></w:p>',
  '<!-- a comment with <w:p> inside --><w:p><w:r><w:t><![CDATA[CDATA <text>]]></w:t></w:r></w:p>',
  // Tracked changes: deleted text, and a paragraph whose mark is deleted (its text joins the next).
  '<w:p><w:del w:id="1" w:author="a"><w:r><w:delText>gone</w:delText></w:r></w:del><w:ins w:id="2" w:author="a"><w:r><w:t>inserted</w:t></w:r></w:ins></w:p>',
  '<w:p><w:pPr><w:rPr><w:del w:id="3" w:author="a" w:date="2024-01-01T00:00:00Z"/></w:rPr></w:pPr><w:r><w:t xml:space="preserve">joined </w:t></w:r></w:p>',
  '<w:p><w:r><w:t>with the next paragraph</w:t></w:r></w:p>',
  '<w:p><mc:AlternateContent><mc:Choice Requires="wps"><w:r><w:t>choice</w:t></w:r></mc:Choice><mc:Fallback><w:r><w:t>fallback</w:t></w:r></mc:Fallback></mc:AlternateContent></w:p>',
  '<w:p/>',
  '<w:sdt><w:sdtContent><w:p><w:r><w:t>in a content control</w:t></w:r></w:p></w:sdtContent></w:sdt>',
];

describe('docxText', () => {
  it('gives mammoth’s raw text of the whole file, whatever the size of the pieces mammoth is given', async () => {
    const body = Array.from({ length: 60 }, (_, i) => BLOCKS[i % BLOCKS.length]!.replace('Plain', `Plain ${i}`)).join('\n');
    const file = await wordDocx(body);
    const expected = (await mammoth.extractRawText({ buffer: file })).value;
    expect(expected).toContain('joined with the next paragraph');
    for (const chunkChars of [1, 500, 4096, undefined]) expect(await docxText(file, chunkChars)).toBe(expected);
  });

  it.skipIf(!existsSync('node_modules/mammoth/test/test-data'))('agrees with mammoth on mammoth’s own test documents', async () => {
    const dir = 'node_modules/mammoth/test/test-data/';
    for (const name of readdirSync(dir).filter((f) => f.endsWith('.docx'))) {
      const file = readFileSync(dir + name);
      const expected = (await mammoth.extractRawText({ buffer: file })).value;
      expect(await docxText(file, 1), name).toBe(expected);
    }
  });

  it('reads the fixtures’ own DOCX (a ZIP written byte by byte)', async () => {
    expect(await docxText(docxOf({ data: documentXml('One.', 'Two.') }))).toBe('One.\n\nTwo.\n\n');
  });

  it('refuses a bomb for its size before parsing it, and what is not a Word document as damaged', async () => {
    await expect(docxText(lyingDirectoryDocx())).rejects.toMatchObject({ refusal: { kind: 'unpacked', mb: 48 } });
    await expect(docxText(zipOf([{ name: 'a.txt', data: 'x' }]))).rejects.toMatchObject({ refusal: { kind: 'damaged', type: 'DOCX' } });
    await expect(docxText(new TextEncoder().encode('not a zip'))).rejects.toMatchObject({ refusal: { kind: 'damaged', type: 'DOCX' } });
  });
});

describe('ZipArchive', () => {
  it('counts the bytes the inflater produces, not what the directory claims', () => {
    const zip = new ZipArchive(zipOf([{ name: 'a', deflated: zeroBomb(64), claimedSize: 10 }]), { maxUnpacked: 8 * MB, maxEntries: 10 });
    expect(refusal(() => zip.read('a'))).toEqual({ kind: 'unpacked', mb: 8 });
    // The budget is shared by every entry read.
    const two = new ZipArchive(zipOf([{ name: 'a', deflated: zeroBomb(5) }, { name: 'b', deflated: zeroBomb(5) }]), { maxUnpacked: 8 * MB, maxEntries: 10 });
    expect(two.read('a').length).toBe(5 * MB);
    expect(refusal(() => two.read('b'))).toEqual({ kind: 'unpacked', mb: 8 });
    // checkUnpacked inflates without keeping, and leaves the budget whole.
    const three = new ZipArchive(zipOf([{ name: 'a', deflated: zeroBomb(5) }]), { maxUnpacked: 8 * MB, maxEntries: 10 });
    three.checkUnpacked(['a']);
    expect(three.read('a').length).toBe(5 * MB);
  });

  it('reads stored and deflated entries, however their sizes are claimed', () => {
    const text = 'x'.repeat(100_000);
    const deflated = deflateRawSync(Buffer.from(text));
    // A compressed size claimed longer than the stream: the bytes after it are not fed on.
    const file = zipOf([{ name: 'stored', data: 'plain', store: true }, { name: 'deflated', deflated, claimedSize: 1 }, { name: 'tail', data: 'y'.repeat(1000) }]);
    const zip = new ZipArchive(file, { maxUnpacked: MB, maxEntries: 10 });
    expect(zip.readText('stored')).toBe('plain');
    expect(zip.readText('deflated')).toBe(text);
    expect(zip.names).toEqual(['stored', 'deflated', 'tail']);
  });

  it('refuses too many entries, a truncated stream, an unknown method and a damaged directory', () => {
    const many = zipOf(Array.from({ length: 11 }, (_, i) => ({ name: `e${i}`, data: '' })));
    expect(refusal(() => new ZipArchive(many, { maxUnpacked: MB, maxEntries: 10 }))).toEqual({ kind: 'entries', max: 10 });
    const stream = deflateRawSync(Buffer.from(documentXml(...Array.from({ length: 500 }, (_, i) => `line ${i}`))));
    const cut = new ZipArchive(zipOf([{ name: 'a', deflated: stream.subarray(0, stream.length >> 1) }]), { maxUnpacked: MB, maxEntries: 10 });
    expect(refusal(() => cut.read('a'))).toEqual({ kind: 'damaged', type: 'DOCX' });
    const bzip = Buffer.from(zipOf([{ name: 'a', data: 'x', store: true }]));
    bzip.writeUInt16LE(12, bzip.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])) + 10);
    expect(refusal(() => new ZipArchive(bzip, { maxUnpacked: MB, maxEntries: 10 }).read('a'))).toEqual({ kind: 'damaged', type: 'DOCX' });
    const file = zipOf([{ name: 'a', data: 'x' }]);
    expect(refusal(() => new ZipArchive(file.subarray(0, file.length - 30), { maxUnpacked: MB, maxEntries: 10 }))).toEqual({ kind: 'damaged', type: 'DOCX' });
  });
});

describe('bodyChunks', () => {
  const xml = `<?xml version="1.0"?><w:document xmlns:w="${W}"><w:body>${BLOCKS.join('')}</w:body></w:document>`;
  const pieces = (text: string, size: number) => Array.from({ length: Math.ceil(text.length / size) }, (_, i) => text.slice(i * size, (i + 1) * size));
  const prefix = `<?xml version="1.0"?><w:document xmlns:w="${W}"><w:body>`;
  const suffix = '</w:body></w:document>';

  it('cuts between top-level blocks only, each piece a whole document, however the text arrives', () => {
    const whole = [...bodyChunks([xml], 1)];
    // One cut after every block but the paragraph whose mark is deleted.
    expect(whole.length).toBe(BLOCKS.length - 1);
    for (const chunk of whole) {
      expect(chunk.startsWith(prefix) && chunk.endsWith(suffix)).toBe(true);
    }
    expect(whole.map((c) => c.slice(prefix.length, -suffix.length)).join('')).toBe(BLOCKS.join(''));
    for (const size of [1, 7, 64, 1000]) expect([...bodyChunks(pieces(xml, size), 1)]).toEqual(whole);
    expect([...bodyChunks([xml])]).toEqual([xml]);
  });

  it('refuses a DOCTYPE (entities) and a document without a body', () => {
    expect(refusal(() => [...bodyChunks([`<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "b">]><w:document xmlns:w="${W}"><w:body/></w:document>`])])).toEqual({ kind: 'damaged', type: 'DOCX' });
    expect(refusal(() => [...bodyChunks([`<w:document xmlns:w="${W}"><w:p/></w:document>`])])).toEqual({ kind: 'damaged', type: 'DOCX' });
    expect(refusal(() => [...bodyChunks(['\0'.repeat(2 * MB)])])).toEqual({ kind: 'damaged', type: 'DOCX' });
  });
});

describe('pdfText', () => {
  it('refuses what is not a PDF as damaged', async () => {
    await expect(pdfText(new TextEncoder().encode('%PDF-1.4\nnothing else'))).rejects.toMatchObject({ refusal: { kind: 'damaged', type: 'PDF' } });
  });
});
