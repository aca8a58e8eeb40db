// A DOCX's main part cut into small documents, so that mammoth, which builds two trees of
// whatever it parses (about 60 bytes of heap per byte of XML), only ever parses a few hundred
// KB at a time. The part's XML arrives in pieces (zip.ts inflates it piece by piece) and is
// scanned for tags only: the body's top-level blocks (paragraphs, tables, ...) are grouped
// into runs of about CHUNK_CHARS, each given the document's own opening (the XML declaration,
// the root element with its namespaces, the body) and closing. mammoth's raw text of a
// document is the text of its blocks one after another, so the pieces' texts, joined, are
// the text of the whole.
//
// One thing crosses blocks in mammoth: a paragraph whose mark was deleted (tracked changes)
// lends its text to the next paragraph; no cut is made after one.
import { RefusedError } from './refusal.ts';

/** The size of one small document's body, in characters. */
export const CHUNK_CHARS = 256 * 1024;
/** What may come before the body: the root element's start tag and little else. */
const PREFIX_MAX = 1024 * 1024;

const damaged = () => new RefusedError({ kind: 'damaged', type: 'DOCX' });

const NAME = /[^\s/>]*/y;
const TAG = /<[^>"']*(?:(?:"[^"]*"|'[^']*')[^>"']*)*>/y;

/** The element name of a start tag's text. */
function nameOf(tag: string, from: number): string {
  NAME.lastIndex = from;
  return NAME.exec(tag)![0];
}

const localName = (name: string) => name.slice(name.indexOf(':') + 1);

/**
 * Whole small documents out of the main part's text, given in pieces. Throws a RefusedError
 * for XML it will not take (a DOCTYPE, which could declare entities; no body).
 */
export function* bodyChunks(pieces: Iterable<string>, chunkChars = CHUNK_CHARS): Generator<string> {
  let prefix = '';
  let rootName = '';
  let bodyName = '';
  let inBody = false;
  let depth = 0;
  // The local names of the open elements down to depth 4 (root, body, block, pPr, rPr).
  const names: string[] = [];
  // Whether the block being read is a paragraph whose mark is deleted (p > pPr > rPr > del).
  let deletedMark = false;
  let chunk: string[] = [];
  let chunkLength = 0;
  let pending = '';

  for (const piece of pieces) {
    const text = pending + piece;
    // Tokens are scanned from `at`; the text before `mark` has gone to the prefix or the chunk.
    let at = 0;
    let mark = 0;
    let ended = false;
    const give = (to: number) => {
      if (to <= mark) return;
      const part = text.slice(mark, to);
      mark = to;
      if (inBody) {
        chunk.push(part);
        chunkLength += part.length;
      } else if ((prefix += part).length > PREFIX_MAX) throw damaged();
    };
    const cut = function* (to: number) {
      give(to);
      yield `${prefix}${chunk.join('')}</${bodyName}></${rootName}>`;
      chunk = [];
      chunkLength = 0;
    };
    for (;;) {
      const lt = text.indexOf('<', at);
      if (lt < 0) {
        at = text.length;
        break;
      }
      const next = text.charCodeAt(lt + 1);
      let end: number;
      if (next === 0x21 /* ! */ || next === 0x3f /* ? */ || Number.isNaN(next)) {
        const closer = text.startsWith('<!--', lt) ? '-->' : text.startsWith('<![CDATA[', lt) ? ']]>' : next === 0x3f ? '?>' : '';
        if (!closer) {
          // A DOCTYPE (Word never writes one: it could declare entities), or too little text
          // yet to tell what this is.
          if (text.length - lt >= 9) throw damaged();
          end = -1;
        } else {
          const i = text.indexOf(closer, lt + 2);
          end = i < 0 ? -1 : i + closer.length;
        }
      } else {
        // A tag: its end is the first `>` outside quoted attribute values.
        TAG.lastIndex = lt;
        const tag = TAG.exec(text);
        end = tag ? lt + tag[0].length : -1;
      }
      // A token the piece cuts waits for the next piece.
      if (end < 0) {
        at = lt;
        break;
      }
      at = end;
      if (next === 0x21 || next === 0x3f) continue;
      if (next === 0x2f /* / */) {
        if (--depth < 0) throw damaged();
        if (!inBody) continue;
        if (depth === 1) {
          // The body's end: the rest of the part is not read.
          give(lt);
          mark = end;
          ended = true;
          break;
        }
        if (depth === 2) {
          if (chunkLength + (end - mark) >= chunkChars && !deletedMark) yield* cut(end);
          deletedMark = false;
        }
        continue;
      }
      const selfClosing = text.charCodeAt(end - 2) === 0x2f;
      if (depth <= 5) {
        const name = nameOf(text, lt + 1);
        const local = localName(name);
        if (depth === 0) rootName = name;
        if (inBody && depth === 5 && names[3] === 'pPr' && names[4] === 'rPr' && local === 'del') deletedMark = true;
        if (!selfClosing) names[depth] = local;
        if (!inBody && !selfClosing && depth === 1 && local === 'body') {
          bodyName = name;
          give(end);
          inBody = true;
        }
      }
      if (!selfClosing) depth++;
      else if (inBody && depth === 2 && chunkLength + (end - mark) >= chunkChars) yield* cut(end);
    }
    give(at);
    // The rest of the part is never inflated.
    if (ended) break;
    pending = text.slice(at);
    if (pending.length > PREFIX_MAX) throw damaged();
  }
  if (!bodyName) throw damaged();
  if (chunkLength) yield `${prefix}${chunk.join('')}</${bodyName}></${rootName}>`;
}
