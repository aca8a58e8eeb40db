// `npm run backup` and `npm run restore` for the embedded SQLite deployment (docs/backup.md).
// The copy uses SQLite's online backup API while the server runs; a restore checks every
// checksum and the copy's integrity before it replaces anything, and refuses a damaged backup.
import { copyFileSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { damagedFiles, DATABASE_FILE, describeFile, FILES_DIR, FORMAT, MANIFEST, readManifest, type Manifest } from './backupManifest.ts';

/** The database file and the files beside it that SQLite keeps while it is open. */
const SIDE_FILES = ['-wal', '-shm', '-journal'];

export interface SqlitePlace {
  /** The database file (DATA_DIR/shellchat.db, or a sqlite: DATABASE_URL's path). */
  databaseFile: string;
  /** DATA_DIR: its other files go with the database. */
  dataDir: string;
}

/** DATA_DIR's files to keep, relative, '/'-separated: all but the database (and its side files) and `skip`. */
function dataFiles(dataDir: string, databaseFile: string, skip: string[]): string[] {
  const database = path.resolve(databaseFile);
  const excluded = new Set([database, ...SIDE_FILES.map((s) => database + s), ...skip.map((s) => path.resolve(s))]);
  const walk = (dir: string, prefix: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const full = path.join(dir, entry.name);
      if (excluded.has(full)) return [];
      const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
      if (entry.isDirectory()) return walk(full, relative);
      return entry.isFile() ? [relative] : [];
    });
  return existsSync(dataDir) ? walk(path.resolve(dataDir), '') : [];
}

/** Each ordinary table's rows (virtual tables are read through their own tables). */
function tableCounts(db: SQLite.Database): Record<string, number> {
  const tables = db.prepare(`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and sql not like 'CREATE VIRTUAL%' order by name`).pluck().all() as string[];
  return Object.fromEntries(tables.map((t) => [t, Number(db.prepare(`select count(*) from "${t.replaceAll('"', '""')}"`).pluck().get())]));
}

function appliedMigrations(db: SQLite.Database): string[] {
  try {
    return db.prepare('select name from kysely_migration order by name').pluck().all() as string[];
  } catch {
    return [];
  }
}

/** What is wrong inside a database file: SQLite's own integrity check, '' when nothing. */
function integrityProblem(file: string): string {
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    const result = db.pragma('integrity_check', { simple: false }) as { integrity_check: string }[];
    const lines = result.map((r) => r.integrity_check);
    return lines.length === 1 && lines[0] === 'ok' ? '' : lines.slice(0, 3).join('; ');
  } catch (err) {
    return (err as Error).message;
  } finally {
    db.close();
  }
}

/**
 * Copies the database (one consistent snapshot, taken while the server keeps writing) and
 * DATA_DIR's other files into `out`, a directory that must not exist yet; writes the manifest.
 */
export async function takeBackup(place: SqlitePlace, out: string): Promise<Manifest> {
  if (!existsSync(place.databaseFile)) throw new Error(`there is no database at ${path.resolve(place.databaseFile)}`);
  if (existsSync(out)) throw new Error(`${path.resolve(out)} already exists: name a new directory`);
  mkdirSync(out, { recursive: true });
  const copy = path.join(out, DATABASE_FILE);
  const source = new SQLite(place.databaseFile, { fileMustExist: true });
  try {
    source.pragma('busy_timeout = 5000');
    // All pages in one step: a step reads one snapshot, so writes in the meantime neither
    // restart the copy (which small steps would, under steady writes) nor tear it.
    await source.backup(copy, { progress: () => 0x7fffffff });
  } finally {
    source.close();
  }
  const db = new SQLite(copy, { fileMustExist: true });
  let tables: Record<string, number>;
  let migrations: string[];
  try {
    // A single file: the copy needs no -wal beside it to be read.
    db.pragma('journal_mode = DELETE');
    tables = tableCounts(db);
    migrations = appliedMigrations(db);
  } finally {
    db.close();
  }
  const problem = integrityProblem(copy);
  if (problem) throw new Error(`the copy of the database fails SQLite's integrity check: ${problem}`);
  const others = dataFiles(place.dataDir, place.databaseFile, [out]);
  for (const relative of others) {
    const target = path.join(out, FILES_DIR, ...relative.split('/'));
    mkdirSync(path.dirname(target), { recursive: true });
    copyFileSync(path.join(place.dataDir, ...relative.split('/')), target);
  }
  const files = [await describeFile(out, DATABASE_FILE)];
  for (const relative of others) files.push(await describeFile(out, `${FILES_DIR}/${relative}`));
  const manifest: Manifest = { format: FORMAT, createdAt: new Date().toISOString(), engine: 'sqlite', migrations, tables, files };
  writeFileSync(path.join(out, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

/** Checks a backup without changing anything: throws what is wrong, else returns its manifest. */
export async function verifyBackup(from: string): Promise<Manifest> {
  const manifest = readManifest(from);
  const wrong = await damagedFiles(from, manifest);
  if (wrong.length) throw new Error(`the backup in ${path.resolve(from)} is damaged: ${wrong.join('; ')}`);
  const copy = path.join(from, DATABASE_FILE);
  const problem = integrityProblem(copy);
  if (problem) throw new Error(`the backup's database fails SQLite's integrity check: ${problem}`);
  const db = new SQLite(copy, { readonly: true, fileMustExist: true });
  try {
    const counts = tableCounts(db);
    const differ = Object.keys({ ...counts, ...manifest.tables }).filter((t) => counts[t] !== manifest.tables[t]);
    if (differ.length) throw new Error(`the backup's database does not hold the rows its manifest lists (${differ.join(', ')})`);
  } finally {
    db.close();
  }
  return manifest;
}

/**
 * Puts a verified backup in place: the database (the old one and its side files go) and
 * DATA_DIR's files. The server must be stopped; an existing database is replaced only with `force`.
 */
export async function restoreBackup(from: string, place: SqlitePlace, force: boolean): Promise<Manifest> {
  const manifest = await verifyBackup(from);
  const database = path.resolve(place.databaseFile);
  if (existsSync(database) && !force) {
    throw new Error(`${database} already exists: stop the server, then run the restore again with --force to replace it`);
  }
  mkdirSync(path.dirname(database), { recursive: true });
  // Copied beside its place and checked, then renamed over it: a failure midway leaves the old one.
  const incoming = `${database}.restoring`;
  copyFileSync(path.join(from, DATABASE_FILE), incoming);
  const expected = manifest.files.find((f) => f.path === DATABASE_FILE)!;
  const copied = await describeFile(path.dirname(incoming), path.basename(incoming));
  if (copied.sha256 !== expected.sha256) {
    rmSync(incoming, { force: true });
    throw new Error(`the database was not copied whole to ${incoming} (checksum differs); nothing was replaced`);
  }
  for (const side of SIDE_FILES) rmSync(database + side, { force: true });
  renameSync(incoming, database);
  for (const entry of manifest.files) {
    if (!entry.path.startsWith(`${FILES_DIR}/`)) continue;
    const target = path.join(place.dataDir, ...entry.path.slice(FILES_DIR.length + 1).split('/'));
    mkdirSync(path.dirname(target), { recursive: true });
    copyFileSync(path.join(from, ...entry.path.split('/')), target);
  }
  return manifest;
}

/** The default place of a new backup: backups/shellchat-<UTC time> in the working directory. */
export function defaultBackupDir(now = new Date()): string {
  return path.resolve('backups', `shellchat-${now.toISOString().replace(/[:.]/g, '-')}`);
}

