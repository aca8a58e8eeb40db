// What attachments add to the context. A +file[url] becomes text (txt, md, csv, json as UTF-8,
// PDF, DOCX), whether it is one of this server's uploads or another URL (through the
// egress-safe fetch). A +image[url] that is one of this server's uploads goes to the model
// inline, as a data URL: a provider cannot fetch the server's own, often loopback, address.
// Other image URLs pass through as they are (streamAnswer.ts decides who fetches them).
import type { AttachmentsApi } from '../../core/index.ts';
import { fileExtension, isImageExtension, UPLOAD_CONTENT_TYPES, uploadIdOf } from '../../core/uploads.ts';

const MAX_CHARS = 100_000;
const READABLE = ['txt', 'md', 'csv', 'json', 'pdf', 'docx'];

/** The extension a file goes by: its name's, else its content type's. */
function extensionFor(name: string, contentType: string): string {
  const ext = fileExtension(name);
  if (ext) return ext;
  const byType = Object.entries(UPLOAD_CONTENT_TYPES).find(([, type]) => type === contentType);
  return byType?.[0] ?? '';
}

export async function fetchFileTexts(urls: string[], attachments: AttachmentsApi, signal: AbortSignal): Promise<{ url: string; text: string }[]> {
  const out: { url: string; text: string }[] = [];
  for (const url of urls) {
    try {
      const file = await attachments.fetch(url, signal);
      const ext = extensionFor(file.name, file.contentType);
      if (isImageExtension(ext)) {
        out.push({ url, text: '(An image: attach it with +image[url] for a model that reads images.)' });
        continue;
      }
      if (!READABLE.includes(ext)) {
        out.push({ url, text: '(This file type cannot be read.)' });
        continue;
      }
      const text = await attachments.extractText(`file.${ext}`, file.data);
      out.push({ url, text: text.length > MAX_CHARS ? `${text.slice(0, MAX_CHARS)}\n(truncated)` : text });
    } catch (err) {
      if (signal.aborted) throw err;
      out.push({ url, text: `(The file could not be read: ${(err as Error).message})` });
    }
  }
  return out;
}

/** The images of a turn and of its memory. */
export function imagesOf(images: string[], past: { images: string }[]): string[] {
  const all = [...images];
  for (const log of past) {
    try {
      all.push(...(JSON.parse(log.images) as string[]));
    } catch {
      // A log without a readable list has no images.
    }
  }
  return all;
}

/** Data URLs for the images among `urls` that are this server's uploads (others are left out). */
export async function inlineUploadedImages(urls: Iterable<string>, attachments: AttachmentsApi, signal: AbortSignal): Promise<Map<string, string>> {
  const inline = new Map<string, string>();
  for (const url of urls) {
    if (inline.has(url) || !uploadIdOf(url)) continue;
    const file = await attachments.fetch(url, signal);
    inline.set(url, `data:${file.contentType};base64,${Buffer.from(file.data).toString('base64')}`);
  }
  return inline;
}
