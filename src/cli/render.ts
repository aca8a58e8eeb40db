// Outputs as terminal text: the same plain rendering the tests read (outputToText), errors on
// stderr, and colour only on a TTY without NO_COLOR (https://no-color.org): then a log's
// markdown is rendered as an answer is.
import { outputToText, type Output } from '../core/host/index.ts';
import { terminalMarked } from './markdown.ts';

type ListOutput = Extract<Output, { kind: 'list' }>;

/** A list as `ls` lays out names: its title, then the items in columns across the width, row by row. */
export function listText(list: ListOutput, width: number): string {
  const items = list.items.map((i) => (i.active ? `*${i.text}` : i.text));
  const lines = list.title ? [list.title] : [];
  if (!items.length) return [...lines, ...(list.empty ? [list.empty] : [])].join('\n');
  const cell = Math.max(...items.map((i) => i.length)) + 2;
  const perRow = Math.max(1, Math.floor((width + 2) / cell));
  for (let i = 0; i < items.length; i += perRow) lines.push(items.slice(i, i + perRow).map((item) => item.padEnd(cell)).join('').trimEnd());
  return lines.join('\n');
}

export interface Terminal {
  out: NodeJS.WriteStream;
  err: NodeJS.WriteStream;
  env: NodeJS.ProcessEnv;
}

export const colours = (stream: NodeJS.WriteStream, env: NodeJS.ProcessEnv) => !!stream.isTTY && !env.NO_COLOR;

const paint = (on: boolean, code: number, text: string) => (on ? `\u001b[${code}m${text}\u001b[0m` : text);

/** Writes outputs; resolves whether one was an error. Browser-only effects are left out. */
export async function renderOutputs(outputs: readonly Output[], term: Terminal): Promise<boolean> {
  let failed = false;
  const coloured = colours(term.out, term.env);
  for (const output of outputs) {
    if (output.kind === 'effect') {
      // A line under the output ("No log found." when walking past the last log).
      if (output.effect.type === 'notice') term.out.write(`${paint(coloured, 2, output.effect.text)}\n`);
      continue;
    }
    if (output.kind === 'markdown' && coloured) {
      term.out.write(`${(await terminalMarked(term.out.columns || 80)).parse(output.text, { async: false }).replace(/\n*$/, '\n')}`);
      continue;
    }
    const text = output.kind === 'list' ? listText(output, term.out.columns || 80) : outputToText(output);
    if (output.kind === 'error') {
      failed = true;
      term.err.write(`${paint(colours(term.err, term.env), 31, text)}\n`);
    } else if (text) {
      term.out.write(`${text}\n`);
    }
  }
  return failed;
}
