// `:store data upload`: the attached +file[url]s, or else files from the browser's picker,
// checked here first (spec part 5) and sent with one progress line per file.
import { error, extractAttachments, saidIn, send, text, withApiErrors, type ApiAnswer, type CommandHandler, type Message, type Output } from '../../../../src/core/index.ts';
import { MAX_UPLOAD_BYTES, UPLOAD_EXTENSIONS } from '../limits.ts';
import { MESSAGES } from '../messages.ts';
import { extensionOf, type UploadResult } from '../rules.ts';
import type { StoreAccess } from './shared.ts';

/** A file the user picked (a browser File; only its name and size matter here). */
export interface PickedFile {
  name: string;
  size: number;
}

/**
 * What an environment with a file picker offers `:store data upload` without attachments (the
 * browser entry provides it; elsewhere the command needs +file[url] attachments).
 */
export interface StoreUploader<F extends PickedFile = PickedFile> {
  /** Opens a picker for several files of the given `accept` list; [] when cancelled. */
  pick(accept: string): Promise<F[]>;
  /** Sends the files as multipart to POST /api/store/file-upload, reporting bytes sent. */
  send(store: string, files: F[], onProgress: (loaded: number, total: number) => void, signal: AbortSignal): Promise<ApiAnswer<UploadResult>>;
}

/** The picker's accept list: the allowed extensions. */
export const UPLOAD_ACCEPT = UPLOAD_EXTENSIONS.map((e) => `.${e}`).join(',');

/** The client-side check of one picked file (spec part 5 messages); undefined when fine. */
export function checkUpload(file: PickedFile): Message | undefined {
  if (!(UPLOAD_EXTENSIONS as readonly string[]).includes(extensionOf(file.name))) return MESSAGES.invalidType;
  if (file.size > MAX_UPLOAD_BYTES) return MESSAGES.tooLarge;
  return undefined;
}

/** One progress line per file, from the bytes sent of the whole request. */
export function progressLines(files: readonly PickedFile[], loaded: number, total: number): string[] {
  const sum = files.reduce((n, f) => n + f.size, 0);
  const sent = total > 0 ? (loaded / total) * sum : 0;
  let offset = 0;
  return files.map((f) => {
    const part = f.size > 0 ? Math.min(1, Math.max(0, (sent - offset) / f.size)) : total > 0 && loaded >= total ? 1 : 0;
    offset += f.size;
    return `Uploading ${f.name}: ${Math.floor(part * 100)}%`;
  });
}

export const uploadToStore =
  ({ api, single }: StoreAccess, uploader: StoreUploader<any> | undefined): CommandHandler =>
  (c) =>
    withApiErrors(async () => {
      const one = single(c);
      if (typeof one !== 'string') return one;
      const extracted = extractAttachments(c.line);
      if ('error' in extracted) return error(MESSAGES.urlScheme);
      const urls = extracted.attachments.filter((a) => a.kind === 'file').map((a) => a.url);
      // What was stored, then each file that was not, with its reason (here or the server's).
      const shown = (answer: ApiAnswer<UploadResult>, refusedHere: { name: string; reason: string | Message }[] = []): Output[] => [
        text(saidIn(answer)),
        { kind: 'table', columns: [c.t('table.file'), c.t('table.chunks')], rows: (answer.result?.files ?? []).map((f) => [f.name, String(f.chunks)]) },
        ...[...refusedHere, ...(answer.result?.refused ?? [])].map((r) => error(MESSAGES.uploadFailed(r.name, r.reason))),
      ];
      if (urls.length) return shown(await send(api()['file-upload'].$post({ json: { name: one, urls } })));
      if (!uploader) return error(MESSAGES.noFiles);
      // No attachment: the browser's file picker, checked here first, then sent with progress.
      const picked = await uploader.pick(UPLOAD_ACCEPT);
      if (!picked.length) return error(MESSAGES.noSelection);
      // Files that fail the checks stay here, named with their reason; the others go.
      const refusedHere = picked.flatMap((f) => {
        const reason = checkUpload(f);
        return reason ? [{ name: f.name, reason }] : [];
      });
      const files = picked.filter((f) => !checkUpload(f));
      if (!files.length) return refusedHere.length === 1 ? error(refusedHere[0]!.reason) : refusedHere.map((r) => error(MESSAGES.uploadFailed(r.name, r.reason)));
      const show = (loaded: number, total: number) => c.events.emit('output', progressLines(files, loaded, total).map((line) => text(line)));
      show(0, 0);
      const answer = await uploader.send(one, files, show, c.signal);
      return shown(answer, refusedHere);
    });
