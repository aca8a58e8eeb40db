// The PostgreSQL and MariaDB backup commands docs/backup.md gives (issue 41 item 3), run as
// written against a database the real server filled (accounts, a session's log, an upload's
// parts): the dump restored into an empty database holds every row of every table, the same.
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { connectDatabase } from '../../src/server/db/connect.ts';
import { engines, freshDatabase, startTestServer } from './support.ts';

const sha = (data: Uint8Array | string) => createHash('sha256').update(data).digest('hex');

/** Runs a command as a shell line would, failing the test with its stderr when it fails. */
function sh(command: string, args: string[], options: { input?: Buffer; env?: Record<string, string> } = {}): Buffer {
  const result = spawnSync(command, args, { input: options.input, env: { ...process.env, ...options.env }, maxBuffer: 256 * 1024 * 1024 });
  if (result.error) throw new Error(`${command}: ${result.error.message} (docs/backup.md needs it installed)`);
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${result.status}: ${String(result.stderr)}`);
  return result.stdout;
}

/** Every table's rows in a stable order, blobs by checksum. */
async function everyRow(url: string): Promise<Record<string, string>> {
  const db = await connectDatabase(url, '');
  try {
    const k = db.db as Kysely<any>;
    const tables = db.engine === 'postgres'
      ? (await sql<{ t: string }>`select table_name as t from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`.execute(k)).rows
      : (await sql<{ t: string }>`select table_name as t from information_schema.tables where table_schema = database() and table_type = 'BASE TABLE'`.execute(k)).rows;
    const out: Record<string, string> = {};
    for (const { t } of tables.sort((a, b) => a.t.localeCompare(b.t))) {
      const rows = (await sql`select * from ${sql.table(t)}`.execute(k)).rows as Record<string, unknown>[];
      const text = rows.map((r) => JSON.stringify(r, (_k, v) => (v instanceof Uint8Array || (v && (v as { type?: string }).type === 'Buffer') ? sha(Buffer.from(v as Uint8Array)) : typeof v === 'bigint' ? String(v) : v))).sort();
      out[t] = `${rows.length}:${sha(text.join('\n'))}`;
    }
    return out;
  } finally {
    await db.close();
  }
}

/** The mariadb client's connection options from a URL (the tools take no URL). */
function mariadbArgs(url: string): { args: string[]; database: string; env: Record<string, string> } {
  const u = new URL(url);
  return { args: ['-h', u.hostname, '-P', u.port || '3306', '-u', decodeURIComponent(u.username)], database: u.pathname.slice(1), env: { MYSQL_PWD: decodeURIComponent(u.password) } };
}

const others = (await engines()).filter((e) => e !== 'sqlite');

describe.skipIf(others.length === 0).each(others)('the documented backup commands on %s', (engine) => {
  it('restore a dump of a database in use into an empty one with every row', async () => {
    const source = await freshDatabase(engine);
    const target = await freshDatabase(engine);
    const dir = mkdtempSync(path.join(tmpdir(), 'shellchat-dump-'));
    try {
      const t = await startTestServer(engine, { DATABASE_URL: source.url });
      const client = t.client();
      await client.post('/api/user/add', { username: 'alice', email: 'alice@example.org', password: 'correct-horse-1' });
      await client.post('/api/user/login', { username: 'alice', password: 'correct-horse-1' });
      const query = new URLSearchParams({ fileId: 'm1', fileName: 'notes.txt', contentType: 'text/plain' });
      const signed = (await (await client.raw(`${t.url}/api/file/generate-presigned-url?${query}`)).json()) as { result: { url: string } };
      const data = randomBytes(600_000).map((b) => 97 + (b % 26));
      expect((await client.raw(signed.result.url, { method: 'PUT', headers: { 'content-type': 'text/plain', origin: t.url }, body: new Uint8Array(data) })).status).toBe(200);
      const before = await everyRow(source.url);
      await t.close().catch(() => undefined);
      expect(Number(before.upload_parts!.split(':')[0])).toBe(3);
      expect(Number(before.users!.split(':')[0])).toBeGreaterThanOrEqual(1);

      const dump = path.join(dir, engine === 'postgres' ? 'shellchat.dump' : 'shellchat.sql');
      if (engine === 'postgres') {
        // docs/backup.md: pg_dump --format=custom, checked with pg_restore --list, restored with pg_restore.
        sh('pg_dump', ['--format=custom', '--no-owner', `--file=${dump}`, source.url]);
        expect(String(sh('pg_restore', ['--list', dump]))).toMatch(/TABLE DATA public upload_parts/);
        sh('pg_restore', ['--no-owner', '--exit-on-error', '--single-transaction', `--dbname=${target.url}`, dump]);
      } else {
        // docs/backup.md: mariadb-dump --single-transaction --hex-blob, restored with the mariadb client.
        const from = mariadbArgs(source.url);
        writeFileSync(dump, sh('mariadb-dump', [...from.args, '--single-transaction', '--routines', '--triggers', '--hex-blob', '--default-character-set=utf8mb4', from.database], { env: from.env }));
        expect(readFileSync(dump, 'utf8')).toMatch(/-- Dump completed/);
        const to = mariadbArgs(target.url);
        sh('mariadb', [...to.args, '--default-character-set=utf8mb4', to.database], { input: readFileSync(dump), env: to.env });
      }
      expect(await everyRow(target.url)).toEqual(before);
      // The server starts on the restored database (its migrations are all applied already).
      const back = await startTestServer(engine, { DATABASE_URL: target.url });
      await back.close().catch(() => undefined);
    } finally {
      await source.drop();
      await target.drop();
    }
  }, 120_000);
});
