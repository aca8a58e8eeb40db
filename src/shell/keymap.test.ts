import { describe, expect, it } from 'vitest';
import { keyAction, type KeyPress, type KeySituation } from './keymap.ts';
import { detectSwipe } from './gestures.ts';

const press = (key: string, mods: Partial<KeyPress> = {}): KeyPress => ({
  key, ctrlKey: false, metaKey: false, shiftKey: false, altKey: false, ...mods,
});
const at = (s: Partial<KeySituation> = {}): KeySituation => ({
  target: 'page', input: '', view: 'front', fullscreen: 'off', hasSelection: false, ...s,
});

describe('keyboard shortcuts (spec part 2)', () => {
  it.each([
    ['Ctrl+C', press('c', { ctrlKey: true }), at(), 'interrupt'],
    ['Cmd+C', press('c', { metaKey: true }), at({ target: 'input', input: 'x' }), 'interrupt'],
    ['Ctrl+C with a selection copies', press('c', { ctrlKey: true }), at({ hasSelection: true }), null],
    ['Ctrl+R', press('r', { ctrlKey: true }), at(), 'clear-output'],
    ['Ctrl+Shift+R', press('R', { ctrlKey: true, shiftKey: true }), at(), 'reset-session'],
    ['F11', press('F11'), at(), 'toggle-fullscreen'],
    ['Ctrl+|', press('|', { ctrlKey: true, shiftKey: true }), at(), 'toggle-split'],
    ['Ctrl+\\', press('\\', { ctrlKey: true }), at(), 'toggle-split'],
    ['Ctrl+,', press(',', { ctrlKey: true }), at(), 'open-settings'],
    ['Esc with text', press('Escape'), at({ target: 'input', input: 'abc' }), 'clear-input'],
    ['Esc empty', press('Escape'), at({ target: 'input' }), 'blur-input'],
    ['Esc on the back view', press('Escape'), at({ view: 'back' }), 'to-front'],
    ['Tab focuses', press('Tab'), at(), 'focus-input'],
    ['Tab from a button or link moves on', press('Tab'), at({ target: 'control' }), null],
    ['Shift+Tab from a button or link moves back', press('Tab', { shiftKey: true }), at({ target: 'control' }), null],
    ['Shift+Tab with nothing focused', press('Tab', { shiftKey: true }), at(), null],
    ['Tab right after Esc left the input', press('Tab'), at({ leftInput: true }), 'focus-after-input'],
    ['Shift+Tab in the input leaves it', press('Tab', { shiftKey: true }), at({ target: 'input', input: ':theme d' }), null],
    ['/ focuses', press('/'), at(), 'focus-input'],
    ['Tab in an empty input', press('Tab'), at({ target: 'input' }), 'repeat-last'],
    ['Tab after a command', press('Tab'), at({ target: 'input', input: ':theme d' }), 'complete'],
    ['Up in a colon command', press('ArrowUp'), at({ target: 'input', input: ':' }), 'history-up'],
    ['Down in a colon command', press('ArrowDown'), at({ target: 'input', input: ':lang' }), 'history-down'],
    ['Up in a ! call', press('ArrowUp'), at({ target: 'input', input: '!' }), 'history-up'],
    ['Up in chat text moves the caret', press('ArrowUp'), at({ target: 'input', input: 'hello' }), null],
    ['Up in an empty input', press('ArrowUp'), at({ target: 'input' }), 'session-previous'],
    ['Down past the newest history entry stays in the history', press('ArrowDown'), at({ target: 'input', walkingHistory: true }), 'history-down'],
    ['Up from there walks back into it', press('ArrowUp'), at({ target: 'input', walkingHistory: true }), 'history-up'],
    ['Down unfocused', press('ArrowDown'), at(), 'session-next'],
    ['h unfocused', press('h'), at(), 'session-previous'],
    ['l unfocused', press('l'), at(), 'session-next'],
    ['h in an empty input types', press('h'), at({ target: 'input' }), null],
    ['Left unfocused', press('ArrowLeft'), at(), 'log-previous'],
    ['k unfocused', press('k'), at(), 'log-previous'],
    ['Right in an empty input', press('ArrowRight'), at({ target: 'input' }), 'log-next'],
    ['j unfocused', press('j'), at(), 'log-next'],
    ['Enter submits', press('Enter'), at({ target: 'input', input: 'x' }), 'submit'],
    ['Shift+Enter adds a line', press('Enter', { shiftKey: true }), at({ target: 'input', input: 'x' }), null],
    ['Enter in split adds a line', press('Enter'), at({ target: 'input', fullscreen: 'split' }), null],
    ['Shift+Enter in split submits', press('Enter', { shiftKey: true }), at({ target: 'input', fullscreen: 'split' }), 'submit'],
    ['Ctrl+Enter submits', press('Enter', { ctrlKey: true }), at({ target: 'input', fullscreen: 'split' }), 'submit'],
    ['keys in other fields are theirs', press('j'), at({ target: 'other-field' }), null],
    ['navigation keys do nothing on the back view', press('j'), at({ view: 'back' }), null],
  ] as const)('%s', (_name, p, s, action) => {
    expect(keyAction(p, s)).toBe(action);
  });
});

describe('swipes', () => {
  it('needs a mostly horizontal move of 50px', () => {
    expect(detectSwipe(80, 10)).toBe('right');
    expect(detectSwipe(-80, -10)).toBe('left');
    expect(detectSwipe(30, 0)).toBeNull();
    expect(detectSwipe(80, 60)).toBeNull();
  });
});
