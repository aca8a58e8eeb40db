// Bracketed paste (xterm's mode 2004): the terminal wraps pasted text in ESC[200~ ... ESC[201~.
// A paste of several lines becomes one placeholder in the line being typed, "[pasted 12
// lines #1]", so that its line ends do not send it line by line; the placeholder is replaced by
// the text when the line is sent. A one-line paste is typed as it is.
const START = '\u001b[200~';
const END = '\u001b[201~';
export const BRACKETED_PASTE_ON = '\u001b[?2004h';
export const BRACKETED_PASTE_OFF = '\u001b[?2004l';

export interface PasteFilter {
  /** What readline should see of a chunk of terminal input. */
  filter(chunk: string): string;
  /** The line with its placeholders replaced by what was pasted. */
  expand(line: string): string;
}

/** How much of `text`'s end could be the start of `marker` (a marker cut between two reads). */
function partial(text: string, marker: string): number {
  for (let n = Math.min(marker.length - 1, text.length); n > 0; n--) if (marker.startsWith(text.slice(-n))) return n;
  return 0;
}

export function pasteFilter(): PasteFilter {
  const pastes = new Map<string, string>();
  let pasting: string | undefined;
  let held = '';
  return {
    filter(chunk) {
      let input = held + chunk;
      held = '';
      let out = '';
      for (;;) {
        if (pasting === undefined) {
          const at = input.indexOf(START);
          if (at < 0) {
            const keep = partial(input, START);
            held = input.slice(input.length - keep);
            return out + input.slice(0, input.length - keep);
          }
          out += input.slice(0, at);
          input = input.slice(at + START.length);
          pasting = '';
        } else {
          const at = input.indexOf(END);
          if (at < 0) {
            const keep = partial(input, END);
            pasting += input.slice(0, input.length - keep);
            held = input.slice(input.length - keep);
            return out;
          }
          const text = (pasting + input.slice(0, at)).replace(/\r\n?/g, '\n').replace(/\n+$/, '');
          input = input.slice(at + END.length);
          pasting = undefined;
          if (!text.includes('\n')) out += text;
          else {
            const placeholder = `[pasted ${text.split('\n').length} lines #${pastes.size + 1}]`;
            pastes.set(placeholder, text);
            out += placeholder;
          }
        }
      }
    },
    expand(line) {
      let expanded = line;
      for (const [placeholder, text] of pastes) expanded = expanded.split(placeholder).join(text);
      return expanded;
    },
  };
}
