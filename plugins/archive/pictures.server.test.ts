// A ChatGPT zip's pictures imported as the importer's uploads (the core's upload store, the
// upload quota), linked from the imported logs like attachments; zips written with data
// descriptors (bit 3) as streaming writers make them. The real server over HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_MESSAGES } from '../../src/core/serverMessages.ts';
import { engines, startTestServer, type TestServer } from '../../tests/server/support.ts';
import type { ImportReport } from './common/api.ts';
import { MESSAGES } from './common/messages.ts';
import { branchy, chatgptZip, json, noisyPng, pictured, RED_PNG, simple, streamedZip } from './fixtures/exports.ts';

const PW = 'archive-password-1';
const FILE_URL = /^http:\/\/127\.0\.0\.1:\d+\/api\/file\/[0-9a-f-]{36}\//;

for (const engine of await engines()) {
  describe(`an import's pictures on ${engine}`, { timeout: 30_000 }, () => {
    let server: TestServer;
    let seq = 0;
    beforeAll(async () => {
      // 1 MB each: two of the noisy pictures fit, a third does not.
      server = await startTestServer(engine, { UPLOAD_QUOTA_MB: '1' });
    }, 60_000);
    afterAll(async () => {
      await server?.close();
    });

    async function account() {
      const username = `pic${engine.slice(0, 2)}${++seq}`;
      const { user } = await server.server.accounts.create({ username, email: `${username}@example.org`, password: PW });
      const client = server.client();
      await client.post('/api/user/login', { username, password: PW });
      const importing = async (body: Uint8Array, name = 'export.zip') => {
        const res = await client.raw(`${server.url}/api/archive/import?name=${name}`, { method: 'POST', headers: { 'Content-Type': 'application/octet-stream' }, body: Buffer.from(body) });
        return { status: res.status, body: (await res.json()) as { result: ImportReport; message: string } };
      };
      return { id: user.id, raw: client.raw, importing };
    }
    const db = () => server.server.db.db;
    const uploadsOf = (userId: number) => db().selectFrom('uploads').select(['id', 'name', 'size', 'ready']).where('user_id', '=', userId).orderBy('created_at').execute();
    const imagesOf = async (userId: number, input: string) => {
      const row = await db().selectFrom('logs').select(['images', 'input']).where('user_id', '=', userId).where('input', 'like', `%${input}%`).executeTakeFirstOrThrow();
      return { images: JSON.parse(row.images) as string[], input: row.input };
    };

    it("stores a ChatGPT zip's picture as the importer's upload, linked from the log; again stores nothing", async () => {
      const ann = await account();
      const { body } = await ann.importing(chatgptZip([branchy, simple(1)]));
      expect(body.result).toMatchObject({ imported: 2, refused: 0 });
      expect(body.result.conversations.every((c) => c.note === undefined)).toBe(true);
      const [upload, ...more] = await uploadsOf(ann.id);
      expect(more).toEqual([]);
      expect(upload).toMatchObject({ name: 'file-Pic123-red.png', size: RED_PNG.length, ready: 1 });
      const log = await imagesOf(ann.id, 'What is in this picture?');
      expect(log.images).toHaveLength(1);
      expect(log.images[0]).toMatch(FILE_URL);
      expect(log.images[0]).toContain(upload!.id);
      // Served as an attachment is: the bytes the zip carried, as a PNG.
      const served = await ann.raw(log.images[0]!);
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe('image/png');
      expect(new Uint8Array(await served.arrayBuffer())).toEqual(RED_PNG);
      const again = await ann.importing(chatgptZip([branchy, simple(1)]));
      expect(again.body.result).toMatchObject({ imported: 0, skipped: 2 });
      expect(await uploadsOf(ann.id)).toHaveLength(1);
    });

    it('over the upload quota: the conversation is imported without its picture and its row says why', async () => {
      const ben = await account();
      const pictures = {
        'file_aaa1-one.png': noisyPng(400, 1),
        'file_bbb2-two.png': noisyPng(400, 2),
        'file_ccc3-three.png': noisyPng(400, 3),
        // A DALL-E picture: not a type an upload can be.
        'dalle-generations/file_ddd4-four.webp': new Uint8Array([0x52, 0x49, 0x46, 0x46, 4, 0, 0, 0, 0x57, 0x45, 0x42, 0x50]),
      };
      const { body } = await ben.importing(chatgptZip([pictured(1, 'file_aaa1'), pictured(2, 'file_bbb2'), pictured(3, 'file_ccc3'), pictured(4, 'file_ddd4')], 0, pictures));
      expect(body.result).toMatchObject({ imported: 4, refused: 0 });
      expect(body.result.conversations.map((c) => c.note?.text)).toEqual([
        undefined,
        undefined,
        MESSAGES.picturesLeftOut(1, SERVER_MESSAGES.uploadQuota(1).text).text,
        MESSAGES.picturesLeftOut(1, SERVER_MESSAGES.uploadInvalidType.text).text,
      ]);
      expect((await uploadsOf(ben.id)).map((u) => u.name)).toEqual(['file_aaa1-one.png', 'file_bbb2-two.png']);
      expect((await imagesOf(ben.id, 'What is picture 2?')).images[0]).toMatch(FILE_URL);
      // Left out: no link, the text still names it.
      expect(await imagesOf(ben.id, 'What is picture 3?')).toEqual({ images: [], input: '[image: file_ccc3]\n\nWhat is picture 3?' });
    });

    it('the same picture in several conversations (and a later import) is one upload, linked from each, counted once', async () => {
      const dan = await account();
      const same = noisyPng(400, 7);
      // Three names for the same bytes: counted thrice, the quota (1 MB) would refuse the third.
      const shared = { 'file_sam1-a.png': same, 'file_sam2-b.png': same, 'file_sam3-c.png': same, 'file_oth4-d.png': noisyPng(400, 8) };
      const zip = () => chatgptZip([pictured(1, 'file_sam1'), pictured(2, 'file_sam2'), pictured(3, 'file_sam3'), pictured(4, 'file_oth4')], 0, shared);
      const { body } = await dan.importing(zip());
      expect(body.result).toMatchObject({ imported: 4, refused: 0 });
      expect(body.result.conversations.map((c) => c.note)).toEqual([undefined, undefined, undefined, undefined]);
      // By name: two made in one millisecond have no order.
      const uploads = (await uploadsOf(dan.id)).sort((a, b) => b.name.localeCompare(a.name));
      expect(uploads.map((u) => [u.name, u.size])).toEqual([
        ['file_sam1-a.png', same.length],
        ['file_oth4-d.png', expect.any(Number)],
      ]);
      const links = await Promise.all([1, 2, 3, 4].map(async (n) => (await imagesOf(dan.id, `What is picture ${n}?`)).images));
      for (const n of [0, 1, 2]) expect(links[n]).toEqual([expect.stringContaining(`/api/file/${uploads[0]!.id}/`)]);
      expect(links[3]).toEqual([expect.stringContaining(`/api/file/${uploads[1]!.id}/`)]);
      const served = await dan.raw(links[2]![0]!);
      expect(new Uint8Array(await served.arrayBuffer())).toEqual(new Uint8Array(same));
      // Again: nothing new. A later export's new conversation with that picture links the same upload.
      expect((await dan.importing(zip())).body.result).toMatchObject({ imported: 0, skipped: 4 });
      const later = await dan.importing(chatgptZip([pictured(5, 'file_new5')], 0, { 'file_new5-e.png': same }));
      expect(later.body.result).toMatchObject({ imported: 1 });
      expect(later.body.result.conversations[0]!.note).toBeUndefined();
      expect((await imagesOf(dan.id, 'What is picture 5?')).images).toEqual([expect.stringContaining(`/api/file/${uploads[0]!.id}/`)]);
      expect((await uploadsOf(dan.id)).sort((a, b) => b.name.localeCompare(a.name))).toEqual(uploads);
    });

    it("a picture deleted since its import is stored anew; another person's same picture is theirs", async () => {
      const eve = await account();
      const fay = await account();
      const zip = (n: number) => chatgptZip([pictured(n, 'file_del1')], 0, { 'file_del1-x.png': noisyPng(100, 9) });
      await eve.importing(zip(6));
      const [first] = await uploadsOf(eve.id);
      await db().deleteFrom('uploads').where('id', '=', first!.id).execute();
      expect((await eve.importing(zip(7))).body.result).toMatchObject({ imported: 1 });
      const [again, ...more] = await uploadsOf(eve.id);
      expect(more).toEqual([]);
      expect(again!.id).not.toBe(first!.id);
      expect((await imagesOf(eve.id, 'What is picture 7?')).images).toEqual([expect.stringContaining(again!.id)]);
      await fay.importing(zip(8));
      const [hers] = await uploadsOf(fay.id);
      expect(hers!.id).not.toBe(again!.id);
      expect((await imagesOf(fay.id, 'What is picture 8?')).images).toEqual([expect.stringContaining(hers!.id)]);
    });

    it('imports a zip written with data descriptors (bit 3), a nested zip inside a stored entry misleading nothing', async () => {
      const cat = await account();
      // A stored entry holding another zip: its bytes carry local-header and descriptor signatures.
      const zip = streamedZip(
        { 'inner.zip': chatgptZip([simple(90)]), 'conversations.json': json([simple(2), branchy, simple(3)]), 'file-Pic123-red.png': RED_PNG, 'user.json': json({ id: 'user-abc' }) },
        ['inner.zip', 'file-Pic123-red.png'],
      );
      expect(Buffer.from(zip).readUInt16LE(6) & 8).toBe(8);
      const { status, body } = await cat.importing(zip);
      expect(status).toBe(200);
      expect(body.result.conversations.map((c) => [c.title, c.status])).toEqual([
        ['Plain 2', 'imported'],
        ['Monads and pictures', 'imported'],
        ['Plain 3', 'imported'],
      ]);
      expect((await imagesOf(cat.id, 'What is in this picture?')).images[0]).toMatch(FILE_URL);
    });
  });
}
