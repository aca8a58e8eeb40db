// The markdown renderer for model answers and logs. Load it lazily (`import()` / React.lazy):
// it brings unified, KaTeX (and its CSS) and Prism, which stay out of the first paint.
export { MAX_BLOCK_CHARS, MAX_MARKDOWN_CHARS, Markdown, StreamingMarkdown, clearMarkdownCache, type StreamingMarkdownProps } from './StreamingMarkdown.tsx';
export { BlockSplitter, GROUP_SIZE, splitBlocks, type OpenKind, type Split } from './blocks.ts';
export {
  IMAGE_PROTOCOLS,
  KATEX_OPTIONS,
  LINK_PROTOCOLS,
  MAX_HIGHLIGHT_LINES,
  hastToReact,
  markdownToHast,
  renderMarkdown,
} from './pipeline.ts';
