// What the host says when a line cannot run: a command of another environment, a plugin whose
// code could not be loaded, a handler that threw. Kept apart from the host's running of lines.
import type { Env, Translate } from '../contract.ts';
import type { LineError } from '../line.ts';
import { effect, error, type Output } from '../output.ts';
import type { CommandRegistry } from '../registry.ts';
import type { Token } from '../tokenize.ts';
import { commandHint, wordsOfInvalid } from './suggest.ts';

/** A plugin's code or translations could not be loaded (as opposed to failing once loaded). */
export class PluginLoadError extends Error {
  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
  }
}

const notice = (text: string): Output => effect({ type: 'notice', text });

/**
 * An unknown command, or one of another environment saying where it works (`:theme` in the
 * terminal). 'Unknown command.' stays as the spec words it, with the closest command or
 * `:help` on a line (a notice) below it.
 */
export function unknownCommandSaid(registry: CommandRegistry, tokens: readonly Token[], env: Env, t: Translate): Output[] {
  const elsewhere = registry.resolve(tokens, registry.elsewhere);
  const where = elsewhere.kind === 'found' ? elsewhere.command.spec.envs?.find((e) => e !== env) : undefined;
  const cmd = elsewhere.kind === 'found' ? `:${elsewhere.command.spec.words.join(' ')}` : '';
  if (where === 'browser') return [error(t('msg.browserOnly', { cmd }))];
  if (where === 'cli') return [error(t('msg.terminalOnly', { cmd }))];
  return [error(t('msg.unknownCommand')), notice(commandHint(registry, tokens.map((k) => k.value), t))];
}

/** A line the parser refused (spec part 5); under 'Invalid command.' what was likely meant (`: help`). */
export function lineErrorSaid(registry: CommandRegistry, lineError: LineError, input: string, t: Translate): Output[] {
  const said = error(t(`msg.${lineError}`));
  return lineError === 'invalidCommand' ? [said, notice(commandHint(registry, wordsOfInvalid(input), t))] : [said];
}

/**
 * A command that failed. Code that could not be fetched (the server is down, or was updated
 * since the page loaded) is said in words, not as the browser's "Failed to fetch dynamically
 * imported module: <url>"; any other failure names its message, and the shell goes on.
 */
export function failureSaid(err: unknown, word: string, offline: boolean, t: Translate): string {
  if (err instanceof PluginLoadError) return offline ? t('msg.notAvailableOffline', { cmd: `:${word}` }) : t('ui.loadFailed');
  return t('msg.commandFailed', { message: err instanceof Error ? err.message : String(err) });
}
