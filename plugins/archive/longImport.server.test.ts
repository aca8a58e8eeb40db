// An import that outlasts Node's request timeout completes (the archive is received first, then
// read from a temporary file: issue 39's 10,000 conversations hit the 300 s timeout under load),
// and with ?progress its rows reach the client while it runs, a line each, the answer last.
// The real server, served with a request timeout of half a second.
import { serve, type ServerType } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, startTestServer, type TestServer } from '../../tests/server/support.ts';
import type { ImportedRow, ImportReport } from './common/api.ts';
import { MESSAGES } from './common/messages.ts';
import { chatgptZip, simple } from './fixtures/exports.ts';

const PW = 'archive-password-1';
const REQUEST_TIMEOUT_MS = 500;
const CONVERSATIONS = 2500;

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

    it('completes past the request timeout, its rows streamed as they are written', async () => {
      const client = server.client();
      await server.server.accounts.create({ username: `long${engine.slice(0, 2)}`, email: `long${engine.slice(0, 2)}@example.org`, password: PW });
      await client.post('/api/user/login', { username: `long${engine.slice(0, 2)}`, password: PW });
      const zip = chatgptZip(Array.from({ length: CONVERSATIONS }, (_, i) => simple(i, 'words '.repeat(50))), 500);
      const started = Date.now();
      const res = await client.raw(`${url}/api/archive/import?name=long.zip&progress=1`, { method: 'POST', headers: { 'Content-Type': 'application/octet-stream' }, body: Buffer.from(zip) });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('application/x-ndjson');
      // Read as it comes: when each row line arrived, and the answer's.
      const rows: { row: ImportedRow; at: number }[] = [];
      let last: { success: boolean; result: ImportReport; message: string } | undefined;
      let text = '';
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
      }
      const ended = Date.now();
      // It ran well past the timeout, and still ended with its answer.
      expect(ended - started).toBeGreaterThan(2 * REQUEST_TIMEOUT_MS);
      expect(last).toMatchObject({ success: true, message: MESSAGES.summary(CONVERSATIONS, 0, 0).text, result: { imported: CONVERSATIONS } });
      expect(rows).toHaveLength(CONVERSATIONS);
      expect(rows.every((r) => r.row.status === 'imported')).toBe(true);
      // The first rows were there long before the end: progress, not one answer at the end.
      expect(ended - rows[0]!.at).toBeGreaterThan(REQUEST_TIMEOUT_MS);
    });
  });
}
