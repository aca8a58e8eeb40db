// Whether an upload's bytes are what its name says (ASVS 5.0 5.2.2: extension and content must
// match), checked before the file is marked usable, so that nothing served from this origin
// is HTML or script under an image's or a document's name. Binary formats are told by
// file-type (their signatures, and a DOCX's ZIP entries); a DOCX's directory is also read here
// against zip bombs; text is checked as UTF-8 without NUL bytes.
import { fileTypeFromBuffer } from 'file-type';
import { isUtf8 } from 'node:buffer';
import type { UploadExtension } from '../../core/uploads.ts';
import { isJson } from '../../core/json.ts';
import { ZIP_MAX_ENTRIES } from './limits.ts';

const startsWith = (data: Uint8Array, bytes: number[]) => bytes.every((b, i) => data[i] === b);

const ZIP = [0x50, 0x4b, 0x03, 0x04]; // PK\3\4

/** What a DOCX's directory may claim once unpacked (ASVS 5.0 5.2.3): a cheap first refusal. */
export const ZIP_MAX_UNCOMPRESSED = 100 * 1024 * 1024;
export { ZIP_MAX_ENTRIES };

/**
 * Reads a ZIP's central directory (the record at its end lists every entry with its sizes) and
 * refuses, at upload, an archive that says it is too big: too many entries, or too much once
 * inflated. The sizes are the ones the file's author wrote, so this only turns away the honest
 * bombs early: what an archive really unpacks to is counted on the inflater's output when it
 * is read (zip.ts, in the extraction worker). Returns why it is refused, or undefined.
 */
export function checkZip(data: Uint8Array): string | undefined {
  if (!startsWith(data, ZIP)) return 'not a ZIP archive';
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  // The end-of-central-directory record: 22 bytes plus a comment of at most 65,535.
  let end = -1;
  for (let i = data.byteLength - 22; i >= Math.max(0, data.byteLength - 22 - 65_535); i--) {
    if (view.getUint32(i, true) === 0x06054b50) {
      end = i;
      break;
    }
  }
  if (end < 0) return 'no ZIP directory';
  const entries = view.getUint16(end + 10, true);
  if (entries === 0xffff) return 'ZIP64 archives are not taken';
  if (entries > ZIP_MAX_ENTRIES) return `more than ${ZIP_MAX_ENTRIES} entries`;
  let at = view.getUint32(end + 16, true);
  let total = 0;
  let hasDocument = false;
  for (let n = 0; n < entries; n++) {
    if (at + 46 > data.byteLength || view.getUint32(at, true) !== 0x02014b50) return 'a damaged ZIP directory';
    const inflated = view.getUint32(at + 24, true);
    const nameLength = view.getUint16(at + 28, true);
    const extra = view.getUint16(at + 30, true);
    const comment = view.getUint16(at + 32, true);
    if (inflated === 0xffffffff) return 'ZIP64 archives are not taken';
    total += inflated;
    if (total > ZIP_MAX_UNCOMPRESSED) return `more than ${ZIP_MAX_UNCOMPRESSED / 1024 / 1024} MB once unpacked`;
    const name = new TextDecoder().decode(data.subarray(at + 46, at + 46 + nameLength));
    if (name === 'word/document.xml') hasDocument = true;
    at += 46 + nameLength + extra + comment;
  }
  return hasDocument ? undefined : 'not a Word document';
}

/** UTF-8 text without NUL bytes (a binary renamed .txt has them). */
function isText(data: Uint8Array): boolean {
  return !data.includes(0) && isUtf8(data);
}

/** The largest image taken (ASVS 5.0 5.2.3): its pixels are what a browser or a model decodes. */
export const IMAGE_MAX_SIDE = 16_384;
export const IMAGE_MAX_MEGAPIXELS = 64;

/**
 * An image's width and height as its header states them (PNG's IHDR, a JPEG's frame header),
 * read before anything decodes it: a 10 KB PNG can declare 100,000 × 100,000 pixels and
 * inflate to 40 GB in the browser that shows it. Undefined when the header cannot be read
 * (nothing would decode such a file either).
 */
export function imageSize(ext: 'png' | 'jpg' | 'jpeg', data: Uint8Array): { width: number; height: number } | undefined {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  if (ext === 'png') {
    // Signature (8), then the IHDR chunk: length (4), type (4), width (4), height (4).
    if (data.byteLength < 24 || String.fromCharCode(...data.subarray(12, 16)) !== 'IHDR') return undefined;
    return { width: view.getUint32(16), height: view.getUint32(20) };
  }
  // JPEG: segments after the SOI marker, each FF, its marker and a big-endian length that
  // counts itself, until a start-of-frame (its height then width) or the scan's start.
  let at = 2;
  while (at + 4 <= data.byteLength) {
    if (data[at] !== 0xff) return undefined;
    const marker = data[at + 1]!;
    if (marker === 0xff) {
      at++;
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    if (marker === 0xda || marker === 0xd9) return undefined;
    const length = view.getUint16(at + 2);
    const frame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (frame) return at + 9 <= data.byteLength ? { height: view.getUint16(at + 5), width: view.getUint16(at + 7) } : undefined;
    if (length < 2) return undefined;
    at += 2 + length;
  }
  return undefined;
}

/** Why an image is too large to take, or undefined. */
export function imageTooLarge(ext: 'png' | 'jpg' | 'jpeg', data: Uint8Array): { width: number; height: number } | undefined {
  const size = imageSize(ext, data);
  if (!size) return undefined;
  const { width, height } = size;
  return width > IMAGE_MAX_SIDE || height > IMAGE_MAX_SIDE || width * height > IMAGE_MAX_MEGAPIXELS * 1e6 ? size : undefined;
}

/**
 * What file-type must find for each binary extension. An Illustrator file is a PDF too. A DOCX
 * whose [Content_Types].xml is over file-type's 1 MB reading bound is reported as a plain ZIP:
 * the directory check below, and the bounded reader when it is read, say what is wrong with it.
 */
const DETECTED: Partial<Record<UploadExtension, { name: string; exts: string[] }>> = {
  png: { name: 'PNG', exts: ['png'] },
  jpg: { name: 'JPEG', exts: ['jpg'] },
  jpeg: { name: 'JPEG', exts: ['jpg'] },
  pdf: { name: 'PDF', exts: ['pdf', 'ai'] },
  docx: { name: 'DOCX', exts: ['docx', 'zip'] },
};

/** The name of the type a file failed to be (for the message), or undefined when it matches. */
export async function mismatch(ext: UploadExtension, data: Uint8Array): Promise<string | undefined> {
  const binary = DETECTED[ext];
  if (binary) {
    const found = await fileTypeFromBuffer(data).catch(() => undefined);
    if (!found || !binary.exts.includes(found.ext)) return binary.name;
    return ext === 'docx' && checkZip(data) !== undefined ? binary.name : undefined;
  }
  if (ext === 'json') {
    // Scanned, not parsed: building the value of a hostile 10 MB file costs ~400 MB (json.ts).
    return isText(data) && isJson(data) ? undefined : 'JSON';
  }
  return isText(data) ? undefined : 'text';
}
