// Inline math (`$x^2$`, `$$x$$` within a line) for the terminal's inline lexer, by the rules
// the page follows (remark-math, single dollars on): a run of dollars opens math that the next
// run of as many closes, as a code span's backticks do, so "$5 and $10" reads as the page
// reads it. Shown as one line of Unicode text (mathText.ts); math it cannot read, or that
// would take several lines, stays as typed.
import type { TokenizerAndRendererExtension } from 'marked';

const SPAN = /^(\$+)(?!\$)([\s\S]*?[^$])\1(?!\$)/;

export function inlineMath(math: (tex: string) => string | undefined): TokenizerAndRendererExtension {
  return {
    name: 'inlineMath',
    level: 'inline',
    start: (src) => (src.includes('$') ? src.indexOf('$') : undefined),
    tokenizer(src) {
      const m = SPAN.exec(src);
      // A run that opens no math is text as a whole (as the page reads it: its `$$` cannot
      // close later), and so is math that cannot be read: no dollar in it opens other math.
      const run = /^\$+/.exec(src)?.[0];
      if (!m) return run ? { type: 'text', raw: run, text: run } : undefined;
      // As in a code span, one space each side is padding when both are there.
      let tex = m[2]!;
      if (/^ .*[^ ].* $/s.test(tex)) tex = tex.slice(1, -1);
      const shown = math(tex);
      return shown && !shown.includes('\n') ? { type: 'inlineMath', raw: m[0], text: shown } : { type: 'text', raw: m[0], text: m[0] };
    },
  };
}
