// A zip read from a file by its central directory (where every entry's sizes and offset are,
// whatever its local header says): entries written with data descriptors (general purpose bit
// 3: sizes only after the data, as streaming zip writers do) read like any other, and bytes
// inside compressed data that look like a zip signature mislead nothing. An entry's bytes are
// read from the file a slice at a time and inflated 4 KB of input at a time (a bomb's step
// stays a few MB); the caller counts what comes out. ZIP64 (over 4 GB, over 65,535 entries) is read.
import type { ScratchFile } from '../../../../src/core/index.ts';
import { Inflate } from 'fflate';
import { ZIP_MAX_ENTRIES } from '../../common/limits.ts';
import { MESSAGES } from '../../common/messages.ts';
import { ArchiveRefused } from './refusal.ts';

export interface ZipEntry {
  name: string;
  method: number;
  flags: number;
  compressed: number;
  size: number;
  /** Where its local header starts. */
  offset: number;
}

/** The central directory's bytes at most: 100,000 entries with long names fit. */
const DIRECTORY_MAX = 64 * 1024 * 1024;
/** Input read from the file at a time, and given to the inflater at a time. */
const READ = 64 * 1024;
const PIECE = 4 * 1024;
const EOCD = 0x06054b50;
const EOCD64_LOCATOR = 0x07064b50;
const EOCD64 = 0x06064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

const damaged = (reason: string) => new ArchiveRefused(MESSAGES.badZip(reason));
const disagrees = () => damaged('its entry count disagrees with its directory');

async function readAt(file: ScratchFile, at: number, length: number): Promise<Buffer> {
  const bytes = await file.read(at, length);
  if (bytes.length !== length) throw damaged('it ends too early');
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
}

/** The entries of the zip in `file` (`size` bytes), in the directory's order. */
export async function zipEntries(file: ScratchFile, size: number): Promise<ZipEntry[]> {
  // The end record: 22 bytes and a comment of at most 65,535, at the very end.
  const tailLength = Math.min(size, 22 + 65_535);
  const tail = await readAt(file, size - tailLength, tailLength);
  let end = -1;
  for (let i = tail.length - 22; i >= 0; i--) {
    if (tail.readUInt32LE(i) === EOCD) {
      end = i;
      break;
    }
  }
  if (end < 0) throw damaged('no central directory');
  let count = tail.readUInt16LE(end + 10);
  let directorySize = tail.readUInt32LE(end + 12);
  let directoryAt = tail.readUInt32LE(end + 16);
  const locatorAt = end - 20;
  if ((count === 0xffff || directorySize === 0xffffffff || directoryAt === 0xffffffff) && locatorAt >= 0 && tail.readUInt32LE(locatorAt) === EOCD64_LOCATOR) {
    // The record lies before its locator: any other offset (2^63, past the end) is a lie, read nowhere.
    const recordAt = tail.readBigUInt64LE(locatorAt + 8);
    if (recordAt + 56n > BigInt(size - tailLength + locatorAt)) throw damaged('a broken ZIP64 record');
    const record = await readAt(file, Number(recordAt), 56);
    if (record.readUInt32LE(0) !== EOCD64) throw damaged('a broken ZIP64 record');
    count = Number(record.readBigUInt64LE(32));
    directorySize = Number(record.readBigUInt64LE(40));
    directoryAt = Number(record.readBigUInt64LE(48));
  }
  // Every entry takes 46 bytes at least: a count its directory cannot hold is damage, not a big zip.
  if (count * 46 > directorySize) throw disagrees();
  if (count > ZIP_MAX_ENTRIES) throw new ArchiveRefused(MESSAGES.tooManyEntries, 413);
  if (directorySize > DIRECTORY_MAX || directoryAt + directorySize > size) throw damaged('its directory is out of bounds');
  const directory = await readAt(file, directoryAt, directorySize);
  const entries: ZipEntry[] = [];
  const decoder = new TextDecoder();
  let at = 0;
  for (let n = 0; n < count; n++) {
    if (at + 46 > directory.length) throw disagrees();
    if (directory.readUInt32LE(at) !== CENTRAL) throw damaged('a broken directory entry');
    const nameLength = directory.readUInt16LE(at + 28);
    const extraLength = directory.readUInt16LE(at + 30);
    const commentLength = directory.readUInt16LE(at + 32);
    const entry: ZipEntry = {
      flags: directory.readUInt16LE(at + 8),
      method: directory.readUInt16LE(at + 10),
      compressed: directory.readUInt32LE(at + 20),
      size: directory.readUInt32LE(at + 24),
      offset: directory.readUInt32LE(at + 42),
      name: decoder.decode(directory.subarray(at + 46, at + 46 + nameLength)),
    };
    // ZIP64's extra field holds, in this order, the values that did not fit.
    for (let x = at + 46 + nameLength, stop = x + extraLength; x + 4 <= stop && x + 4 <= directory.length; ) {
      const id = directory.readUInt16LE(x);
      const length = directory.readUInt16LE(x + 2);
      if (id === 0x0001) {
        let y = x + 4;
        const next = () => (y + 8 <= x + 4 + length ? Number(directory.readBigUInt64LE((y += 8) - 8)) : undefined);
        if (entry.size === 0xffffffff) entry.size = next() ?? entry.size;
        if (entry.compressed === 0xffffffff) entry.compressed = next() ?? entry.compressed;
        if (entry.offset === 0xffffffff) entry.offset = next() ?? entry.offset;
      }
      x += 4 + length;
    }
    if (entry.offset + 30 + entry.compressed > size) throw damaged(`${entry.name.slice(0, 100)} is out of bounds`);
    entries.push(entry);
    at += 46 + nameLength + extraLength + commentLength;
  }
  // Entries left over would be silently unread (conversations.json among them).
  if (at !== directory.length) throw disagrees();
  return entries;
}

