// Outputs as terminal text: the same plain rendering the tests read (outputToText), errors on
// stderr, and colour only on a TTY without NO_COLOR (https://no-color.org): then a log's
// markdown is drawn by the answers' own renderer (markdown.ts), so a log walked back to looks
// as its answer did, and tables fit the terminal's width (table.ts).
import { outputToText, type Effect, type Output, type Translate } from '../core/host/index.ts';
import { LiveMarkdown, type MarkdownTools } from './markdown.ts';
import { markdownTools } from './markdownTools.ts';
import { tableText } from './table.ts';

type ListOutput = Extract<Output, { kind: 'list' }>;

const paint = (on: boolean, code: number, text: string) => (on ? `\u001b[${code}m${text}\u001b[0m` : text);

/** An item's text, its marks in bold on a colour terminal. */
function itemText(item: ListOutput['items'][number], coloured: boolean): string {
  if (!coloured || !item.marks?.length) return item.text;
  let out = '';
  let at = 0;
  for (const [start, end] of item.marks) {
    if (start < at || end <= start) continue;
    out += item.text.slice(at, start) + paint(true, 1, item.text.slice(start, end));
    at = end;
  }
  return out + item.text.slice(at);
}

/**
 * A list as `ls` lays out names: its title, then the items in columns across the width, row by
 * row; items that run a command (search results) one a line, the command under each, to type.
 */
export function listText(list: ListOutput, width: number, coloured = false): string {
  const lines = list.title ? [list.title] : [];
  if (!list.items.length) return [...lines, ...(list.empty ? [list.empty] : [])].join('\n');
  if (list.items.some((i) => i.run)) {
    for (const item of list.items) lines.push(itemText(item, coloured), ...(item.run ? [`  ${paint(coloured, 2, item.run)}`] : []));
    return lines.join('\n');
  }
  const items = list.items.map((i) => (i.active ? `*${i.text}` : i.text));
  const cell = Math.max(...items.map((i) => i.length)) + 2;
  const perRow = Math.max(1, Math.floor((width + 2) / cell));
  for (let i = 0; i < items.length; i += perRow) lines.push(items.slice(i, i + perRow).map((item) => item.padEnd(cell)).join('').trimEnd());
  return lines.join('\n');
}

export interface Terminal {
  out: NodeJS.WriteStream;
  err: NodeJS.WriteStream;
  env: NodeJS.ProcessEnv;
  /** The server, and the translations, once the session is open: what effects are said with. */
  server?: string;
  tFor?: (ns: string) => Translate;
}

export const colours = (stream: NodeJS.WriteStream, env: NodeJS.ProcessEnv) => !!stream.isTTY && !env.NO_COLOR;

/** Whether markdown is drawn for the terminal (answers and logs alike): one that can redraw, in colour. */
export const rendersMarkdown = (term: Terminal) => colours(term.out, term.env) && term.env.TERM !== 'dumb';

let logTools: ((text: string) => Promise<MarkdownTools>) | undefined;

/** Markdown printed at once (a log), through the steps a streamed answer goes through: the same screen. */
async function printMarkdown(text: string, term: Terminal): Promise<void> {
  const tools = await (logTools ??= markdownTools())(text);
  let written = false;
  try {
    const live = new LiveMarkdown(tools, { columns: term.out.columns || 80, rows: term.out.rows || 24 }, (bytes) => {
      written = true;
      term.out.write(bytes);
    });
    live.push(text);
    live.end();
  } catch {
    // A fault in the renderer must not lose the log: its text as it is, on a line of its own.
    term.out.write(`${written ? '\n' : ''}${text.replace(/\n*$/, '\n')}`);
  }
}


/** Erases the screen and its scrollback, as `clear` does. */
const CLEAR_SCREEN = '\u001b[H\u001b[2J\u001b[3J';

/**
 * What a browser effect is in a terminal: `:clear` clears the screen (a TTY's only), `:stop`
 * says how an answer is stopped here, a page of
 * the browser's back view is named with the server's address, a link or a saved answer's
 * pictures are printed as URLs. Returns the text to print under the outputs, if any.
 */
function effectText(effect: Effect, term: Terminal): string | undefined {
  switch (effect.type) {
    case 'notice':
      return effect.text;
    case 'clear':
      if (term.out.isTTY) term.out.write(CLEAR_SCREEN);
      return undefined;
    case 'open':
      return effect.url;
    case 'view':
      if (effect.view !== 'back' || !effect.page || !term.tFor || !term.server) return undefined;
      return term.tFor('cli')('msg.pageInBrowser', { page: term.tFor('shell')(`nav.${effect.page}`), url: term.server });
    case 'result':
      return effect.previews.map((url) => (term.server ? new URL(url, term.server).href : url)).join('\n') || undefined;
    case 'attach':
      // The REPL puts it in the next prompt's line too (repl.ts), as the page does in its input.
      return effect.marker;
    case 'stop':
      // Typed at the prompt, nothing is running (typed while an answer streams, the REPL stops it).
      return term.tFor?.('cli')('msg.stopHere');
  }
}

/** Writes outputs; resolves whether one was an error. */
export async function renderOutputs(outputs: readonly Output[], term: Terminal): Promise<boolean> {
  let failed = false;
  const coloured = colours(term.out, term.env);
  for (const output of outputs) {
    if (output.kind === 'effect') {
      const said = effectText(output.effect, term);
      if (said) term.out.write(`${paint(coloured, 2, said)}\n`);
      continue;
    }
    if (output.kind === 'markdown' && rendersMarkdown(term)) {
      await printMarkdown(output.text, term);
      continue;
    }
    // Laid out for the width only on a terminal: a pipe gets each row on one line, for scripts.
    const width = term.out.isTTY ? term.out.columns : undefined;
    const text = output.kind === 'list' ? listText(output, width || 80, coloured) : output.kind === 'table' && width ? tableText(output, width) : outputToText(output);
    if (output.kind === 'error') {
      failed = true;
      term.err.write(`${paint(colours(term.err, term.env), 31, text)}\n`);
    } else if (text) {
      term.out.write(`${text}\n`);
    }
  }
  return failed;
}
