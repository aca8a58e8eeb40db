// Helpers of the built-in functions: argument checks with clear messages, and a fetch of the
// operator's data sources (trusted configuration, so plain fetch with a timeout).
import { MessageError, type RedirectEvent, type UserRow } from '../../../../src/core/index.ts';
import type functionEnv from '../env.ts';
import { MESSAGES } from '../../common/messages.ts';

/** Where the built-ins fetch their data: the plugin's own configuration (../env.ts). */
export type FunctionsConfig = ReturnType<typeof functionEnv.config>;

export type BuiltinOutput = { result: string; event?: RedirectEvent };
export type Builtin = (args: Record<string, unknown>, context: { user: UserRow | null; signal: AbortSignal; config: FunctionsConfig }) => Promise<BuiltinOutput>;

/** An error the user (or the model) may see: one of the functions' messages, its code kept. */
export class FunctionError extends MessageError {}

export function stringArg(args: Record<string, unknown>, name: string, required = true): string {
  const value = args[name];
  if (value === undefined || value === null || value === '') {
    if (required) throw new FunctionError(MESSAGES.argRequired(name));
    return '';
  }
  if (typeof value !== 'string') throw new FunctionError(MESSAGES.argNotString(name));
  if (value.length > 1000) throw new FunctionError(MESSAGES.argTooLong(name));
  return value.trim();
}

export const FETCH_TIMEOUT_MS = 10_000;

export async function fetchJson(url: string, signal: AbortSignal, what: string): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.any([signal, AbortSignal.timeout(FETCH_TIMEOUT_MS)]), headers: { accept: 'application/json' } });
  } catch {
    throw new FunctionError(MESSAGES.unreachable(what));
  }
  if (!response.ok) throw new FunctionError(MESSAGES.serviceStatus(what, response.status));
  try {
    return await response.json();
  } catch {
    throw new FunctionError(MESSAGES.unreadable(what));
  }
}
