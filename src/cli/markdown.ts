// A streamed answer rendered for a terminal (marked + marked-terminal: headings, lists, tables,
// highlighted code), block by block as each completes, so nothing printed is ever reprinted.
// A block is complete once the lexer sees another block after it: the last one may still grow
// (a paragraph gaining a line, a table gaining rows, a code fence not yet closed).
import type { Marked, Token } from 'marked';

export interface BlockStream {
  push(delta: string): void;
  /** The answer ended: what is left is printed. */
  end(): void;
}

const loaded = new Map<number, Promise<Marked>>();

/** marked with the terminal renderer, loaded on the first answer (it costs ~40 ms to import). */
export function terminalMarked(width: number): Promise<Marked> {
  let marked = loaded.get(width);
  if (!marked) {
    // Called once the client chose colour (a TTY, no NO_COLOR): the renderer's chalk is told
    // so, as it would guess otherwise from the process's own stdout (a pipe under a test).
    process.env.FORCE_COLOR ??= '1';
    marked = Promise.all([import('marked'), import('marked-terminal')]).then(
      // width: tables and rules fit the window; text is left to the terminal's own wrapping.
      ([{ Marked }, { markedTerminal }]) => new Marked(markedTerminal({ width, reflowText: false, tab: 2 })),
    );
    loaded.set(width, marked);
  }
  return marked;
}

const content = (token: Token) => token.type !== 'space';

export function blockStream(marked: Marked, write: (text: string) => void): BlockStream {
  let pending = '';
  // Blocks are a blank line apart, as marked-terminal prints a whole document; the last ends its line.
  const print = (source: string, last = false) => {
    const rendered = marked.parse(source, { async: false });
    if (rendered.trim()) write(rendered.replace(/\n*$/, last ? '\n' : '\n\n'));
  };
  return {
    push(delta) {
      // marked reads CR LF as LF; its tokens' raw lengths must add up to what is held.
      pending += delta;
      if (pending.includes('\r')) pending = pending.replace(/\r\n|\r(?!$)/g, '\n');
      // A block ends at a line end: lexing only then keeps the cost per line, not per token.
      // The line being typed is left out: "2" may yet become "2. item" and continue a list.
      if (!delta.includes('\n')) return;
      const tokens = marked.lexer(pending.slice(0, pending.lastIndexOf('\n') + 1));
      let last = tokens.length - 1;
      while (last >= 0 && !content(tokens[last]!)) last--;
      if (last <= 0) return;
      const done = tokens.slice(0, last).reduce((n, t) => n + t.raw.length, 0);
      print(pending.slice(0, done));
      pending = pending.slice(done);
    },
    end() {
      if (pending.trim()) print(pending, true);
      pending = '';
    },
  };
}
