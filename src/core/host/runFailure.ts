// What the host says when a line cannot run: a command of another environment, a plugin whose
// code could not be loaded, a handler that threw. Kept apart from the host's running of lines.
import type { Env, Translate } from '../contract.ts';
import type { CommandRegistry } from '../registry.ts';
import type { Token } from '../tokenize.ts';

/** A plugin's code or translations could not be loaded (as opposed to failing once loaded). */
export class PluginLoadError extends Error {
  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
  }
}

/** An unknown command, or one of another environment saying where it works (`:theme` in the terminal). */
export function unknownCommandSaid(registry: CommandRegistry, tokens: readonly Token[], env: Env, t: Translate): string {
  const elsewhere = registry.resolve(tokens, registry.elsewhere);
  const where = elsewhere.kind === 'found' ? elsewhere.command.spec.envs?.find((e) => e !== env) : undefined;
  const cmd = elsewhere.kind === 'found' ? `:${elsewhere.command.spec.words.join(' ')}` : '';
  return where === 'browser' ? t('msg.browserOnly', { cmd }) : where === 'cli' ? t('msg.terminalOnly', { cmd }) : t('msg.unknownCommand');
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
