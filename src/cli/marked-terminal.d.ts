// marked-terminal ships no types; what markdownTools.ts uses of it (its code highlighting).
declare module 'marked-terminal' {
  /** The renderer itself: `code` highlights a block (cli-highlight) and ends it with a blank line. */
  export default class Renderer {
    constructor(options?: { tab?: number });
    code(code: string, lang: string): string;
  }
}
