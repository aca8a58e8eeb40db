// The working line of the page and the terminal (after WORKING_DELAY_MS): a command that has not
// answered is said to be running, by its words, never its arguments (they may be a password).
import { parseLine } from '../line.ts';
import type { CommandRegistry } from '../registry.ts';

/** The command a line runs, as the working line names it (`:store search`); undefined for a question or an unknown command. */
export function runningCommand(line: string, registry: CommandRegistry): string | undefined {
  const parsed = parseLine(line);
  if (parsed.kind !== 'command') return undefined;
  const resolved = registry.resolve(parsed.tokens);
  return resolved.kind === 'found' ? `:${resolved.command.spec.words.join(' ')}` : undefined;
}
