// Files attached to questions (spec part 7): `GET /api/file/generate-presigned-url` hands out a
// signed, short-lived, one-time PUT URL and the object URL; the PUT stores the file once its
// bytes match its type; `GET /api/file/<id>/<name>` serves it.
//
// Why it is built this way (research/security.md §1C and §5):
// - the server picks the key (a random UUID); the person's file name is metadata only, never a path;
// - the PUT is bound to the presigned content type, taken once, before its deadline, at most 10 MB;
// - the bytes must match the extension (magic numbers, UTF-8 text, a DOCX's ZIP directory
//   checked against zip bombs) before the file is usable, and an image's stated dimensions
//   must be ones a browser can decode (what a document unpacks to is bounded when it is read:
//   limits.ts);
// - what is served is the type the extension says, images inline and everything else as an
//   attachment, with nosniff and a sandboxing CSP, so nothing uploaded runs in the app's origin;
// - each owner (user, or anonymous browser) has a quota, and visitors without an account also
//   one per address and one for all of them (quota.ts); uploads go with the account.
// The object URL's UUID is its capability: it is shown to its owner, and to those the owner
// shares a session with, as logs carry it.
import { Message } from '../../core/messages.ts';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { AppEnv, Database } from '../../core/index.ts';
import { UPLOAD_MAX_BYTES } from '../../core/constants.ts';
import { SERVER_MESSAGES } from '../../core/serverMessages.ts';
import { acceptsContentType, isImageExtension, UPLOAD_CONTENT_TYPES, uploadExtension, type PresignedUpload } from '../../core/uploads.ts';
import type { Owner } from '../turn/owner.ts';
import { fail, ok } from '../http/respond.ts';
import { validate } from '../http/validate.ts';
import { IMAGE_MAX_MEGAPIXELS, IMAGE_MAX_SIDE, imageTooLarge, mismatch } from './sniff.ts';
import { withKeyLocks } from '../db/keyLock.ts';
import { quotaLockKeys, quotaRefusal, type Holder, type UploadQuotas } from './quota.ts';
import { insertUpload, objectUrl, readUpload, writeParts } from './uploadStorage.ts';

/** How long a presigned PUT URL is taken (a 10 MB file on a slow link fits). */
export const PRESIGN_TTL_MS = 5 * 60_000;
export const UPLOAD_PUT_PATH = '/api/file/upload';
/** Presigned URLs one owner may hold unused at once, and the visitors at one address together. */
export const MAX_WAITING = 20;
export const MAX_WAITING_PER_ADDRESS = 5 * MAX_WAITING;

export interface UploadDeps {
  db: Kysely<Database>;
  owner(c: Context<AppEnv>): Owner;
  sign(...parts: string[]): string;
  verify(signature: string, ...parts: string[]): boolean;
  /** PUBLIC_URL, or '' to use the request's origin. */
  publicUrl: string;
  quotaBytes: number;
  /** Visitors without an account: per address, and all of them (quota.ts). */
  visitorQuotas: { addressBytes: number; totalBytes: number };
  /** Refuses a request another site's page sent (http/origin.ts). */
  sameSiteOnly: MiddlewareHandler;
}

const presignQuery = z.object({
  // The client's own id for its marker (spec part 7); the server's key is its own UUID.
  fileId: z.string().max(128).optional(),
  fileName: z.string().min(1).max(255),
  contentType: z.string().max(255).default(''),
});

/** The name as metadata: no path, no control characters, at most 200 characters. */
const cleanName = (name: string) =>
  name
    .split(/[\\/]/)
    .pop()!
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f\u202a-\u202e\u2066-\u2069]/g, '')
    .trim()
    .slice(-200) || 'file';

/** RFC 6266: an ASCII fallback and the UTF-8 name, percent-encoded. */
function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

const ownerFilter = (owner: Owner) =>
  owner.user ? { column: 'user_id' as const, value: owner.user.id } : { column: 'device_id' as const, value: owner.deviceId };
