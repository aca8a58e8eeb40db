// The installed command a typed line runs, for what the page and the terminal decide before
// running it: whether it is `:stop`, and the name its working line says it by.
import { parseLine } from '../line.ts';
import type { CommandRegistry, RegisteredCommand } from '../registry.ts';
import type { Token } from '../tokenize.ts';

export interface LineCommand {
  command: RegisteredCommand;
  argTokens: Token[];
  /** `:store search`: its words, never its arguments (they may be a password). */
  name: string;
}

/** The command `line` runs; undefined for a question or an unknown command. */
export function lineCommand(line: string, registry: CommandRegistry): LineCommand | undefined {
  const parsed = parseLine(line);
  if (parsed.kind !== 'command') return undefined;
  const resolved = registry.resolve(parsed.tokens);
  if (resolved.kind !== 'found') return undefined;
  return { command: resolved.command, argTokens: resolved.argTokens, name: `:${resolved.command.spec.words.join(' ')}` };
}

/** Whether `line` is `:stop` (the general plugin's command, without arguments), in any spelling. */
export function isStop(line: string, registry: CommandRegistry): boolean {
  const found = lineCommand(line, registry);
  return found?.command.pluginId === 'general' && found.command.spec.id === 'stop' && !found.argTokens.length;
}
