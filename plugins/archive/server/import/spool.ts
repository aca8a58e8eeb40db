// The uploaded archive written to a temporary file as it arrives (never held in memory), within
// the bytes and time an import may take: the request is over once it is received, and the
// import reads the file at its own pace (a zip is read by its directory, at its end). The file
// is the importer's alone (mode 0600, a fresh folder) and removed when the import ends.
import { mkdtemp, open, rm, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MESSAGES } from '../../common/messages.ts';
import { ArchiveRefused } from './refusal.ts';

export interface Spooled {
  file: FileHandle;
  size: number;
  /** From its first bytes: a zip's signature, else JSON. */
  kind: 'zip' | 'json';
  /** Closes and removes the file. */
  remove(): Promise<void>;
}

const MB = 1024 * 1024;

export async function spool(body: ReadableStream<Uint8Array>, limits: { maxBytes: number; deadline: number; seconds: number }): Promise<Spooled> {
  const folder = await mkdtemp(path.join(tmpdir(), 'shellchat-import-'));
  const remove = async () => {
    await file?.close().catch(() => undefined);
    await rm(folder, { recursive: true, force: true });
  };
  let file: FileHandle | undefined;
  const reader = body.getReader();
  try {
    file = await open(path.join(folder, 'archive'), 'w+', 0o600);
    let size = 0;
    let first: Uint8Array | undefined;
    for (;;) {
      // A sender that stalls is stopped at the deadline too, not only one that sends.
      let timer: ReturnType<typeof setTimeout> | undefined;
      const stalled = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new ArchiveRefused(MESSAGES.tooSlow(limits.seconds), 413)), Math.max(0, limits.deadline - Date.now()));
      });
      const { done, value } = await Promise.race([reader.read(), stalled]).finally(() => clearTimeout(timer));
      if (done) break;
      if (!value.length) continue;
      size += value.length;
      if (size > limits.maxBytes) throw new ArchiveRefused(MESSAGES.tooLarge(Math.round(limits.maxBytes / MB)), 413);
      first ??= value.slice(0, 2);
      await file.write(value);
    }
    if (!first) throw new ArchiveRefused(MESSAGES.notArchive);
    const kind = first[0] === 0x50 && first[1] === 0x4b ? 'zip' : 'json';
    return { file, size, kind, remove };
  } catch (err) {
    reader.cancel().catch(() => undefined);
    await remove();
    throw err;
  }
}
