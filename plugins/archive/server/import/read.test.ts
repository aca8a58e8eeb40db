// A picture bomb's bytes are inflated with turns of the event loop between their pieces: a
// server reading one answers others meanwhile. The file here answers at once (no disk), so
// that the only turns are the reader's own: a real file's reads give more.
import { Zip, type ZipInputFile } from 'fflate';
import { crc32, deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { ScratchFile } from '../../../../src/core/index.ts';
import { readArchive } from './read.ts';

const MB = 1024 * 1024;

/** A zip of one entry, `mb` MB of zeros named as a picture: about 16 KB. */
function pictureBomb(filename: string, mb: number): Buffer {
  const zeros = new Uint8Array(mb * MB);
  const out: Uint8Array[] = [];
  const zip = new Zip((err, data) => {
    if (err) throw err;
    out.push(data);
  });
  const file: ZipInputFile = { filename, size: zeros.length, crc: crc32(zeros), compression: 8 };
  zip.add(file);
  file.ondata!(null, deflateRawSync(zeros, { level: 9 }), true);
  zip.end();
  return Buffer.concat(out);
}

describe('an archive read from its file', () => {
  it("gives the event loop turns while a picture inflates, and stops past an upload's size", async () => {
    const zip = pictureBomb('file_bomb1-huge.png', 16);
    const file: ScratchFile = { size: zip.length, append: async () => {}, read: async (at, length) => zip.subarray(at, at + length), remove: async () => {} };
    const archive = readArchive({ file, size: zip.length, kind: 'zip' }, { maxBytes: 64 * MB, maxInflated: 64 * MB, deadline: Date.now() + 60_000, seconds: 60 });
    let turns = 0;
    let reading = true;
    const spin = () => {
      if (!reading) return;
      turns++;
      setImmediate(spin);
    };
    setImmediate(spin);
    const read = await archive.asset('file_bomb1');
    reading = false;
    expect(read).toEqual({ name: 'file_bomb1-huge.png', tooLarge: true });
    expect(turns).toBeGreaterThan(0);
  });
});
