// Scratch files for what is too big to hold in memory (an import's archive): each in a fresh
// folder of the system's temporary one, readable by the server's user only, deleted by its
// owner when done (and any left are deleted when the server closes).
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ScratchFile } from '../core/index.ts';

export function scratchFiles(): { create(): Promise<ScratchFile>; removeAll(): Promise<void> } {
  const open_ = new Set<ScratchFile>();
  return {
    async create() {
      const folder = await mkdtemp(path.join(tmpdir(), 'shellchat-scratch-'));
      const handle = await open(path.join(folder, 'data'), 'w+', 0o600);
      let size = 0;
      let removed = false;
      const file: ScratchFile = {
        get size() {
          return size;
        },
        async append(data) {
          await handle.write(data, 0, data.length, size);
          size += data.length;
        },
        async read(at, length) {
          const buffer = Buffer.alloc(Math.max(0, Math.min(length, size - at)));
          const { bytesRead } = await handle.read(buffer, 0, buffer.length, at);
          return buffer.subarray(0, bytesRead);
        },
        async remove() {
          if (removed) return;
          removed = true;
          open_.delete(file);
          await handle.close().catch(() => undefined);
          await rm(folder, { recursive: true, force: true });
        },
      };
      open_.add(file);
      return file;
    },
    async removeAll() {
      await Promise.all([...open_].map((f) => f.remove()));
    },
  };
}
