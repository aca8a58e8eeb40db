// Direct function calls (`!name({...})`, spec part 5): the function plugin provides the runner
// while active; the shell and the tests reach it through the host, never by importing the plugin.
import type { PluginHost } from './host.ts';
import type { FunctionCall, ParsedLine } from './line.ts';
import { error, type Output } from './output.ts';
import type { RedirectEvent } from './generation.ts';
import { createServiceRef } from './services.ts';

/** One entry of POST /api/function/exec's `function_results` (spec part 3, Function result). */
export interface FunctionResult {
  success: boolean;
  /** The call as typed, `name(args)`. */
  function: string;
  message?: string;
  error?: string;
  event?: RedirectEvent;
}

export interface FunctionRunner {
  /** Runs the calls (in parallel) and returns what to show, redirects as `open` effects. */
  run(calls: FunctionCall[], signal?: AbortSignal): Promise<Output[]>;
}

export const FunctionRunnerRef = createServiceRef<FunctionRunner>('function.runner');

/** The host's `onFunction`: activates the function plugin and hands it the calls. */
export async function runFunctionCalls(host: PluginHost, parsed: Extract<ParsedLine, { kind: 'function' }>, signal?: AbortSignal): Promise<Output[]> {
  const t = host.t('shell');
  try {
    await host.ensureActive('function');
  } catch {
    return [error(t('msg.functionNotFound'))];
  }
  const runner = host.services.maybe(FunctionRunnerRef);
  if (!runner) return [error(t('msg.functionNotFound'))];
  return runner.run(parsed.calls, signal);
}
