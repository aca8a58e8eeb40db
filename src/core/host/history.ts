// Command history (spec part 3): at most 100 commands, newest first.
import { HISTORY_MAX } from '../constants.ts';

export function pushHistory(history: readonly string[], line: string): string[] {
  const trimmed = line.trim();
  if (!trimmed) return [...history];
  return [trimmed, ...history.filter((h) => h !== trimmed)].slice(0, HISTORY_MAX);
}

/** Walks the history: Up moves to older entries, Down to newer; -1 is the line being typed. */
export function walkHistory(history: readonly string[], index: number, direction: 'up' | 'down'): number {
  if (direction === 'up') return Math.min(index + 1, history.length - 1);
  return Math.max(index - 1, -1);
}
