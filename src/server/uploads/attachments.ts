// The files behind attachment URLs (+file[url], +image[url]): this server's own uploads come
// from the database, since the egress-safe fetch rightly refuses the server's own (often
// loopback) address; every other URL goes through the egress-safe fetch, capped at 10 MB.
// An own upload is known by its path and its random id whatever host name the URL was made
// with (localhost, a LAN address, PUBLIC_URL): the id is the capability either way.
import { MessageError } from '../../core/messages.ts';
import type { Kysely } from 'kysely';
import type { AttachedFile, AttachmentsApi, Database } from '../../core/index.ts';
import { SERVER_MESSAGES } from '../../core/serverMessages.ts';
import { uploadIdOf } from '../../core/uploads.ts';
import { extractText } from './extract.ts';
import { readUpload } from './uploadStorage.ts';

export function createAttachments(db: Kysely<Database>, egressFetch: typeof fetch): AttachmentsApi {
  return {
    async fetch(url: string, signal: AbortSignal): Promise<AttachedFile> {
      const id = uploadIdOf(url);
      if (id) {
        const file = await readUpload(db, id);
        if (!file) throw new MessageError(SERVER_MESSAGES.uploadNotFound(url));
        return file;
      }
      const response = await egressFetch(url, { signal });
      if (!response.ok) throw new Error(`status ${response.status}`);
      const data = new Uint8Array(await response.arrayBuffer());
      let name = 'file';
      try {
        name = decodeURIComponent(new URL(url).pathname.split('/').pop() || 'file').slice(0, 200);
      } catch {
        // A malformed escape keeps the default name.
      }
      return { name, contentType: (response.headers.get('content-type') ?? '').split(';')[0]!.trim(), data };
    },
    extractText,
  };
}
