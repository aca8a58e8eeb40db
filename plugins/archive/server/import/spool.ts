// The uploaded archive written to a scratch file as it arrives (never held in memory), within
// the bytes and time an import may take: the request is over once it is received, and the
// import reads the file at its own pace (a zip is read by its directory, at its end). The
// file is removed when the import ends.
import type { ScratchFile } from '../../../../src/core/index.ts';
import { MESSAGES } from '../../common/messages.ts';
import { ArchiveRefused } from './refusal.ts';

export interface Spooled {
  file: ScratchFile;
  size: number;
  /** From its first bytes: a zip's signature, else JSON. */
  kind: 'zip' | 'json';
}

const MB = 1024 * 1024;

/** The upload failed as it was read: the client went away (or its connection broke) midway. */
export class UploadCut extends Error {}

export async function spool(body: ReadableStream<Uint8Array>, file: ScratchFile, limits: { maxBytes: number; deadline: number; seconds: number }): Promise<Spooled> {
  const reader = body.getReader();
  try {
    for (;;) {
      // A sender that stalls is stopped at the deadline too, not only one that sends.
      let timer: ReturnType<typeof setTimeout> | undefined;
      const stalled = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new ArchiveRefused(MESSAGES.tooSlow(limits.seconds), 413)), Math.max(0, limits.deadline - Date.now()));
      });
      const read = reader.read().catch((err: unknown) => {
        throw new UploadCut((err as Error).message, { cause: err });
      });
      const { done, value } = await Promise.race([read, stalled]).finally(() => clearTimeout(timer));
      if (done) break;
      if (file.size + value.length > limits.maxBytes) throw new ArchiveRefused(MESSAGES.tooLarge(Math.round(limits.maxBytes / MB)), 413);
      await file.append(value);
    }
  } catch (err) {
    reader.cancel().catch(() => undefined);
    throw err;
  }
  if (!file.size) throw new ArchiveRefused(MESSAGES.notArchive);
  const first = await file.read(0, 2);
  return { file, size: file.size, kind: first[0] === 0x50 && first[1] === 0x4b ? 'zip' : 'json' };
}
