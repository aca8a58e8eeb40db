// Text out of a document: plain text formats as UTF-8 here, PDF and DOCX in a worker thread
// with capped memory and time (extractPool.ts, limits.ts), since their parsers' cost is the
// document author's to choose. Images carry no text. Used for chat attachments (+file[url])
// and file stores alike; a document refused for a limit throws the server's message saying which.
import { fileExtension } from '../../core/uploads.ts';
import { extractPool } from './extractPool.ts';
import { TEXT_MAX_CHARS } from './limits.ts';

export async function extractText(name: string, data: Uint8Array): Promise<string> {
  const ext = fileExtension(name);
  if (ext === 'pdf' || ext === 'docx') return extractPool.extract(ext, data);
  if (['txt', 'md', 'csv', 'json'].includes(ext)) {
    const text = new TextDecoder('utf-8').decode(data);
    return text.length > TEXT_MAX_CHARS ? text.slice(0, TEXT_MAX_CHARS) : text;
  }
  return '';
}
