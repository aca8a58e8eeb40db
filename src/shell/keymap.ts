// The keyboard shortcuts of spec part 2 as a pure function from a key press and the shell's
// situation to an action, so that the whole table is unit-tested without a browser.

export interface KeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}

export interface KeySituation {
  /** Where the key was pressed: the input, another text field, a button or link, or nothing focused. */
  target: 'input' | 'other-field' | 'control' | 'page';
  input: string;
  view: 'front' | 'back';
  fullscreen: string;
  /** Text is selected on the page (Ctrl+C then copies, as usual). */
  hasSelection: boolean;
  /** Nothing is focused because Esc just left the input: Tab goes on to the controls after it. */
  leftInput?: boolean;
  /** The input shows the command history, or was emptied by walking down past its newest entry. */
  walkingHistory?: boolean;
}

export type KeyAction =
  | 'interrupt'
  | 'clear-output'
  | 'reset-session'
  | 'toggle-fullscreen'
  | 'toggle-split'
  | 'clear-input'
  | 'blur-input'
  | 'to-front'
  | 'focus-input'
  | 'focus-after-input'
  | 'repeat-last'
  | 'complete'
  | 'history-up'
  | 'history-down'
  | 'session-previous'
  | 'session-next'
  | 'log-previous'
  | 'log-next'
  | 'open-settings'
  | 'submit';

const isCommandInput = (input: string) => input.startsWith(':') || input.startsWith('!');

export function keyAction(press: KeyPress, at: KeySituation): KeyAction | null {
  const mod = press.ctrlKey || press.metaKey;
  const key = press.key;
  const inInput = at.target === 'input';

  if (mod && !press.altKey) {
    const lower = key.toLowerCase();
    if (lower === 'c' && !press.shiftKey) return at.hasSelection ? null : 'interrupt';
    if (lower === 'r') return press.shiftKey ? 'reset-session' : 'clear-output';
    if (key === '|' || key === '\\') return 'toggle-split';
    if (key === ',') return 'open-settings';
    if (key === 'Enter' && inInput) return 'submit';
    return null;
  }
  if (key === 'F11') return 'toggle-fullscreen';
  if (key === 'Escape') {
    if (inInput && at.input) return 'clear-input';
    if (inInput) return 'blur-input';
    if (at.view === 'back') return 'to-front';
    return null;
  }
  if (at.target === 'other-field' || press.altKey) return null;

  if (inInput) {
    if (key === 'Enter') {
      // Split layout edits long prompts: Enter adds a line, Shift/Ctrl/Cmd+Enter sends.
      if (press.shiftKey) return at.fullscreen === 'split' ? 'submit' : null;
      return at.fullscreen === 'split' ? null : 'submit';
    }
    if (key === 'Tab' && !press.shiftKey) return at.input ? 'complete' : 'repeat-last';
    if (isCommandInput(at.input) || at.walkingHistory) {
      if (key === 'ArrowUp') return 'history-up';
      if (key === 'ArrowDown') return 'history-down';
      return null;
    }
    if (at.input) return null;
    // An empty, focused input: arrows navigate; letters type as usual.
    if (key === 'ArrowUp') return 'session-previous';
    if (key === 'ArrowDown') return 'session-next';
    if (key === 'ArrowLeft') return 'log-previous';
    if (key === 'ArrowRight') return 'log-next';
    return null;
  }

  if (at.view === 'back') return null;
  // Tab and Shift+Tab move between buttons and links as on any page (WCAG 2.1.1); with nothing
  // focused, Tab focuses the input (spec part 2), or, right after Esc left the input, goes on to
  // the controls after it (Attach, Send, then the answer's links and Copy buttons).
  if (key === 'Tab') {
    if (at.target === 'control' || press.shiftKey) return null;
    return at.leftInput ? 'focus-after-input' : 'focus-input';
  }
  if (key === '/') return 'focus-input';
  switch (key) {
    case 'ArrowUp':
    case 'h':
      return 'session-previous';
    case 'ArrowDown':
    case 'l':
      return 'session-next';
    case 'ArrowLeft':
    case 'k':
      return 'log-previous';
    case 'ArrowRight':
    case 'j':
      return 'log-next';
  }
  return null;
}
