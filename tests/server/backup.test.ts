// `npm run backup` and `npm run restore` (issue 41 item 3) as an operator runs them, against a
// real server on SQLite: a backup taken while uploads keep arriving restores to a database
// SQLite finds whole, whose every file has the checksum its client sent; one taken at rest
// restores to exactly the live rows; a damaged backup is refused before anything changes.
import { spawn } from 'node:child_process';
import { createHash, randomBytes, randomInt } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support.ts';

const ROOT = path.join(import.meta.dirname, '../..');
const sha = (data: Uint8Array | string) => createHash('sha256').update(data).digest('hex');

/** Runs `npm run <script>` as the operator would (node, the script, env), to its end. */
function run(script: 'backup' | 'restore', args: string[], env: Record<string, string>): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'scripts', `${script}.ts`), ...args], { cwd: mkdtempSync(path.join(tmpdir(), 'shellchat-ops-cwd-')), env: { PATH: process.env.PATH, ROOT_PASSWORD: 'root-password-1', ...env } });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (code) => resolve({ code: code ?? -1, out, err }));
  });
}

/** Text of `bytes` letters (a .txt upload must be UTF-8), different each time. */
const text = (bytes: number) => randomBytes(bytes).map((b) => 97 + (b % 26));

/** Uploads one file as a browser does (presign, PUT); its id and the checksum of what was sent. */
async function upload(t: TestServer, client: ReturnType<TestServer['client']>, bytes: number): Promise<{ id: string; sha: string }> {
  const data = text(bytes);
  const query = new URLSearchParams({ fileId: `m${randomInt(1e9)}`, fileName: 'notes.txt', contentType: 'text/plain' });
  const signed = (await (await client.raw(`${t.url}/api/file/generate-presigned-url?${query}`)).json()) as { success: boolean; error?: string; result: { url: string; object_url: string } };
  expect(signed.success, signed.error).toBe(true);
  const put = await client.raw(signed.result.url, { method: 'PUT', headers: { 'content-type': 'text/plain', origin: t.url }, body: new Uint8Array(data) });
  expect(put.status).toBe(200);
  return { id: signed.result.object_url.split('/api/file/')[1]!.split('/')[0]!, sha: sha(data) };
}

/** Every row of every ordinary table, in a stable order, as text: two databases with the same rows compare equal. */
function rowsOf(file: string): Record<string, string> {
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    const tables = db.prepare(`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and sql not like 'CREATE VIRTUAL%' order by name`).pluck().all() as string[];
    return Object.fromEntries(tables.map((t) => [t, sha(JSON.stringify(db.prepare(`select * from "${t}" order by 1, 2`).raw().all(), (_k, v) => (Buffer.isBuffer(v) ? sha(v) : typeof v === 'bigint' ? String(v) : v)))]));
  } finally {
    db.close();
  }
}

/** Each ready upload's bytes in a database file, reassembled from its parts, by checksum. */
function uploadChecksums(file: string): Map<string, string> {
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    const ids = db.prepare('select id from uploads where ready = 1').pluck().all() as string[];
    return new Map(ids.map((id) => [id, sha(Buffer.concat(db.prepare('select data from upload_parts where upload_id = ? order by seq').pluck().all(id) as Buffer[]))]));
  } finally {
    db.close();
  }
}

