// What a store upload request carries (POST /api/store/file-upload): the store's name, and
// files, URLs (the +file[url] attachments) or inline texts (API clients, the CLI). Each is
// kept or refused on its own, so that a bad one among good ones is named with its reason and
// the good ones are stored (issue 27).
import type { Context, MiddlewareHandler } from 'hono';
import { z } from 'zod';
import { isJson, saidBy, type AppEnv, type Message } from '../../../src/core/index.ts';
import { MAX_UPLOAD_BYTES, UPLOAD_EXTENSIONS } from '../common/limits.ts';
import { MESSAGES } from '../common/messages.ts';
import { extensionOf } from '../common/rules.ts';

/** Files or URLs one upload request may name. */
export const UPLOAD_FORM_MAX = 10;
/** Values in the JSON form: a name, and ten URLs and ten texts of two fields each. */
const JSON_FORM_MAX_VALUES = 64;

const jsonForm = z.object({
  name: z.string().max(64),
  urls: z.array(z.string().max(2048)).max(UPLOAD_FORM_MAX).optional(),
  texts: z.array(z.object({ name: z.string().max(200), content: z.string().max(MAX_UPLOAD_BYTES) })).max(UPLOAD_FORM_MAX).optional(),
});

/** The JSON form, as API clients send it. */
export type UploadJsonForm = z.input<typeof jsonForm>;

/**
 * Gives the upload route its JSON input type for the typed client, and reads nothing: the body
 * is read by readUploadRequest alone (bounded before it is parsed, JSON or multipart).
 */
export const uploadFormInput: MiddlewareHandler<AppEnv, string, { in: { json: UploadJsonForm } }> = (_c, next) => next();

export interface UploadDoc {
  name: string;
  data: Uint8Array;
}
export interface Refusal {
  name: string;
  /** Why, as the server says it (a message of the store's or the server's when it is one). */
  reason: string | Message;
  status: 400 | 413;
}

/** The request as sent, before anything is fetched: undefined when it is not a valid form. */
export interface UploadRequest {
  store: string;
  urls: string[];
  texts: { name: string; content: string }[];
  files: File[];
}

export async function readUploadRequest(c: Context): Promise<UploadRequest | undefined> {
  if ((c.req.header('content-type') ?? '').includes('application/json')) {
    // The form holds a few dozen values at most; a body of millions of nested or tiny ones (up
    // to the route's 30 MB) would cost the server hundreds of MB to parse: refused unparsed.
    const raw = new Uint8Array(await c.req.arrayBuffer());
    if (!isJson(raw, { maxValues: JSON_FORM_MAX_VALUES })) return undefined;
    const body = jsonForm.safeParse(JSON.parse(new TextDecoder().decode(raw)));
    if (!body.success) return undefined;
    return { store: body.data.name, urls: body.data.urls ?? [], texts: body.data.texts ?? [], files: [] };
  }
  const form = await c.req.formData().catch(() => undefined);
  if (!form) return undefined;
  const urls = form.getAll('urls').map(String);
  const files = form.getAll('files').filter((f): f is File => typeof f !== 'string');
  // As many as the JSON form takes.
  if (urls.length > UPLOAD_FORM_MAX || files.length > UPLOAD_FORM_MAX) return undefined;
  return { store: String(form.get('name') ?? ''), urls, texts: [], files };
}

/** The documents of a request, each read (a URL through `fetchFile`) or refused with its reason. */
export async function collectDocs(request: UploadRequest, fetchFile: (url: string) => Promise<Uint8Array>): Promise<{ docs: UploadDoc[]; refused: Refusal[] }> {
  const docs: UploadDoc[] = [];
  const refused: Refusal[] = [];
  const refuse = (name: string, reason: string | Message, status: 400 | 413 = 400) => refused.push({ name, reason, status });
  const typeOk = (name: string) => (UPLOAD_EXTENSIONS as readonly string[]).includes(extensionOf(name));
  for (const t of request.texts) {
    const name = t.name.split(/[\\/]/).pop()!;
    const data = new TextEncoder().encode(t.content);
    if (!['txt', 'md', 'csv', 'json'].includes(extensionOf(t.name))) refuse(name, MESSAGES.invalidType);
    else if (data.byteLength > MAX_UPLOAD_BYTES) refuse(name, MESSAGES.tooLarge, 413);
    else docs.push({ name, data });
  }
  for (const f of request.files) {
    const name = f.name.split(/[\\/]/).pop()!.slice(0, 200);
    if (!typeOk(name)) refuse(name, MESSAGES.invalidType);
    else if (f.size > MAX_UPLOAD_BYTES) refuse(name, MESSAGES.tooLarge, 413);
    else docs.push({ name, data: new Uint8Array(await f.arrayBuffer()) });
  }
  for (const url of request.urls) {
    if (!/^https?:\/\//i.test(url)) {
      refuse(url, MESSAGES.urlScheme);
      continue;
    }
    const name = decodeURIComponent(new URL(url).pathname.split('/').pop() || 'file').slice(0, 200);
    if (!typeOk(name)) {
      refuse(name, MESSAGES.invalidType);
      continue;
    }
    try {
      const data = await fetchFile(url);
      if (data.byteLength > MAX_UPLOAD_BYTES) refuse(name, MESSAGES.tooLarge, 413);
      else docs.push({ name, data });
    } catch (err) {
      const said = saidBy(err);
      if (/exceed|too large|larger than|size/i.test(String(said))) refuse(name, MESSAGES.tooLarge, 413);
      else refuse(name, said);
    }
  }
  return { docs, refused };
}
