// Handlers of `:session export` and `:session import`, on top of what the environment lends
// (commands/io.ts): the same code in the browser and the terminal.
import type { PluginContext } from '../../../src/core/index.ts';
import { exportSessions } from './commands/export.ts';
import { importArchive } from './commands/import.ts';
import type { ArchiveIo } from './commands/io.ts';

export * from './api.ts';
export * from './messages.ts';
export { exportOptions } from './commands/export.ts';
export { IMPORT_ACCEPT, type ArchiveFile, type ArchiveIo, type UploadProgress } from './commands/io.ts';
export { ProgressLines, PROGRESS_TYPE } from './progressLines.ts';

export function activateArchive(ctx: PluginContext, io: ArchiveIo<any> | undefined): void {
  ctx.handle('session.export', exportSessions(ctx, io));
  ctx.handle('session.import', importArchive(io));
}
