// The terminal's side of TerminalRef (src/core/terminal.ts): the editor, the lines `:edit`
// queued (run after the command that queued them), leaving (set by the REPL), and local files.
import { createReadStream, createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import type { LocalFile, TerminalControl } from '../core/index.ts';
import { openEditor } from './editor.ts';

export interface CliControl extends TerminalControl {
  readonly pending: string[];
  onExit: () => void;
}

/** A path as a person types it: `~/x` in the home directory, relative ones from the working directory. */
const resolvePath = (typed: string) => path.resolve(typed === '~' || typed.startsWith('~/') ? path.join(homedir(), typed.slice(1)) : typed);

async function openFile(typed: string): Promise<LocalFile> {
  const file = resolvePath(typed);
  const info = await stat(file);
  if (!info.isFile()) throw new Error('not a file');
  return { name: path.basename(file), size: info.size, stream: Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array> };
}

async function saveFile(typed: string, body: ReadableStream<Uint8Array>): Promise<number> {
  let written = 0;
  const counted = body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        written += chunk.length;
        controller.enqueue(chunk);
      },
    }),
  );
  await counted.pipeTo(Writable.toWeb(createWriteStream(resolvePath(typed))));
  return written;
}

export function cliControl(env: NodeJS.ProcessEnv): CliControl {
  const control: CliControl = {
    pending: [],
    onExit: () => undefined,
    edit: async (text) => openEditor(text, env),
    queue: (line) => control.pending.push(line),
    exit: () => control.onExit(),
    openFile,
    saveFile,
  };
  return control;
}
