// The shapes of the archive API (plugins/archive/server) as the client reads them.
import type { MessageData } from '../../../src/core/index.ts';

export type ImportStatus = 'imported' | 'skipped' | 'refused';

/** One conversation of the import's report. */
export interface ImportedRow {
  title: string;
  source: string;
  status: ImportStatus;
  /** Why it was refused (the English, with its code). */
  reason?: MessageData;
  /** The first session it is (imported) or was (skipped) in. */
  session?: number;
  sessions?: number;
  logs?: number;
  /** Imported, but with something left out (pictures over the upload quota): what, and why. */
  note?: MessageData;
}

export interface ImportReport {
  conversations: ImportedRow[];
  imported: number;
  skipped: number;
  refused: number;
  /** Conversations counted but not listed (past REPORT_ROWS_MAX rows). */
  unlisted?: number;
  /** Why the import stopped before the archive's end, when it did: what was written stays. */
  stopped?: MessageData;
}

export const EXPORT_FORMATS = ['json', 'md'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
