// What the terminal client lends its own commands (the `cli` plugin: `:edit`, `:exit`): the
// editor and the end of the session. Only the CLI provides it.
import { createServiceRef } from './services.ts';

/** What the editor gave: the text saved, or how it failed (nothing is sent then). */
export type Edited =
  | { ok: true; text: string }
  /** `status` 127: the shell found no such editor; `signal`: it was killed; `error`: it could not start. */
  | { ok: false; editor: string; status?: number; signal?: string; error?: string };

export interface TerminalControl {
  /** Opens $VISUAL or $EDITOR on `text`; resolves with what was saved, or how the editor failed. */
  edit(text: string): Promise<Edited>;
  /** Runs `line` as the next input, as if typed (what `:edit` wrote). */
  queue(line: string): void;
  /** Leaves the interactive shell. */
  exit(): void;
}

export const TerminalRef = createServiceRef<TerminalControl>('shell.terminal');
