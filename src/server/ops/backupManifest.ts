// What a backup of the embedded SQLite deployment holds (docs/backup.md): the database as one
// consistent copy, the other files of DATA_DIR (the generated secret key, models, plans, roles),
// and manifest.json with each file's size and SHA-256, the tables' row counts and the migrations
// applied, so that a backup can be checked before anything is overwritten with it.
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

export const MANIFEST = 'manifest.json';
export const FORMAT = 'shellchat-backup/1';
/** The database's name inside a backup; DATA_DIR's other files are under files/. */
export const DATABASE_FILE = 'shellchat.db';
export const FILES_DIR = 'files';

export interface ManifestFile {
  /** Relative to the backup's directory, with '/' separators. */
  path: string;
  bytes: number;
  sha256: string;
}

export interface Manifest {
  format: typeof FORMAT;
  createdAt: string;
  engine: 'sqlite';
  /** The migrations the database had applied (the server migrates a restored one on start). */
  migrations: string[];
  /** Each table's rows at the moment of the copy. */
  tables: Record<string, number>;
  files: ManifestFile[];
}

export async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

export async function describeFile(dir: string, relative: string): Promise<ManifestFile> {
  const full = path.join(dir, ...relative.split('/'));
  return { path: relative, bytes: statSync(full).size, sha256: await sha256Of(full) };
}

/** The backup's manifest, or why it cannot be read. */
export function readManifest(dir: string): Manifest {
  const file = path.join(dir, MANIFEST);
  if (!existsSync(file)) throw new Error(`${file} is missing: ${dir} is not a shellchat backup`);
  let manifest: Manifest;
  try {
    manifest = JSON.parse(readFileSync(file, 'utf8')) as Manifest;
  } catch (err) {
    throw new Error(`${file} is damaged: ${(err as Error).message}`);
  }
  if (manifest?.format !== FORMAT || !Array.isArray(manifest.files) || typeof manifest.tables !== 'object') {
    throw new Error(`${file} is not a ${FORMAT} manifest`);
  }
  for (const entry of manifest.files) {
    // A manifest naming a path outside the backup (or, on restore, outside DATA_DIR) is refused.
    if (typeof entry.path !== 'string' || entry.path.startsWith('/') || entry.path.split('/').includes('..') || entry.path.includes('\\')) {
      throw new Error(`${file} names a file outside the backup: ${String(entry.path)}`);
    }
  }
  if (!manifest.files.some((f) => f.path === DATABASE_FILE)) throw new Error(`${file} lists no ${DATABASE_FILE}`);
  return manifest;
}

/** Every file the manifest lists, present with its size and checksum; the list of what is wrong. */
export async function damagedFiles(dir: string, manifest: Manifest): Promise<string[]> {
  const wrong: string[] = [];
  for (const entry of manifest.files) {
    const full = path.join(dir, ...entry.path.split('/'));
    if (!existsSync(full)) {
      wrong.push(`${entry.path} is missing`);
      continue;
    }
    const actual = await describeFile(dir, entry.path);
    if (actual.bytes !== entry.bytes) wrong.push(`${entry.path} has ${actual.bytes} bytes, the manifest says ${entry.bytes}`);
    else if (actual.sha256 !== entry.sha256) wrong.push(`${entry.path} does not match its SHA-256 checksum`);
  }
  return wrong;
}
