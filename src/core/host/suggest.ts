// The line under 'Unknown command.' and 'Invalid command.' (whose wording the spec fixes): the
// closest command by edit distance over the registry's words (`:logn` → `:login`) when one is
// close enough, else where the commands are listed (`:help`). Never echoes the arguments typed
// (they may be a password).
import type { Translate } from '../contract.ts';
import { spellings, type CommandRegistry } from '../registry.ts';
import { foldFullWidth } from '../text.ts';

/** Edits (insert, delete, substitute, swap two neighbours) that turn `a` into `b`. */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = best;
    }
  }
  return rows[a.length]![b.length]!;
}

/** How many of `a`'s letters `b` holds in the same order (the longest common subsequence). */
function shared(a: string, b: string): number {
  let row = Array<number>(b.length + 1).fill(0);
  for (const ch of a) {
    const next = [0];
    for (let j = 1; j <= b.length; j++) next[j] = ch === b[j - 1] ? row[j - 1]! + 1 : Math.max(row[j]!, next[j - 1]!);
    row = next;
  }
  return row[b.length]!;
}

/** How many edits still read as a typo of a word this long (a short word allows one). */
const allowed = (length: number) => (length <= 4 ? 1 : length <= 8 ? 2 : 3);

/**
 * The commands (`:login`, `:session ls`) closest to the words typed, at most three, best first;
 * empty when none is close enough. One- and two-letter words are too short to guess from.
 */
export function closestCommands(registry: CommandRegistry, words: readonly string[]): string[] {
  const typed = words.map((w) => w.toLowerCase());
  if (!typed.length || typed[0]!.length < 3) return [];
  const scored = new Map<string, { distance: number; words: number; kept: number }>();
  for (const command of registry.commands) {
    if (command.spec.hidden) continue;
    for (const spelling of spellings(command.spec)) {
      if (typed.length < spelling.length) continue;
      const wanted = spelling.join(' ');
      if (wanted.length < 3) continue;
      const said = typed.slice(0, spelling.length).join(' ');
      const distance = editDistance(said, wanted);
      if (distance > allowed(Math.max(said.length, wanted.length))) continue;
      const name = `:${wanted}`;
      const seen = scored.get(name);
      if (!seen || distance < seen.distance) scored.set(name, { distance, words: spelling.length, kept: shared(said, wanted) });
    }
  }
  // The fewest edits; among those the command that takes most of the words typed (`:sesion ls`
  // is `:session ls`, not `:session`), then the one that keeps most of the letters typed (a
  // dropped letter is the likelier slip: `:logn` is `:login`, not `:log`).
  const rank = ({ distance, words, kept }: { distance: number; words: number; kept: number }) => [distance, -words, -kept];
  const compare = (a: number[], b: number[]) => a.reduce((order, v, i) => order || v - b[i]!, 0);
  const ranked = [...scored].map(([name, s]) => ({ name, rank: rank(s) })).sort((a, b) => compare(a.rank, b.rank) || a.name.localeCompare(b.name));
  return ranked
    .filter((r) => compare(r.rank, ranked[0]!.rank) === 0)
    .map((r) => r.name)
    .slice(0, 3);
}

/** The hint line: the closest commands, or `:help`. */
export function commandHint(registry: CommandRegistry, words: readonly string[], t: Translate): string {
  const close = closestCommands(registry, words);
  return close.length ? t('msg.didYouMean', { commands: close.join(', ') }) : t('msg.seeHelp');
}

/**
 * The words after a colon that the parser refused as 'Invalid command.' (`: help`, `:"help"`):
 * what a command would be, had it been written right. Empty for a bare colon.
 */
export function wordsOfInvalid(line: string): string[] {
  return foldFullWidth(line)
    .trim()
    .replace(/^:/, '')
    .split(/[\s,"\u201C\u201D]+/)
    .filter(Boolean);
}
