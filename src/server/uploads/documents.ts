// The text of a DOCX or a PDF, as the extraction worker reads it (extractWorker.ts): never
// called on the server's own thread, since a document built to be expensive is stopped there
// by the worker's limits (limits.ts) rather than by luck.
//
// DOCX: mammoth reads the document, but not the archive: it is handed the parts it asks for,
// unpacked by zip.ts within the budget counted on the bytes actually produced (mammoth's own
// JSZip would inflate whatever the archive holds), and the main part a few hundred KB at a
// time (docxBody.ts), since mammoth's trees of a whole 3 MB part take 170 MB of heap. Its raw
// text is what it always was.
// PDF: pdf.js (through unpdf), one page after another, at most PDF_MAX_PAGES of them, with the
// text joined as unpdf's `mergePages` joins it.
import { DOCX_MAX_UNPACKED, PDF_MAX_PAGES, TEXT_MAX_CHARS, ZIP_MAX_ENTRIES } from './limits.ts';
import { bodyChunks, CHUNK_CHARS } from './docxBody.ts';
import { RefusedError } from './refusal.ts';
import { ZipArchive } from './zip.ts';

/** Where mammoth looks for the style sheet when the document's relationships name none. */
const STYLES = 'word/styles.xml';
const EMPTY_STYLES = '<w:styles xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"/>';

/** The main part's path as mammoth finds it: the package's officeDocument relationship. */
function mainDocumentPath(zip: ZipArchive, rels: string | undefined): string {
  for (const [relationship] of (rels ?? '').matchAll(/<(?:\w+:)?Relationship\b[^>]*>/g)) {
    const type = /\bType\s*=\s*["']([^"']*)["']/.exec(relationship)?.[1] ?? '';
    const target = /\bTarget\s*=\s*["']([^"']*)["']/.exec(relationship)?.[1];
    if (!type.endsWith('/relationships/officeDocument') || target === undefined) continue;
    const path = target.replace(/^\//, '');
    if (zip.has(path)) return path;
  }
  return 'word/document.xml';
}

/** `chunkChars`: the size of the small documents mammoth is given (tests make it tiny). */
export async function docxText(data: Uint8Array, chunkChars = CHUNK_CHARS): Promise<string> {
  const zip = new ZipArchive(data, { maxUnpacked: DOCX_MAX_UNPACKED, maxEntries: ZIP_MAX_ENTRIES });
  // The small parts mammoth reads for every piece, each unpacked once.
  const small = new Map<string, string>();
  const readSmall = (name: string) => {
    if (!small.has(name)) small.set(name, zip.readText(name));
    return small.get(name)!;
  };
  const main = mainDocumentPath(zip, zip.has('_rels/.rels') ? readSmall('_rels/.rels') : undefined);
  if (!zip.has(main)) throw new RefusedError({ kind: 'damaged', type: 'DOCX' });
  const slash = main.lastIndexOf('/');
  const mainRels = `${main.slice(0, slash + 1)}_rels/${main.slice(slash + 1)}.rels`;
  // What mammoth sees of the archive: the parts the raw text depends on. Styles, numbering,
  // notes and comments shape HTML but add nothing to the raw text (notes and comments are
  // not part of it), so they are neither unpacked nor parsed; mammoth finds an empty style
  // sheet (it needs one for tables) where it looks for one when the document names none.
  const visible = new Set(['[Content_Types].xml', '_rels/.rels', main, mainRels].filter((name) => zip.has(name)));
  zip.checkUnpacked([...visible]);
  let body = '';
  const contents = (name: string) => (name === main ? body : name === STYLES ? EMPTY_STYLES : readSmall(name));
  // mammoth's own interface to an opened archive (lib/zipfile.js), which `extractRawText`
  // takes as `file`: the main part is each small document of docxBody.ts in turn.
  const file = {
    exists: (name: string) => visible.has(name) || name === STYLES,
    read: async (name: string, encoding?: string) => {
      if (!file.exists(name)) throw new Error(`${name} is not read`);
      return encoding ? contents(name) : new TextEncoder().encode(contents(name));
    },
    write: () => {
      throw new Error('read only');
    },
    toArrayBuffer: () => {
      throw new Error('read only');
    },
  };
  const mammoth = (await import('mammoth')).default;
  const texts: string[] = [];
  let chars = 0;
  try {
    for (const chunk of bodyChunks(zip.textPieces(main), chunkChars)) {
      body = chunk;
      const text = (await mammoth.extractRawText({ file } as unknown as { buffer: Buffer })).value;
      texts.push(text);
      chars += text.length;
      if (chars >= TEXT_MAX_CHARS) break;
    }
  } catch (err) {
    if (err instanceof RefusedError) throw err;
    throw new RefusedError({ kind: 'damaged', type: 'DOCX' });
  }
  const text = texts.join('');
  return text.length > TEXT_MAX_CHARS ? text.slice(0, TEXT_MAX_CHARS) : text;
}

interface TextItem {
  str?: string;
  hasEOL?: boolean;
}

export async function pdfText(data: Uint8Array): Promise<string> {
  const { getDocumentProxy } = await import('unpdf');
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    // A plain Uint8Array over the same bytes (pdf.js refuses a Buffer).
    pdf = await getDocumentProxy(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
  } catch {
    throw new RefusedError({ kind: 'damaged', type: 'PDF' });
  }
  try {
    // The page tree's /Count, which the author writes: refused before a page is read.
    if (pdf.numPages > PDF_MAX_PAGES) throw new RefusedError({ kind: 'pages', max: PDF_MAX_PAGES });
    const texts: string[] = [];
    let chars = 0;
    for (let n = 1; n <= pdf.numPages && chars <= TEXT_MAX_CHARS; n++) {
      const page = await pdf.getPage(n);
      const content = await page.getTextContent();
      const text = (content.items as TextItem[])
        .filter((item) => item.str != null)
        .map((item) => item.str! + (item.hasEOL ? '\n' : ''))
        .join('');
      page.cleanup();
      texts.push(text);
      chars += text.length;
    }
    // unpdf's mergePages: whitespace collapsed, line breaks kept, at most one blank line.
    const merged = texts
      .join('\n')
      .replace(/[^\S\n]+/g, ' ')
      .replace(/ ?\n ?/g, '\n')
      .replace(/\n{3,}/g, '\n\n');
    return merged.length > TEXT_MAX_CHARS ? merged.slice(0, TEXT_MAX_CHARS) : merged;
  } catch (err) {
    if (err instanceof RefusedError) throw err;
    throw new RefusedError({ kind: 'damaged', type: 'PDF' });
  } finally {
    await pdf.loadingTask.destroy().catch(() => {});
  }
}
