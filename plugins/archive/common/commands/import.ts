// `:session import [<file>]`: the browser's picker (several files: a split ChatGPT export) or a
// path in the terminal; each file goes to POST /api/archive/import with a progress line, and
// the server's report comes back: each conversation imported, already there or refused (why),
// and a summary line. Nothing is said to have worked that did not.
import { error, text, translateMessage, withApiErrors, type CommandContext, type CommandHandler, type MessageData, type Output } from '../../../../src/core/index.ts';
import type { ImportReport } from '../api.ts';
import { MESSAGES } from '../messages.ts';
import { IMPORT_ACCEPT, type ArchiveFile, type ArchiveIo, type UploadProgress } from './io.ts';

/** A message of the report in the interface's language. */
const said = (c: CommandContext, data: MessageData) => translateMessage(data, (ns) => c.tFor(ns));

/** The report as the person reads it: a row per conversation, the stop if any, the summary. */
export function reportOutputs(c: CommandContext, name: string, report: ImportReport, summary: MessageData | string): Output[] {
  const rows = report.conversations.map((r) => [c.t(`status.${r.status}`), r.title || '—', r.reason ? said(c, r.reason) : [r.session ? String(r.session) : '', r.note ? said(c, r.note) : ''].filter(Boolean).join(' — ')]);
  const out: Output[] = [{ kind: 'table', title: name, columns: [c.t('table.status'), c.t('table.conversation'), c.t('table.note')], rows }];
  if (report.stopped) out.push(error(report.stopped));
  out.push(text(summary));
  return out;
}

export const importArchive =
  (io: ArchiveIo<any> | undefined): CommandHandler =>
  (c) =>
    withApiErrors(async () => {
      if (!io) return error(MESSAGES.noFile);
      const path = c.args.path?.trim();
      let files: ArchiveFile[];
      if (path && io.open) {
        try {
          files = [await io.open(path)];
        } catch (err) {
          return error(MESSAGES.cannotRead(path, (err as Error).message));
        }
      } else if (io.pick) {
        c.events.emit('output', [text(MESSAGES.pickFile)]);
        files = await io.pick(IMPORT_ACCEPT);
        if (!files.length) return error(MESSAGES.noSelection);
      } else return error(MESSAGES.noFile);
      const outputs: Output[] = [];
      for (const file of files) {
        // The file's bytes while it is sent; then the conversations as the server writes them.
        // A body still read after the answer came (or failed) says nothing more: its progress
        // shown then came after the report, repeating it.
        let settled = false;
        const progress: UploadProgress = {
          sent(bytes) {
            if (settled) return;
            const percent = file.size > 0 ? Math.min(100, Math.floor((bytes / file.size) * 100)) : 100;
            c.events.emit('output', [...outputs, text(MESSAGES.importing(file.name, percent))]);
          },
          written(conversations) {
            if (settled) return;
            c.events.emit('output', [...outputs, text(MESSAGES.importedSoFar(file.name, conversations))]);
          },
        };
        progress.sent(0);
        try {
          const answer = await io.upload(file, progress, c.signal).finally(() => (settled = true));
          outputs.push(...reportOutputs(c, file.name, answer.result!, answer.code ? { code: answer.code, params: answer.params ?? {}, text: answer.message ?? '' } : (answer.message ?? '')));
        } catch (err) {
          // One file refused (not an export, too large...): said, and the next file goes on.
          const refused = await withApiErrors(() => Promise.reject(err));
          outputs.push(text(file.name), refused as Output);
        }
      }
      return outputs;
    });
