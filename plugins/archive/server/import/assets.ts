// The pictures a conversation names from its own zip (ChatGPT's `file-...` images) become the
// importer's uploads, through the core's upload store: the same checks as an attached file, and
// counted against the upload quota (the same bytes once: pictures.ts). One that cannot be stored (over the quota, not a picture a
// browser can show) is left out and the conversation is still imported, its text naming the
// picture as before; the report's row says how many were left out and why.
import type { Message } from '../../../../src/core/index.ts';
import { SERVER_MESSAGES } from '../../../../src/core/serverMessages.ts';
import { fileExtension, isImageExtension } from '../../../../src/core/uploads.ts';
import type { ImportedConversation } from './model.ts';
import type { PictureStore } from './pictures.ts';
import type { AssetReader } from './read.ts';
import { ASSET } from './sources.ts';

export interface Stored {
  /** The uploads made, removed again should the conversation not be written. */
  uploads: string[];
  /** Every upload its logs link to, made for it or before. */
  linked: string[];
  /** Pictures left out, and the first reason. */
  left: number;
  reason?: Message;
}

export async function storeAssets(conversation: ImportedConversation, read: AssetReader, pictures: PictureStore): Promise<Stored> {
  const stored: Stored = { uploads: [], linked: [], left: 0 };
  const urls = new Map<string, string | null>();
  for (const session of conversation.sessions) {
    for (const log of session.logs) {
      if (!log.images.some((i) => i.startsWith(ASSET))) continue;
      const images: string[] = [];
      for (const image of log.images) {
        if (!image.startsWith(ASSET)) {
          images.push(image);
          continue;
        }
        const id = image.slice(ASSET.length);
        if (!urls.has(id)) {
          const file = await read(id);
          // Not in the zip (exports often lack some): the text names it, as it always did.
          if (!file) urls.set(id, null);
          else {
            // Only pictures: a log's images are shown as such (a .webp is no upload type either).
            const done = !isImageExtension(fileExtension(file.name))
              ? { refused: SERVER_MESSAGES.uploadInvalidType }
              : 'tooLarge' in file
                ? { refused: SERVER_MESSAGES.uploadTooLarge }
                : await pictures.store(file);
            if ('refused' in done) {
              stored.left++;
              stored.reason ??= done.refused;
              urls.set(id, null);
            } else {
              if (done.created) stored.uploads.push(done.id);
              stored.linked.push(done.id);
              urls.set(id, done.url);
            }
          }
        }
        const url = urls.get(id);
        if (url) images.push(url);
      }
      log.images = images;
    }
  }
  return stored;
}
