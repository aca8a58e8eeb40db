// Keys typed while an answer streams (or a command runs). The answer is drawn in place at the
// cursor (markdown.ts redraws the line being written), so readline draws nothing meanwhile: its
// echo, cursor moves and redraws of the line would land inside the answer. It still reads the
// keys (Ctrl+C stops the answer) and keeps the line, which shows at the next prompt.
import type readline from 'node:readline';

/** What readline keeps on the interface itself (plain properties in Node's implementation). */
interface ReadlineState {
  output: NodeJS.WritableStream | undefined;
  line: string;
  cursor: number;
}

export interface TypeAhead {
  /** Busy: readline writes nothing (without an output, its echo, cursor moves and redraws are skipped). */
  busy(on: boolean): void;
  /** The line the next prompt shows, the cursor at its end. */
  fill(line: string): void;
}

export function typeAhead(rl: readline.Interface): TypeAhead {
  const state = rl as unknown as ReadlineState;
  const output = state.output;
  return {
    busy(on) {
      state.output = on ? undefined : output;
    },
    fill(line) {
      state.line = line;
      state.cursor = line.length;
    },
  };
}
