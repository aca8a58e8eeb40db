// The authorization matrix, uploads area: presigned URLs, the PUT they allow, and the object
// URL. An upload belongs to whoever asked for its URL (a user, or an anonymous browser); the
// PUT is authorized by its signed URL alone, whoever sends it, and never changes the owner;
// the object URL's random id is its capability (it reaches only the owner and those the owner
// shares a session with), so whoever holds it reads the file.
import { expect } from 'vitest';
import type { PresignedUpload } from '../../src/core/uploads.ts';
import { call, resultOf, t, type Cases, type Matrix, type World } from './authzSupport.ts';

// prettier-ignore
export const UPLOAD_MATRIX: Matrix = {
  //                                           scope      anonymous owner other member root
  'GET /api/file/generate-presigned-url':      ['self',   200,      200,  200,  200,   200],
  'PUT /api/file/upload':                      ['link',   200,      200,  200,  200,   200],
  'GET /api/file/:id/:name?':                  ['link',   200,      200,  200,  200,   200],
};

const uploadRow = (id: string) => t.server.db.db.selectFrom('uploads').select(['user_id', 'device_id', 'ready', 'size']).where('id', '=', id).executeTakeFirstOrThrow();
const idOf = (objectUrl: string) => /\/api\/file\/([0-9a-f-]{36})\//.exec(objectUrl)![1]!;

/** A presigned URL the owner asked for (the PUT's body in the matrix is `{}`, so a JSON file). */
async function ownerPresign(w: World): Promise<Record<string, string>> {
  const res = await call('GET', '/api/file/generate-presigned-url', w.owner.token, { query: { fileName: 'data.json', contentType: 'application/json' } });
  const signed = resultOf<PresignedUpload>(res);
  return { put: signed.url.slice(t.url.length), object: signed.object_url.slice(t.url.length), id: idOf(signed.object_url) };
}

export const UPLOAD_CASES: Cases = {
  'GET /api/file/generate-presigned-url': {
    query: () => ({ fileName: 'notes.txt', contentType: 'text/plain' }),
    effect: async ({ w, me, res }) => {
      const row = await uploadRow(idOf(resultOf<PresignedUpload>(res).object_url));
      // The caller's, never the owner's (unless the caller is the owner).
      if (me) expect(row).toMatchObject({ user_id: me.id, device_id: null, ready: 0 });
      else expect(row).toMatchObject({ user_id: null, ready: 0 });
      if (me?.id !== w.owner.id) expect(row.user_id).not.toBe(w.owner.id);
    },
  },
  'PUT /api/file/upload': {
    prepare: (w) => ownerPresign(w),
    path: (w) => w.prepared.put!,
    effect: async ({ w }) => {
      // Whoever sends the bytes, the file is the owner's, and the URL is spent.
      expect(await uploadRow(w.prepared.id!)).toMatchObject({ user_id: w.owner.id, ready: 1, size: 2 });
      expect((await call('PUT', w.prepared.put!, w.owner.token, { body: {} })).status).toBe(403);
    },
  },
  'GET /api/file/:id/:name?': {
    prepare: async (w) => {
      const signed = await ownerPresign(w);
      const put = await call('PUT', signed.put!, w.owner.token, { body: { a: 1 } });
      if (put.status !== 200) throw new Error(`setup: the owner's upload failed: ${put.text}`);
      return signed;
    },
    path: (w) => w.prepared.object!,
    effect: async ({ res }) => {
      expect(res.text).toBe('{"a":1}');
      expect(res.headers.get('content-disposition')).toMatch(/^attachment; /);
    },
  },
};