/**
 * An entry's bytes as they inflate, a piece at a time; `inflated` is told every piece's length
 * before it is handed on (it throws to stop: a bomb is stopped at its budget).
 */
export async function* entryBytes(file: ScratchFile, entry: ZipEntry, inflated: (bytes: number) => void): AsyncGenerator<Uint8Array> {
  if (entry.flags & 1) throw damaged(`${entry.name.slice(0, 100)} is encrypted`);
  if (entry.method !== 0 && entry.method !== 8) throw damaged(`${entry.name.slice(0, 100)} uses compression method ${entry.method}`);
  const local = await readAt(file, entry.offset, 30);
  if (local.readUInt32LE(0) !== LOCAL) throw damaged(`${entry.name.slice(0, 100)} has no local header`);
  let at = entry.offset + 30 + local.readUInt16LE(26) + local.readUInt16LE(28);
  const stop = at + entry.compressed;
  const out: Uint8Array[] = [];
  let ended = false;
  const inflate = entry.method === 8 ? new Inflate((data, final) => {
    if (data.length) out.push(data);
    if (final) ended = true;
  }) : undefined;
  while (at < stop) {
    const chunk = await readAt(file, at, Math.min(READ, stop - at));
    at += chunk.length;
    if (!inflate) {
      inflated(chunk.length);
      yield chunk;
      continue;
    }
    for (let i = 0; i < chunk.length; i += PIECE) {
      try {
        inflate.push(chunk.subarray(i, i + PIECE), at >= stop && i + PIECE >= chunk.length);
      } catch (err) {
        throw damaged(`${entry.name.slice(0, 100)}: ${(err as Error).message}`);
      }
      for (const data of out.splice(0)) {
        inflated(data.length);
        yield data;
      }
    }
  }
  if (inflate && !ended) {
    // An empty deflated entry is still one final push.
    inflate.push(new Uint8Array(0), true);
    for (const data of out.splice(0)) {
      inflated(data.length);
      yield data;
    }
  }
}
