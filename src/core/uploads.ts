// Files a person attaches to a question (spec parts 5 and 7): which types are taken, what each
// is served as, and the inline marker the input shows while one uploads. Shared by the browser
// (paste, drop, the Attach button), the server (presigned uploads, +file[url] text) and tests.
import { UPLOAD_EXTENSIONS, UPLOAD_MAX_BYTES } from './constants.ts';

export type UploadExtension = (typeof UPLOAD_EXTENSIONS)[number];

/** The one content type the server stores and serves for each extension. */
export const UPLOAD_CONTENT_TYPES: Record<UploadExtension, string> = {
  jpeg: 'image/jpeg',
  jpg: 'image/jpeg',
  png: 'image/png',
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  txt: 'text/plain',
  md: 'text/markdown',
  csv: 'text/csv',
  json: 'application/json',
};

// What browsers and systems call the same files: a file picker gives '' for Markdown on most
// systems, 'application/vnd.ms-excel' for CSV on Windows, 'text/x-markdown' elsewhere.
const ALIASES: Partial<Record<UploadExtension, string[]>> = {
  jpg: ['image/jpg', 'image/pjpeg'],
  jpeg: ['image/jpg', 'image/pjpeg'],
  md: ['text/x-markdown', 'text/plain'],
  csv: ['application/vnd.ms-excel', 'text/plain'],
  json: ['text/json', 'text/plain'],
};

/** Types a file of unknown kind is given by pickers; the extension then decides. */
const UNKNOWN_TYPES = ['', 'application/octet-stream'];

/** The extension of a file name or URL path, lower case ('' when none). */
export function fileExtension(name: string): string {
  const base = name.split(/[?#]/)[0]!.split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
}

export function uploadExtension(name: string): UploadExtension | undefined {
  const ext = fileExtension(name);
  return (UPLOAD_EXTENSIONS as readonly string[]).includes(ext) ? (ext as UploadExtension) : undefined;
}

/** Whether a file of this name may be sent with this declared content type. */
export function acceptsContentType(ext: UploadExtension, contentType: string): boolean {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  return type === UPLOAD_CONTENT_TYPES[ext] || UNKNOWN_TYPES.includes(type) || (ALIASES[ext] ?? []).includes(type);
}

export const isImageExtension = (ext: string): boolean => ext === 'png' || ext === 'jpg' || ext === 'jpeg';

/** Why a file cannot be uploaded before anything is sent, or undefined when it can. */
export function uploadRefusal(file: { name: string; size: number }): 'invalidType' | 'tooLarge' | 'empty' | undefined {
  if (!uploadExtension(file.name)) return 'invalidType';
  if (file.size > UPLOAD_MAX_BYTES) return 'tooLarge';
  if (file.size === 0) return 'empty';
  return undefined;
}

/** `/api/file/<id>/<name>`: where an upload is served, and how the server knows its own URLs. */
export const UPLOAD_OBJECT_PATH = /^\/api\/file\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?:\/[^/]*)?$/;

/** An upload's object URL: the form UPLOAD_OBJECT_PATH reads. */
export const objectUrl = (origin: string, id: string, name: string) => `${origin}/api/file/${id}/${encodeURIComponent(name)}`;

/** The upload id in one of the server's object URLs, or undefined. */
export function uploadIdOf(url: string): string | undefined {
  try {
    return UPLOAD_OBJECT_PATH.exec(new URL(url).pathname)?.[1];
  } catch {
    return undefined;
  }
}

/** What `GET /api/file/generate-presigned-url` answers (spec part 7), and the type to PUT with. */
export interface PresignedUpload {
  url: string;
  object_url: string;
  content_type: string;
}

/**
 * The inline marker of an attachment (spec part 4): `+image[...]` for pictures, `+file[...]`
 * otherwise. While uploading and after a failure it holds the file's name and a note, which
 * does not start with http, so a line sent with it is refused ('URL must start with http or https.').
 */
export function uploadMarker(name: string, body: string): string {
  const kind = isImageExtension(fileExtension(name)) ? 'image' : 'file';
  // Brackets would end the marker early: a name keeps its other characters.
  return `+${kind}[${body.replace(/[[\]\n]/g, ' ')}]`;
}
