// Bracketed paste read from the terminal in any pieces: several lines become one placeholder,
// expanded when the line is sent; one line is typed as it is; typed keys pass untouched.
import { describe, expect, it } from 'vitest';
import { pasteFilter } from './paste.ts';
import { listText } from './render.ts';

const PASTE = '\u001b[200~first line\r\nsecond line\n\u001b[201~';

describe('bracketed paste', () => {
  it('folds a paste of several lines into one placeholder, wherever the reads cut it', () => {
    for (let cut = 0; cut <= PASTE.length; cut++) {
      const paste = pasteFilter();
      const seen = paste.filter(`ask ${PASTE.slice(0, cut)}`) + paste.filter(`${PASTE.slice(cut)} now\r`);
      expect(seen, `cut at ${cut}`).toBe('ask [pasted 2 lines #1] now\r');
      expect(paste.expand('ask [pasted 2 lines #1] now')).toBe('ask first line\nsecond line now');
    }
  });

  it('types a one-line paste as it is, and leaves typed keys alone', () => {
    const paste = pasteFilter();
    expect(paste.filter('\u001b[200~just one\u001b[201~')).toBe('just one');
    expect(paste.filter('\u001b[A\u0003x\u001b[2')).toBe('\u001b[A\u0003x');
    expect(paste.filter('~')).toBe('\u001b[2~');
  });
});

describe('lists in the terminal', () => {
  it('lays items across the width, row by row, the active one starred', () => {
    const list = { kind: 'list' as const, title: 'Roles', items: ['coder', 'translator', 'sql', 'teacher', 'go'].map((text) => ({ text, active: text === 'sql' })) };
    expect(listText(list, 40)).toBe('Roles\ncoder       translator  *sql\nteacher     go');
    expect(listText(list, 30)).toBe('Roles\ncoder       translator\n*sql        teacher\ngo');
    expect(listText({ kind: 'list', title: 'Roles', items: [], empty: '(none)' }, 30)).toBe('Roles\n(none)');
  });
});
