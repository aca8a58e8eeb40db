// An import that outlasts Node's request timeout completes (the archive is received first, then
// read from a scratch file: issue 39's 10,000 conversations hit the 300 s timeout under load),
// and with ?progress its rows reach the client while it runs, a line each, the answer last.
// The real server, served with a request timeout of half a second; the import is held up on
// purpose once its first rows came (the logs table locked for a while), so it outlasts that.
import { serve, type ServerType } from '@hono/node-server';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, startTestServer, type TestServer } from '../../tests/server/support.ts';
import type { ImportedRow, ImportReport } from './common/api.ts';
import { MESSAGES } from './common/messages.ts';
import { chatgptZip, simple } from './fixtures/exports.ts';

const PW = 'archive-password-1';
const REQUEST_TIMEOUT_MS = 500;
const CONVERSATIONS = 2000;
/** How long the logs table is held locked once the first rows came. */
const HOLD_MS = 4 * REQUEST_TIMEOUT_MS;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

for (const engine of await engines()) {
  describe(`a long import on ${engine}`, { timeout: 180_000 }, () => {
    let server: TestServer;
    let http: ServerType;
    let url = '';
    beforeAll(async () => {
      server = await startTestServer(engine);
      // Node checks its request timeout every connectionsCheckingInterval: often, here.
      url = await new Promise<string>((resolve) => {
        http = serve(
          { fetch: server.server.app.fetch, port: 0, hostname: '127.0.0.1', serverOptions: { requestTimeout: REQUEST_TIMEOUT_MS, headersTimeout: REQUEST_TIMEOUT_MS, connectionsCheckingInterval: 50 } },
          (info) => resolve(`http://127.0.0.1:${info.port}`),
        );
      });
    }, 60_000);
    afterAll(async () => {
      await new Promise<void>((resolve) => (http ? http.close(() => resolve()) : resolve()));
      await server?.close();
    });

    /** Writes to the logs wait while this holds them (SQLite: its one connection; the others: a table lock). */
    async function holdLogs(): Promise<void> {
      const db = server.server.db.db;
      if (engine === 'sqlite') return db.transaction().execute(() => sleep(HOLD_MS));
      if (engine === 'postgres') {
        return db.transaction().execute(async (trx) => {
          await sql`LOCK TABLE logs IN SHARE MODE`.execute(trx);
          await sleep(HOLD_MS);
        });
      }
      return db.connection().execute(async (conn) => {
        await sql`LOCK TABLES logs READ`.execute(conn);
        await sleep(HOLD_MS);
        await sql`UNLOCK TABLES`.execute(conn);
      });
    }

    it('completes past the request timeout, its rows streamed as they are written', async () => {
      const client = server.client();
      await server.server.accounts.create({ username: `long${engine.slice(0, 2)}`, email: `long${engine.slice(0, 2)}@example.org`, password: PW });
      await client.post('/api/user/login', { username: `long${engine.slice(0, 2)}`, password: PW });
      const zip = chatgptZip(Array.from({ length: CONVERSATIONS }, (_, i) => simple(i, 'words '.repeat(50))), 500);
      const started = Date.now();
      const res = await client.raw(`${url}/api/archive/import?name=long.zip&progress=1`, { method: 'POST', headers: { 'Content-Type': 'application/octet-stream' }, body: Buffer.from(zip) });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('application/x-ndjson');
      // Read as it comes: when each row line arrived, and the answer's. At the first rows, the
      // writes are held up well past the request timeout (the engine's own lock on the logs).
      const rows: { row: ImportedRow; at: number }[] = [];
      let last: { success: boolean; result: ImportReport; message: string } | undefined;
      let text = '';
      let held: Promise<unknown> | undefined;
      let rowsBeforeHold = 0;
      const decoder = new TextDecoder();
      for await (const chunk of res.body!) {
        text += decoder.decode(chunk, { stream: true });
        const lines = text.split('\n');
        text = lines.pop()!;
        for (const line of lines) {
          const value = JSON.parse(line) as { row?: ImportedRow };
          if (value.row) rows.push({ row: value.row, at: Date.now() });
          else last = value as typeof last;
        }
        if (rows.length && !held) {
          rowsBeforeHold = rows.length;
          held = holdLogs();
        }
      }
      await held;      const ended = Date.now();
      // It was held up before its end, ran well past the timeout, and still ended with its answer.
      expect(rowsBeforeHold).toBeLessThan(CONVERSATIONS);
      expect(ended - started).toBeGreaterThan(HOLD_MS);
      expect(last).toMatchObject({ success: true, message: MESSAGES.summary(CONVERSATIONS, 0, 0).text, result: { imported: CONVERSATIONS } });
      expect(rows).toHaveLength(CONVERSATIONS);
      expect(rows.every((r) => r.row.status === 'imported')).toBe(true);
      // The first rows were there long before the end: progress, not one answer at the end.
      expect(ended - rows[0]!.at).toBeGreaterThan(REQUEST_TIMEOUT_MS);
    });
  });
}
