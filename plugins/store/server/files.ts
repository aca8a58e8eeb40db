// The documents of a file store: an upload's documents read (uploadForm.ts), their text
// extracted, chunked and indexed in the main database (search.ts), each refused one kept with
// its reason, so that a bad document among good ones is named and the good ones are stored.
import type { Message } from '../../../src/core/messages.ts';
import { saidBy, type ServerPluginContext } from '../../../src/core/index.ts';
import { TEXT_EXTENSIONS } from '../common/limits.ts';
import { MESSAGES } from '../common/messages.ts';
import { extensionOf, type UploadResult } from '../common/rules.ts';
import type { StoreDb, StoresTable } from './schema.ts';
import { chunkText } from './search.ts';
import { collectDocs, type Refusal, type UploadDoc, type UploadRequest } from './uploadForm.ts';

const MAX_CHUNKS_PER_FILE = 20_000;
/** Chunks written per insert. */
const CHUNK_BATCH = 200;

/** Indexes one document into a file store; the chunk count. */
export async function indexFile(ctx: ServerPluginContext, storeId: number, name: string, data: Uint8Array): Promise<number> {
  const db = ctx.db as unknown as StoreDb;
  const textBody = await ctx.attachments.extractText(name, data);
  const chunks = chunkText(textBody).slice(0, MAX_CHUNKS_PER_FILE);
  const now = Date.now();
  await db.transaction().execute(async (trx) => {
    const values = { store_id: storeId, name, bytes: data.byteLength, chunks: chunks.length, created_at: now } as never;
    const fileId =
      ctx.engine === 'postgres'
        ? Number((await trx.insertInto('store_files').values(values).returning('id').executeTakeFirstOrThrow()).id)
        : Number((await trx.insertInto('store_files').values(values).executeTakeFirstOrThrow()).insertId);
    for (let i = 0; i < chunks.length; i += CHUNK_BATCH) {
      await trx
        .insertInto('store_chunks')
        .values(chunks.slice(i, i + CHUNK_BATCH).map((body, j) => ({ store_id: storeId, file_id: fileId, seq: i + j, tag: `s${storeId}`, body })) as never)
        .execute();
      // The embedded database works on this thread: let other requests in between batches,
      // or a 10 MB file (10,000 chunks and their full-text index) holds the server for 300 ms.
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
  });
  return chunks.length;
}

/**
 * Indexes each document; one that cannot be read joins `refused` with why. Images are
 * accepted but carry no text: they are listed with no chunks.
 */
async function indexDocs(ctx: ServerPluginContext, storeId: number, docs: UploadDoc[], refused: Refusal[]): Promise<UploadResult['files']> {
  const indexed: UploadResult['files'] = [];
  for (const doc of docs) {
    if (!(TEXT_EXTENSIONS as readonly string[]).includes(extensionOf(doc.name))) {
      indexed.push({ name: doc.name, chunks: 0 });
      continue;
    }
    try {
      indexed.push({ name: doc.name, chunks: await indexFile(ctx, storeId, doc.name, doc.data) });
    } catch (err) {
      refused.push({ name: doc.name, reason: saidBy(err), status: 400 });
    }
  }
  return indexed;
}

/** Nothing stored: no document at all, or one refused says why as it is, or several each named. */
function nothingStored(docs: UploadDoc[], refused: Refusal[]): { status: Refusal['status']; error: string | Message } {
  const [first] = refused;
  if (!first) return { status: 400, error: MESSAGES.noFiles };
  if (refused.length === 1) return { status: first.status, error: docs.length ? MESSAGES.uploadFailed(first.name, first.reason) : first.reason };
  return { status: first.status, error: refused.map((r) => MESSAGES.uploadFailed(r.name, r.reason)).join('\n') };
}

export type UploadOutcome = { ok: true; result: Required<UploadResult> } | { ok: false; status: Refusal['status']; error: string | Message };

/** An upload into a file store: its documents read (URLs through the attachments) and indexed. */
export async function uploadFiles(ctx: ServerPluginContext, store: StoresTable, request: UploadRequest, signal: AbortSignal): Promise<UploadOutcome> {
  // This server's own uploads (a file attached in the chat) too, not only other URLs.
  const { docs, refused } = await collectDocs(request, async (url) => (await ctx.attachments.fetch(url, signal)).data);
  const files = await indexDocs(ctx, Number(store.id), docs, refused);
  if (!files.length) return { ok: false, ...nothingStored(docs, refused) };
  return { ok: true, result: { files, refused: refused.map(({ name, reason }) => ({ name, reason: String(reason) })) } };
}
