// What the terminal client lends its own commands (the `cli` plugin: `:edit`, `:exit`): the
// editor and the end of the session. Only the CLI provides it.
import { createServiceRef } from './services.ts';

export interface TerminalControl {
  /** Opens $VISUAL or $EDITOR on `text`; resolves with what was saved (undefined: left unchanged or empty). */
  edit(text: string): Promise<string | undefined>;
  /** Runs `line` as the next input, as if typed (what `:edit` wrote). */
  queue(line: string): void;
  /** Leaves the interactive shell. */
  exit(): void;
}

export const TerminalRef = createServiceRef<TerminalControl>('shell.terminal');
