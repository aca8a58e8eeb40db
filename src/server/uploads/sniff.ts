// Whether an upload's bytes are what its name says (ASVS 5.0 5.2.2: extension and content must
// match), checked before the file is marked usable, so that nothing served from this origin
// is HTML or script under an image's or a document's name.
import type { UploadExtension } from '../../core/uploads.ts';

const startsWith = (data: Uint8Array, bytes: number[]) => bytes.every((b, i) => data[i] === b);

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG = [0xff, 0xd8, 0xff];
const PDF = [0x25, 0x50, 0x44, 0x46, 0x2d]; // %PDF-
const ZIP = [0x50, 0x4b, 0x03, 0x04]; // PK\3\4

/** A DOCX's limits (ASVS 5.0 5.2.3): what it may inflate to, and how many entries it may hold. */
export const ZIP_MAX_UNCOMPRESSED = 100 * 1024 * 1024;
export const ZIP_MAX_ENTRIES = 5_000;

/**
 * Reads a ZIP's central directory (the record at its end lists every entry with its sizes) and
 * refuses a zip bomb before anything is inflated: too many entries, or too much once inflated.
 * Hand-written because it is 30 lines of fixed offsets, and the ZIP libraries at hand inflate
 * or keep the sizes private. Returns why it is refused, or undefined.
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
  if (data.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(data);
    return true;
  } catch {
    return false;
  }
}

/** The name of the type a file failed to be (for the message), or undefined when it matches. */
export function mismatch(ext: UploadExtension, data: Uint8Array): string | undefined {
  switch (ext) {
    case 'png':
      return startsWith(data, PNG) ? undefined : 'PNG';
    case 'jpg':
    case 'jpeg':
      return startsWith(data, JPEG) ? undefined : 'JPEG';
    case 'pdf':
      return startsWith(data, PDF) ? undefined : 'PDF';
    case 'docx':
      return checkZip(data) === undefined ? undefined : 'DOCX';
    case 'json':
      if (!isText(data)) return 'JSON';
      try {
        JSON.parse(new TextDecoder().decode(data));
        return undefined;
      } catch {
        return 'JSON';
      }
    case 'txt':
    case 'md':
    case 'csv':
      return isText(data) ? undefined : 'text';
  }
}
