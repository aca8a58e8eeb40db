// The import's streamed answer (POST /api/archive/import?progress=1): a JSON line per
// conversation as it is written ({"row": ...}), then the answer itself ({success, result,
// message...}). Read as the text arrives, by the browser and the terminal alike.
import type { ApiAnswer } from '../../../src/core/index.ts';
import type { ImportReport } from './api.ts';

export const PROGRESS_TYPE = 'application/x-ndjson';

export class ProgressLines {
  /** Conversations written so far. */
  rows = 0;
  /** The answer, once its line came. */
  answer: ApiAnswer<ImportReport> | undefined;
  private rest = '';
  /** The text that came since the last push; true when rows were counted. */
  push(text: string): boolean {
    const lines = (this.rest + text).split('\n');
    this.rest = lines.pop()!;
    const before = this.rows;
    for (const line of lines) {
      if (!line.trim()) continue;
      const value = JSON.parse(line) as { row?: unknown } & ApiAnswer<ImportReport>;
      if (value.row) this.rows++;
      else this.answer = value;
    }
    return this.rows !== before;
  }
}