const holderOf = (owner: Owner): Holder =>
  owner.user ? { userId: owner.user.id, deviceId: null, address: null } : { userId: null, deviceId: owner.deviceId, address: owner.address ?? null };

/** The upload routes; the browser's upload is typed from them (UploadRoutes). */
export function uploadRoutes(deps: UploadDeps) {
  const { db } = deps;
  const origin = (url: string) => deps.publicUrl || new URL(url).origin;
  const quotas: UploadQuotas = { ownerBytes: deps.quotaBytes, ...deps.visitorQuotas };

  return new Hono<AppEnv>()
  // The spec makes this a GET, so the origin check does not cover it: refuse another site's
  // request, which would spend the visitor's waiting URLs (and quota) from a link or an <img>.
  .get('/api/file/generate-presigned-url', deps.sameSiteOnly, validate('query', presignQuery), async (c) => {
    const query = c.req.valid('query');
    const name = cleanName(query.fileName);
    const ext = uploadExtension(name);
    if (!ext) return fail(c, 400, SERVER_MESSAGES.uploadInvalidType);
    if (!acceptsContentType(ext, query.contentType)) return fail(c, 400, SERVER_MESSAGES.uploadContentType(query.contentType));
    const owner = deps.owner(c);
    const mine = ownerFilter(owner);
    const address = owner.user ? null : (owner.address ?? null);
    const now = Date.now();
    // Presigned URLs that were never used end here (this browser's, and a visitor's address's),
    // so they stop counting against the quota; one whose bytes were being written when it
    // expired is left a while longer, for that write to end.
    const expired = (column: 'user_id' | 'device_id' | 'address', value: string | number) =>
      db
        .deleteFrom('uploads')
        .where(column, '=', value as never)
        .where('ready', '=', 0)
        .where('expires_at', '<', now)
        .where((eb) => eb.or([eb('size', '=', 0), eb('expires_at', '<', now - PRESIGN_TTL_MS)]))
        .execute();
    await expired(mine.column, mine.value);
    if (address) await expired('address', address);
    // Refused here when nothing is left; a file too big for what is left is refused at its PUT,
    // where its size is known. Waiting URLs are capped so that they cannot pile up.
    const waiting = async (column: 'user_id' | 'device_id' | 'address', value: string | number) =>
      Number(
        (await db.selectFrom('uploads').select((eb) => eb.fn.countAll<number | string>().as('rows')).where(column, '=', value as never).where('ready', '=', 0).executeTakeFirst())?.rows ?? 0,
      );
    const refusal = await quotaRefusal(db, holderOf(owner), quotas, 0);
    if (refusal) return fail(c, 403, refusal);
    if ((await waiting(mine.column, mine.value)) >= MAX_WAITING || (address && (await waiting('address', address)) >= MAX_WAITING_PER_ADDRESS)) {
      return fail(c, 403, SERVER_MESSAGES.uploadQuota(Math.round(deps.quotaBytes / 1024 / 1024)));
    }
    const expires = now + PRESIGN_TTL_MS;
    const putType = query.contentType.split(';')[0]!.trim().toLowerCase();
    const id = await insertUpload(db, owner, { name, contentType: UPLOAD_CONTENT_TYPES[ext], putType, data: null, expiresAt: expires });
    const base = origin(c.req.url);
    const signature = deps.sign('upload', id, putType, String(expires));
    const result: PresignedUpload = {
      url: `${base}${UPLOAD_PUT_PATH}?id=${id}&expires=${expires}&signature=${signature}`,
      object_url: objectUrl(base, id, name),
      content_type: putType,
    };
    return ok(c, result);
  })
  .put(UPLOAD_PUT_PATH, async (c) => {
    const id = c.req.query('id') ?? '';
    const expires = c.req.query('expires') ?? '';
    const signature = c.req.query('signature') ?? '';
    const putType = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    const now = Date.now();
    // One message for every way a URL can be wrong: it says nothing about which part was.
    const invalid = () => fail(c, 403, SERVER_MESSAGES.presignedInvalid);
    if (!/^\d{13}$/.test(expires) || Number(expires) < now) return invalid();
    if (!deps.verify(signature, 'upload', id, putType, expires)) return invalid();
    const row = await db.selectFrom('uploads').select(['id', 'name', 'ready', 'user_id', 'device_id', 'address']).where('id', '=', id).executeTakeFirst();
    if (!row || row.ready) return invalid();
    const data = new Uint8Array(await c.req.arrayBuffer());
    if (data.byteLength > UPLOAD_MAX_BYTES) {
      await db.deleteFrom('uploads').where('id', '=', id).execute();
      return fail(c, 413, SERVER_MESSAGES.uploadTooLarge);
    }
    const refuse = async (error: Message) => {
      await db.deleteFrom('uploads').where('id', '=', id).execute();
      return fail(c, 400, error);
    };
    if (data.byteLength === 0) return refuse(SERVER_MESSAGES.uploadEmpty);
    const ext = uploadExtension(row.name)!;
    const wrong = await mismatch(ext, data);
    if (wrong) return refuse(SERVER_MESSAGES.uploadMismatch(wrong));
    const huge = ext === 'png' || ext === 'jpg' || ext === 'jpeg' ? imageTooLarge(ext, data) : undefined;
    if (huge) return refuse(SERVER_MESSAGES.imageTooLarge(huge.width, huge.height, IMAGE_MAX_SIDE, IMAGE_MAX_MEGAPIXELS));
    // The size is claimed under the holder's locks (quota.ts), so uploads sent at once are
    // counted one after the other; taken once: a second PUT to the same URL finds it claimed.
    const holder: Holder = { userId: row.user_id, deviceId: row.device_id, address: row.address };
    const claimed = await withKeyLocks(db, quotaLockKeys(holder), async (trx) => {
      // Another PUT of this URL got here first: refused without touching its upload.
      const open = await trx.selectFrom('uploads').select('id').where('id', '=', id).where('ready', '=', 0).where('size', '=', 0).executeTakeFirst();
      if (!open) return false;
      const over = await quotaRefusal(trx, holder, quotas, data.byteLength);
      if (over) return over;
      await trx.updateTable('uploads').set({ size: data.byteLength }).where('id', '=', id).execute();
      return true;
    });
    if (claimed instanceof Message) return refuse(claimed);
    if (!claimed) return invalid();
    try {
      await db.transaction().execute(async (trx) => {
        await writeParts(trx, id, data);
        await trx.updateTable('uploads').set({ ready: 1 }).where('id', '=', id).execute();
      });
    } catch (err) {
      await db.deleteFrom('uploads').where('id', '=', id).execute();
      throw err;
    }
    return ok(c, undefined, 'Uploaded.');
  })
  .get('/api/file/:id/:name?', async (c) => {
    const id = c.req.param('id');
    const row = /^[0-9a-f-]{36}$/.test(id) ? await readUpload(db, id) : undefined;
    if (!row) return fail(c, 404, SERVER_MESSAGES.notFound);
    const image = isImageExtension(uploadExtension(row.name) ?? '');
    c.header('Content-Type', row.contentType);
    c.header('Content-Disposition', contentDisposition(image ? 'inline' : 'attachment', row.name));
    // Even opened on its own, an upload is a document with no script and no origin of ours.
    c.header('Content-Security-Policy', "default-src 'none'; img-src 'self'; sandbox");
    c.header('Cross-Origin-Resource-Policy', 'same-origin');
    // The bytes behind an id never change.
    c.header('Cache-Control', 'private, max-age=31536000, immutable');
    return c.body(row.data);
  });
}

export type UploadRoutes = ReturnType<typeof uploadRoutes>;
