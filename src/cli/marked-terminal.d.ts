// marked-terminal ships no types; what markdown.ts and answer.ts use of it.
declare module 'marked-terminal' {
  import type { MarkedExtension } from 'marked';
  export function markedTerminal(options?: { width?: number; reflowText?: boolean; tab?: number }, highlightOptions?: object): MarkedExtension;
  /** The renderer itself: `code` highlights a block (cli-highlight) and ends it with a blank line. */
  export default class Renderer {
    constructor(options?: { tab?: number });
    code(code: string, lang: string): string;
  }
}
