// What each environment lends the archive commands: the browser a file picker, an upload with
// progress and a download; the terminal a path read or written (TerminalRef's files).
import type { ApiAnswer } from '../../../../src/core/index.ts';
import type { ImportReport } from '../api.ts';

/** A file to import: a browser File or a local file, as a name, a size and its bytes. */
export interface ArchiveFile {
  name: string;
  size: number;
}

/** What an import tells while it runs: the file's bytes sent, then its conversations written so far. */
export interface UploadProgress {
  sent(bytes: number): void;
  written(conversations: number): void;
}

export interface ArchiveIo<F extends ArchiveFile = ArchiveFile> {
  /** The browser's picker (several files: a split ChatGPT export); [] when cancelled. Absent in the terminal. */
  pick?(accept: string): Promise<F[]>;
  /** A file a path names (the terminal). */
  open?(path: string): Promise<F>;
  /** Sends one file to POST /api/archive/import?progress=1, reporting the bytes sent, then the conversations written. */
  upload(file: F, progress: UploadProgress, signal: AbortSignal): Promise<ApiAnswer<ImportReport>>;
  /** The export's answer: a download in the browser, a file or the output in the terminal; the text when it is to be shown. */
  save(response: Response, suggested: string, path: string | undefined): Promise<{ shown?: string; file?: string }>;
}

export const IMPORT_ACCEPT = '.zip,.json,application/zip,application/json';
