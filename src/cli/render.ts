// Outputs as terminal text: the same plain rendering the tests read (outputToText), errors on
// stderr, and colour only on a TTY without NO_COLOR (https://no-color.org).
import { outputToText, type Output } from '../core/host/index.ts';

export interface Terminal {
  out: NodeJS.WriteStream;
  err: NodeJS.WriteStream;
  env: NodeJS.ProcessEnv;
}

export const colours = (stream: NodeJS.WriteStream, env: NodeJS.ProcessEnv) => !!stream.isTTY && !env.NO_COLOR;

const paint = (on: boolean, code: number, text: string) => (on ? `\u001b[${code}m${text}\u001b[0m` : text);

/** Writes outputs; returns whether one was an error. Browser-only effects are left out. */
export function renderOutputs(outputs: readonly Output[], term: Terminal): boolean {
  let failed = false;
  for (const output of outputs) {
    if (output.kind === 'effect') continue;
    const text = outputToText(output);
    if (output.kind === 'error') {
      failed = true;
      term.err.write(`${paint(colours(term.err, term.env), 31, text)}\n`);
    } else if (text) {
      term.out.write(`${text}\n`);
    }
  }
  return failed;
}
