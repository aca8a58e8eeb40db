// Text as a terminal lays it out: the columns a string takes (as wcwidth does, which tmux, xterm
// and VTE follow: East Asian wide and fullwidth characters and most emoji take two, combining
// marks none, a character joined by a zero-width joiner none), what a model's text may not send
// to the terminal (control characters, bidi overrides), and styled runs with their wrapping.

/** A piece of text in one style: `sgr` is the escape sequence that opens it ('' for plain). */
export interface Run {
  text: string;
  sgr: string;
}

export const RESET = '\u001b[0m';
export const sgr = (...codes: number[]) => `\u001b[${codes.join(';')}m`;

// East Asian Wide (W) and Fullwidth (F) code points, Unicode 14 plus the emoji of 15, as hex ranges.
const WIDE = (
  '1100-115f,231a-231b,2329-232a,23e9-23ec,23f0,23f3,25fd-25fe,2614-2615,2648-2653,267f,2693,26a1,26aa-26ab,' +
  '26bd-26be,26c4-26c5,26ce,26d4,26ea,26f2-26f3,26f5,26fa,26fd,2705,270a-270b,2728,274c,274e,2753-2755,2757,' +
  '2795-2797,27b0,27bf,2b1b-2b1c,2b50,2b55,2e80-303e,3041-3247,3250-4dbf,4e00-a4c6,a960-a97c,ac00-d7a3,f900-faff,' +
  'fe10-fe19,fe30-fe6b,ff01-ff60,ffe0-ffe6,16fe0-1b2fb,1f004,1f0cf,1f18e,1f191-1f19a,1f200-1f320,1f32d-1f335,' +
  '1f337-1f37c,1f37e-1f393,1f3a0-1f3ca,1f3cf-1f3d3,1f3e0-1f3f0,1f3f4,1f3f8-1f43e,1f440,1f442-1f4fc,1f4ff-1f53d,' +
  '1f54b-1f54e,1f550-1f567,1f57a,1f595-1f596,1f5a4,1f5fb-1f64f,1f680-1f6c5,1f6cc,1f6d0-1f6d2,1f6d5-1f6df,' +
  '1f6eb-1f6ec,1f6f4-1f6fc,1f7e0-1f7f0,1f90c-1f93a,1f93c-1f945,1f947-1f9ff,1fa70-1faff,20000-3fffd'
)
  .split(',')
  .flatMap((range) => {
    const [from, to = from] = range.split('-');
    return [parseInt(from!, 16), parseInt(to!, 16)];
  });

function wide(cp: number): boolean {
  if (cp < 0x1100) return false;
  let lo = 0;
  let hi = WIDE.length / 2 - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (cp < WIDE[mid * 2]!) hi = mid - 1;
    else if (cp > WIDE[mid * 2 + 1]!) lo = mid + 1;
    else return true;
  }
  return false;
}

const ZERO = /[\p{Mn}\p{Me}\p{Cf}\u1160-\u11ff]/u;
const ASCII = /^[\x20-\x7e]*$/;

/** The columns one code point takes; `joined` when it follows a zero-width joiner. */
export function codeWidth(ch: string, joined = false): number {
  const cp = ch.codePointAt(0)!;
  if (cp < 0x300) return cp >= 0x20 && cp !== 0x7f ? 1 : 0;
  if (joined || ZERO.test(ch)) return 0;
  return wide(cp) ? 2 : 1;
}

/** The columns a string of printable text takes on one line. */
export function textWidth(text: string): number {
  if (ASCII.test(text)) return text.length;
  let width = 0;
  let joined = false;
  for (const ch of text) {
    width += codeWidth(ch, joined);
    joined = ch === '\u200d';
  }
  return width;
}

export const runsWidth = (runs: readonly Run[]) => runs.reduce((n, r) => n + textWidth(r.text), 0);

// C0 and C1 controls (ESC starts any escape sequence), DEL, and format characters that reorder or
// hide text (bidi overrides and isolates, soft hyphen); joiners stay, emoji sequences need them.
const UNSAFE = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u00ad\u061c\u200b\u200e\u200f\u202a-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]/g;

/** A model's text as it may reach the terminal: no controls, a tab as four spaces. */
export function sanitize(text: string): string {
  return text.replace(UNSAFE, '').replaceAll('\t', '    ');
}

/** A run list as terminal bytes: each styled run closes its style, so none leaks into the next. */
export function runsText(runs: readonly Run[]): string {
  let out = '';
  for (const r of runs) if (r.text) out += r.sgr ? `${r.sgr}${r.text}${RESET}` : r.text;
  return out;
}

/** Runs wrapped into lines of at most `width` columns, at spaces where a word fits, within it where not. */
export function wrapRuns(runs: readonly Run[], width: number): Run[][] {
  // The text as words (a space run ends each one), each word a list of styled pieces.
  const lines: Run[][] = [];
  let line: Run[] = [];
  let used = 0;
  const push = (text: string, style: string, w: number) => {
    const last = line.at(-1);
    if (last && last.sgr === style) last.text += text;
    else line.push({ text, sgr: style });
    used += w;
  };
  const breakLine = () => {
    const last = line.at(-1);
    if (last) last.text = last.text.trimEnd();
    lines.push(line.filter((r) => r.text));
    line = [];
    used = 0;
  };
  const words: { pieces: Run[]; width: number; space: boolean }[] = [];
  for (const run of runs) {
    for (const part of run.text.split(/( +)/)) {
      if (!part) continue;
      const space = part.startsWith(' ');
      const prev = words.at(-1);
      if (prev && !space && !prev.space) {
        prev.pieces.push({ text: part, sgr: run.sgr });
        prev.width += textWidth(part);
      } else words.push({ pieces: [{ text: part, sgr: run.sgr }], width: textWidth(part), space });
    }
  }
  for (const word of words) {
    if (word.space) {
      if (used > 0 && used + word.width <= width) for (const p of word.pieces) push(p.text, p.sgr, textWidth(p.text));
      else if (used > 0) breakLine();
      continue;
    }
    if (used > 0 && used + word.width > width) breakLine();
    for (const piece of word.pieces) {
      let joined = false;
      for (const ch of piece.text) {
        const w = codeWidth(ch, joined);
        joined = ch === '\u200d';
        if (used > 0 && used + w > width) breakLine();
        push(ch, piece.sgr, w);
      }
    }
  }
  if (line.length || !lines.length) breakLine();
  return lines;
}
