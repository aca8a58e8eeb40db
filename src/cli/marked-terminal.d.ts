// marked-terminal ships no types; what markdown.ts uses of it.
declare module 'marked-terminal' {
  import type { MarkedExtension } from 'marked';
  export function markedTerminal(options?: { width?: number; reflowText?: boolean; tab?: number }, highlightOptions?: object): MarkedExtension;
}
