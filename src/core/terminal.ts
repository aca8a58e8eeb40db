// What the terminal client lends commands: the editor and the end of the session (the `cli`
// plugin's `:edit`, `:exit`), and local files a command names (a path to read or write, where the
// browser has a picker and a download). Only the CLI provides it.
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
  /** A local file to read, streamed (a path as typed: `~/` is the home directory); rejects with why it cannot be read. */
  openFile(path: string): Promise<LocalFile>;
  /** Writes a stream to a local file (created or replaced); resolves with the bytes written. */
  saveFile(path: string, body: ReadableStream<Uint8Array>): Promise<number>;
}

export interface LocalFile {
  /** The file's own name, without its directory. */
  name: string;
  size: number;
  stream: ReadableStream<Uint8Array>;
}

export const TerminalRef = createServiceRef<TerminalControl>('shell.terminal');
