// Lines that carry a password are masked while typed and never remembered (spec part 5).
import { SECRET_COMMAND_PREFIXES } from '../constants.ts';
import type { ParsedLine } from '../line.ts';
import type { CommandRegistry } from '../registry.ts';
import { tokenize, type Token } from '../tokenize.ts';

function startsWithSecretPrefix(tokens: readonly Token[]): boolean {
  return SECRET_COMMAND_PREFIXES.some((prefix) =>
    prefix.every((word, i) => tokens[i] !== undefined && tokens[i]!.value.toLowerCase() === word),
  );
}

export function isSecretLine(parsed: ParsedLine, registry: CommandRegistry): boolean {
  if (parsed.kind !== 'command') return false;
  if (startsWithSecretPrefix(parsed.tokens)) return true;
  const resolution = registry.resolve(parsed.tokens);
  return resolution.kind === 'found' && (resolution.command.spec.args ?? []).some((a) => a.secret);
}

/**
 * Returns the line with every secret argument replaced by asterisks of the same length,
 * for display while typing. Arguments are positional, so the n-th argument token after the
 * command words is the n-th argument.
 */
export function maskSecrets(line: string, registry: CommandRegistry): string {
  const trimmedStart = line.length - line.trimStart().length;
  const body = line.trimStart();
  if (!body.startsWith(':')) return line;
  const parsed = registry.resolve(tokenizeBody(body));
  if (parsed.kind !== 'found') return line;
  const secretIndexes = (parsed.command.spec.args ?? []).flatMap((a, i) => (a.secret ? [i] : []));
  if (!secretIndexes.length) return line;
  let masked = line;
  for (const index of secretIndexes) {
    const token = parsed.argTokens[index];
    if (!token) continue;
    const start = trimmedStart + 1 + token.start;
    const end = trimmedStart + 1 + token.end;
    masked = masked.slice(0, start) + '*'.repeat(end - start) + masked.slice(end);
  }
  return masked;
}

function tokenizeBody(body: string): Token[] {
  return tokenize(body.slice(1));
}
