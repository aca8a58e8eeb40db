// Inline math (`$x^2$`, `$$x$$` within a line) for the terminal's inline lexer, by the rule the
// page follows (src/core/mathDollars.ts, Pandoc's): "$x$" is math, "$5 and $10" is text. Shown
// as one line of Unicode text (mathText.ts); math it cannot read, or that would take several
// lines, stays as typed.
import type { TokenizerAndRendererExtension } from 'marked';
import { dollarRun, lineEnd, mathEnd, opensMath } from '../core/mathDollars.ts';

export function inlineMath(math: (tex: string) => string | undefined): TokenizerAndRendererExtension {
  // A dollar that finds no closer before its line's end means no later dollar on that line can:
  // kept so that a line of a thousand unclosed dollars is read once, not once per dollar.
  let failed = { src: '', end: 0 };
  return {
    name: 'inlineMath',
    level: 'inline',
    start: (src) => (src.includes('$') ? src.indexOf('$') : undefined),
    tokenizer(src) {
      if (src[0] !== '$') return undefined;
      const run = dollarRun(src, 0);
      const skipped = failed.src.length - src.length;
      const hopeless = run === 1 && skipped > 0 && skipped < failed.end && failed.src.endsWith(src);
      const end = hopeless ? -1 : mathEnd(src, 0);
      if (end === -1 && run === 1 && !hopeless && opensMath(src, 0)) failed = { src, end: lineEnd(src, 0) };
      // A run that opens no math is text as a whole (its `$$` cannot close later), and so is
      // math that cannot be read: no dollar in it opens other math.
      if (end === -1) return { type: 'text', raw: src.slice(0, run), text: src.slice(0, run) };
      const raw = src.slice(0, end);
      let tex = raw.slice(run, -run);
      // As in a code span, one space each side is padding when both are there.
      if (/^ .*[^ ].* $/s.test(tex)) tex = tex.slice(1, -1);
      const shown = math(tex);
      return shown && !shown.includes('\n') ? { type: 'inlineMath', raw, text: shown } : { type: 'text', raw, text: raw };
    },
  };
}
