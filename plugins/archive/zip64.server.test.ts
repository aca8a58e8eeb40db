// ZIP64 zips (the records `zip -fz` and 7-Zip write when forced, and any zip over 4 GB or 65,535
// entries): one imports like any zip; a hostile one (sizes of 2^63, offsets past its end, an
// entry count its directory disagrees with) is refused as damaged, at once and without memory.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../tests/server/support.ts';
import type { ImportReport } from './common/api.ts';
import { MESSAGES } from './common/messages.ts';
import { branchy, chatgptZip, simple } from './fixtures/exports.ts';
import { zip64, type Zip64Lies } from './fixtures/zip64.ts';

const PW = 'zip64-password-1';
const HUGE = 2n ** 63n;

let t: TestServer;
let raw: typeof fetch;
beforeAll(async () => {
  t = await startTestServer('sqlite');
  await t.server.accounts.create({ username: 'zippy', email: 'zippy@example.org', password: PW });
  const client = t.client();
  await client.post('/api/user/login', { username: 'zippy', password: PW });
  raw = client.raw;
}, 60_000);
afterAll(async () => {
  await t?.close();
});

type Answer = { success: boolean; result?: ImportReport; error?: string; code?: string };
async function send(body: Uint8Array): Promise<{ status: number; body: Answer }> {
  const res = await raw(`${t.url}/api/archive/import?name=export.zip`, { method: 'POST', headers: { 'Content-Type': 'application/octet-stream' }, body: Buffer.from(body) });
  return { status: res.status, body: (await res.json()) as Answer };
}

describe('ZIP64 zips', () => {
  it('imports a zip written with the ZIP64 records and extra fields, its picture too', async () => {
    const zip = Buffer.from(zip64(chatgptZip([simple(64), branchy])));
    // Really ZIP64: the end record defers to the ZIP64 one, whose locator sits just before it.
    expect(zip.readUInt16LE(zip.length - 12)).toBe(0xffff);
    expect(zip.readUInt32LE(zip.length - 6)).toBe(0xffffffff);
    expect(zip.readUInt32LE(zip.length - 42)).toBe(0x07064b50);
    const { status, body } = await send(zip);
    expect(status).toBe(200);
    expect(body.result!.conversations.map((c) => [c.title, c.status, c.note])).toEqual([
      ['Plain 64', 'imported', undefined],
      ['Monads and pictures', 'imported', undefined],
    ]);
    const row = await t.server.db.db.selectFrom('logs').select('images').where('input', 'like', '%What is in this picture?%').executeTakeFirstOrThrow();
    expect(JSON.parse(row.images)).toEqual([expect.stringMatching(/\/api\/file\/[0-9a-f-]{36}\/file-Pic123-red\.png$/)]);
  });

  const hostile: [string, Zip64Lies, string][] = [
    ['an entry 2^63 bytes compressed', { compressed: HUGE }, 'user.json is out of bounds'],
    ['an entry whose offset is past the end', { offset: HUGE }, 'user.json is out of bounds'],
    ['a directory 2^63 bytes long', { directorySize: HUGE }, 'its directory is out of bounds'],
    ['a directory past the end', { directoryAt: HUGE }, 'its directory is out of bounds'],
    ['a ZIP64 end record past the end', { recordAt: HUGE }, 'a broken ZIP64 record'],
    ['a count of 2^63 entries', { count: HUGE }, 'its entry count disagrees with its directory'],
    ['one entry more than its directory holds', { count: 6n }, 'its entry count disagrees with its directory'],
    ['one entry fewer than its directory holds', { count: 4n }, 'its entry count disagrees with its directory'],
  ];
  for (const [name, lie, reason] of hostile) {
    it(`refuses ${name} as damaged, at once`, async () => {
      const zip = zip64(chatgptZip([simple(65)]), lie);
      const before = process.memoryUsage.rss();
      const started = performance.now();
      const { status, body } = await send(zip);
      expect({ status, body }).toEqual({ status: 400, body: expect.objectContaining({ success: false, error: MESSAGES.badZip(reason).text, code: MESSAGES.badZip(reason).code }) });
      // Bounded: nothing the size of what it claims is read or held (generous for a loaded machine).
      expect(performance.now() - started).toBeLessThan(5_000);
      expect((process.memoryUsage.rss() - before) / 2 ** 20).toBeLessThan(100);
    });
  }

  it("a hostile zip's conversations are not imported", async () => {
    await send(zip64(chatgptZip([simple(66)]), { count: 4n }));
    const found = await t.server.db.db.selectFrom('logs').select('input').where('input', 'like', '%Plain 66%').execute();
    expect(found).toEqual([]);
  });
});