describe('backup and restore of the embedded SQLite', () => {
  it('a backup taken under write load restores to whole rows and files with their checksums; one at rest to the same rows', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'shellchat-backup-live-'));
    writeFileSync(path.join(dataDir, 'models.json'), '[]\n');
    const t = await startTestServer('sqlite', { DATA_DIR: dataDir });
    const sent = new Map<string, string>();
    let requests = 0;
    let failed = 0;
    let writing = true;
    // Four browsers uploading 64-700 KB files (up to three 256 KB parts each) until told to stop.
    const writers = Array.from({ length: 4 }, async () => {
      const client = t.client();
      while (writing) {
        requests++;
        try {
          const { id, sha: sum } = await upload(t, client, randomInt(64_000, 700_000));
          sent.set(id, sum);
        } catch (err) {
          failed++;
          throw err;
        }
      }
    });
    const backups = mkdtempSync(path.join(tmpdir(), 'shellchat-backups-'));
    const underLoad = path.join(backups, 'under-load');
    try {
      while (sent.size < 8) await new Promise((r) => setTimeout(r, 20));
      const taken = await run('backup', [underLoad], { DATA_DIR: dataDir });
      expect(taken.err).toBe('');
      expect(taken.code).toBe(0);
      expect(taken.out).toMatch(/^Backed up \d+ rows in \d+ tables and 3 files/);
      const atBackup = sent.size;
      while (sent.size < atBackup + 4) await new Promise((r) => setTimeout(r, 20));
    } finally {
      writing = false;
      await Promise.all(writers);
    }
    console.log(`backup under load: ${requests} uploads made, ${failed} failed, ${sent.size} stored`);
    expect(failed).toBe(0);
    const manifest = JSON.parse(readFileSync(path.join(underLoad, 'manifest.json'), 'utf8')) as { tables: Record<string, number>; files: { path: string; sha256: string }[]; migrations: string[] };
    expect(manifest.files.map((f) => f.path).sort()).toEqual(['files/models.json', 'files/secret.key', 'shellchat.db']);
    expect(manifest.migrations).toContain('0001_accounts');
    // Some uploads landed after the copy: it is a snapshot, not the end state.
    expect(manifest.tables.uploads).toBeGreaterThan(0);
    expect(manifest.tables.uploads).toBeLessThan(sent.size);

    const restoredDir = mkdtempSync(path.join(tmpdir(), 'shellchat-backup-restored-'));
    const restored = await run('restore', [underLoad], { DATA_DIR: restoredDir });
    expect(restored.err).toBe('');
    expect(restored.code).toBe(0);
    const restoredDb = path.join(restoredDir, 'shellchat.db');
    // Every file the snapshot holds whole is the very bytes its browser sent.
    const files = uploadChecksums(restoredDb);
    expect(files.size).toBeGreaterThanOrEqual(8);
    for (const [id, sum] of files) expect(sum, id).toBe(sent.get(id));
    expect(readFileSync(path.join(restoredDir, 'secret.key'), 'utf8')).toBe(readFileSync(path.join(dataDir, 'secret.key'), 'utf8'));

    // The restored database starts (and migrates) and serves a restored file over HTTP.
    const [someId, someSum] = [...files][0]!;
    const back = await startTestServer('sqlite', { DATA_DIR: restoredDir });
    try {
      const served = await fetch(`${back.url}/api/file/${someId}/notes.txt`);
      expect(served.status).toBe(200);
      expect(sha(new Uint8Array(await served.arrayBuffer()))).toBe(someSum);
    } finally {
      await back.close();
    }

    // At rest (the load over, the server still up), a backup restores to exactly the live rows.
    const atRest = path.join(backups, 'at-rest');
    expect((await run('backup', [atRest], { DATA_DIR: dataDir })).code).toBe(0);
    const liveRows = rowsOf(path.join(dataDir, 'shellchat.db'));
    await t.close();
    const again = mkdtempSync(path.join(tmpdir(), 'shellchat-backup-again-'));
    expect((await run('restore', [atRest], { DATA_DIR: again })).code).toBe(0);
    expect(rowsOf(path.join(again, 'shellchat.db'))).toEqual(liveRows);
    expect(uploadChecksums(path.join(again, 'shellchat.db'))).toEqual(new Map([...sent].filter(([id]) => uploadChecksums(path.join(dataDir, 'shellchat.db')).has(id))));
  }, 120_000);

  it('refuses a damaged backup before anything changes, and an existing database without --force', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'shellchat-backup-src-'));
    const t = await startTestServer('sqlite', { DATA_DIR: dataDir });
    await upload(t, t.client(), 300_000);
    const out = path.join(mkdtempSync(path.join(tmpdir(), 'shellchat-backups-')), 'b');
    expect((await run('backup', [out], { DATA_DIR: dataDir })).code).toBe(0);
    await t.close();
    // A second backup into the same directory is refused (it would mix two).
    expect((await run('backup', [out], { DATA_DIR: dataDir })).err).toMatch(/already exists/);

    const target = mkdtempSync(path.join(tmpdir(), 'shellchat-backup-target-'));
    writeFileSync(path.join(target, 'shellchat.db'), 'the database in place');
    const refusedForce = await run('restore', [out], { DATA_DIR: target });
    expect(refusedForce.code).toBe(1);
    expect(refusedForce.err).toMatch(/already exists: stop the server, then run the restore again with --force/);
    expect((await run('restore', [out, '--check'], { DATA_DIR: target })).out).toMatch(/is whole: 2 files match their checksums/);

    // One byte changed inside the database copy.
    const copy = path.join(out, 'shellchat.db');
    const bytes = readFileSync(copy);
    const flipped = Buffer.from(bytes);
    flipped[Math.floor(bytes.length / 2)]! ^= 0xff;
    writeFileSync(copy, flipped);
    const damaged = await run('restore', [out, '--force'], { DATA_DIR: target });
    expect(damaged.code).toBe(1);
    expect(damaged.err).toMatch(/^restore refused: the backup in .* is damaged: shellchat.db does not match its SHA-256 checksum\n$/);
    expect(readFileSync(path.join(target, 'shellchat.db'), 'utf8')).toBe('the database in place');

    // A file gone, and a manifest that points outside the backup.
    writeFileSync(copy, bytes);
    const manifestFile = path.join(out, 'manifest.json');
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as { files: { path: string }[] };
    const secret = manifest.files.find((f) => f.path.startsWith('files/'))!;
    const secretBytes = readFileSync(path.join(out, secret.path));
    writeFileSync(path.join(out, secret.path), '');
    expect((await run('restore', [out, '--force'], { DATA_DIR: target })).err).toMatch(new RegExp(`files/secret.key has 0 bytes, the manifest says ${secretBytes.length}`));
    writeFileSync(path.join(out, secret.path), secretBytes);
    const original = readFileSync(manifestFile, 'utf8');
    writeFileSync(manifestFile, original.replace('"files/secret.key"', '"files/../../escape"'));
    expect((await run('restore', [out, '--force'], { DATA_DIR: target })).err).toMatch(/names a file outside the backup: files\/..\/..\/escape/);
    expect(existsSync(path.join(target, 'secret.key'))).toBe(false);

    // Whole again: restored over the old one with --force.
    writeFileSync(manifestFile, original);
    const done = await run('restore', [out, '--force'], { DATA_DIR: target });
    expect(done.err).toBe('');
    expect(uploadChecksums(path.join(target, 'shellchat.db')).size).toBe(1);
  }, 60_000);

  it('says to use the engine\'s own tools for PostgreSQL and MariaDB', async () => {
    const refused = await run('backup', [], { DATABASE_URL: 'postgres://shellchat@127.0.0.1:1/shellchat' });
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/back it up with pg_dump as docs\/backup.md says/);
  });
});
