// Direct function calls (`!name({...})`, spec part 5): the function plugin provides the runner
// while active; the shell and the tests reach it through the host, never by importing the plugin.
import type { PluginHost } from './host/host.ts';
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

/** A tool as a model sees it: name, description and JSON Schema of the arguments. */
export interface ToolSpec {
  name: string;
  description?: string;
  parameters?: Record<string, unknown>;
}

/**
 * The tools of a model called from the browser (a local model server's): the enabled built-in
 * functions, which run on the server (login required), and the local MCP helper's tools. The
 * function plugin provides it; the chat finds it through the host.
 */
export interface Toolbox {
  /** The specs of the enabled tools that can run now. */
  tools(enabled: readonly string[]): Promise<ToolSpec[]>;
  /** Runs one; a failure comes back as `Error: ...` text for the model, never as a throw. */
  call(name: string, args: unknown, signal?: AbortSignal): Promise<{ result: string; event?: RedirectEvent }>;
}

export const ToolboxRef = createServiceRef<Toolbox>('function.toolbox');

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
