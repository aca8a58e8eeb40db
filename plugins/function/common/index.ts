// Handlers of the function commands and the runner of direct `!name({...})` calls. Built-in
// functions run on the server (POST /api/function/exec, login required); tools of the local
// MCP helper (McpRef, when present) are listed and run from the browser.
import {
  ApiError,
  send,
  effect,
  error,
  FunctionRunnerRef,
  McpRef,
  PlatformRef,
  splitCode,
  text,
  ToolboxRef,
  translateMessage,
  typedClient,
  type FunctionCall,
  type McpTool,
  type Output,
  type PluginContext,
  type PluginManifest,
  type Translate,
} from '../../../src/core/index.ts';
import type { FunctionRoutes } from '../server/index.ts';
import { BUILTIN_FUNCTIONS, BUILTIN_NAMES, failure, nameList, parseArgs, template, type ExecResult } from './functions.ts';
import { MESSAGES } from './messages.ts';

export * from './functions.ts';

/** Largest number of calls one line may carry. */
export const MAX_CALLS = 10;

export function activateFunction(ctx: PluginContext): void {
  const t = ctx.t;
  const mcp = () => ctx.services.maybe(McpRef);

  /** The MCP helper's tools; nothing when it is absent or down (nothing is reported). */
  const mcpTools = async (): Promise<McpTool[]> => {
    try {
      return (await mcp()?.tools()) ?? [];
    } catch {
      return [];
    }
  };

  const enabled = () => nameList(ctx.settings.get('functions'));
  const setEnabled = (names: string[]) => ctx.settings.set('functions', names.join(','));

  /** The system functions other installed plugins add (their manifests' `functions`). */
  const added = (manifests: readonly PluginManifest[] = ctx.manifests()) => manifests.flatMap((m) => m.functions ?? []);
  /** Every system function's name: the built-ins, then the ones other plugins declare. */
  const systemNames = (manifests?: readonly PluginManifest[]) => [...BUILTIN_NAMES, ...added(manifests).map((f) => f.name)];

  /** A function's schema: a built-in's, another plugin's system function's, or an MCP tool's. */
  const find = async (name: string, manifests?: readonly PluginManifest[]): Promise<{ name: string; description?: string; parameters?: unknown } | undefined> =>
    BUILTIN_FUNCTIONS.find((f) => f.name === name) ?? added(manifests).find((f) => f.name === name) ?? (await mcpTools()).find((tool) => tool.name === name);

  const list = async (manifests?: readonly PluginManifest[]): Promise<Output[]> => {
    const on = new Set(enabled());
    const tools = await mcpTools();
    const system = systemNames(manifests);
    return [
      { kind: 'list', title: t('title.callables'), items: BUILTIN_FUNCTIONS.map((f) => ({ text: template(f) })) },
      { kind: 'list', title: t('title.system'), items: system.map((name) => ({ text: name, active: on.has(name) })) },
      { kind: 'list', title: t('title.mcp'), items: tools.map((tool) => ({ text: tool.name, active: on.has(tool.name) })), empty: t('msg.noMcp') },
    ];
  };

  ctx.handle('function', async (c) => {
    const name = c.args.name;
    if (!name) return list(c.manifests);
    const found = await find(name, c.manifests);
    if (!found) return error(t('msg.notFound'));
    return { kind: 'json', value: { name: found.name, description: found.description ?? '', parameters: found.parameters ?? { type: 'object' } } };
  });
  ctx.handle('function.ls', (c) => list(c.manifests));
  ctx.handle('function.use', async (c) => {
    const name = c.args.name!;
    if (!(await find(name, c.manifests))) return error(t('msg.notFound'));
    const names = enabled();
    if (names.includes(name)) return error(t('msg.alreadyInUse'));
    setEnabled([...names, name]);
    return text(t('msg.used', { name }));
  });
  ctx.handle('function.unuse', async (c) => {
    const name = c.args.name!;
    const names = enabled();
    if (!names.includes(name)) {
      if (!(await find(name, c.manifests))) return error(t('msg.notFound'));
      return error(t('msg.notInUse'));
    }
    setEnabled(names.filter((n) => n !== name));
    return text(t('msg.unused', { name }));
  });
  // The Settings page: the system's functions and the MCP helper's tools, several at once.
  ctx.choices('functions', async () => [
    { title: t('title.system'), values: systemNames() },
    { title: t('title.mcp'), values: (await mcpTools()).map((tool) => tool.name) },
  ]);
  // `:set functions "a,b"` and the Settings page: each name must be a function, as with `:function use`.
  ctx.setter('functions', async (value, c) => {
    const names = [...new Set(nameList(value.trim()))];
    for (const name of names) if (!(await find(name, c.manifests))) return error(`${t('msg.notFound')} (${name})`);
    setEnabled(names);
    return text(t('msg.inUse', { names: names.join(', ') || '-' }));
  });
  ctx.completion('function', async (prefix) =>
    [...systemNames(), ...(await mcpTools()).map((tool) => tool.name)].filter((n) => n.startsWith(prefix)),
  );

  // A local model's tool calls: built-ins through the server (logged in), the helper's here.
  ctx.services.provide(ToolboxRef, {
    tools: async (names) => {
      const on = new Set(names);
      const loggedIn = Boolean(ctx.settings.get('user'));
      // Every system function runs on the server: the built-ins and the other plugins'.
      const system = loggedIn ? [...BUILTIN_FUNCTIONS, ...added()].filter((f) => on.has(f.name)) : [];
      const systemOnes = systemNames();
      const helper = (await mcpTools()).filter((tool) => on.has(tool.name) && !systemOnes.includes(tool.name));
      return [...system, ...helper].map((f) => ({ name: f.name, description: f.description, parameters: f.parameters as Record<string, unknown> | undefined }));
    },
    call: async (name, args, signal) => {
      const [result] = await runCalls(ctx, [{ name, argsText: JSON.stringify(args ?? {}) }], mcpTools, signal);
      if (!result?.success) return { result: `Error: ${result?.error ?? ctx.t('msg.noResult')}` };
      return { result: result.message ?? '', ...(result.event ? { event: result.event } : {}) };
    },
  });

  ctx.services.provide(FunctionRunnerRef, {
    run: async (calls, signal) => {
      if (calls.length > MAX_CALLS) return [error(t('msg.tooMany', { max: MAX_CALLS }))];
      const results = await runCalls(ctx, calls, mcpTools, signal);
      return render(results, ctx.t);
    },
  });
}

const callText = (call: FunctionCall) => `${call.name}(${call.argsText})`;

async function runCalls(
  ctx: PluginContext,
  calls: FunctionCall[],
  mcpTools: () => Promise<McpTool[]>,
  signal?: AbortSignal,
): Promise<ExecResult[]> {
  const results: (ExecResult | undefined)[] = calls.map(() => undefined);
  const server: { index: number; name: string; args: Record<string, unknown> }[] = [];
  const local: Promise<void>[] = [];
  const system = [...BUILTIN_NAMES, ...ctx.manifests().flatMap((m) => (m.functions ?? []).map((f) => f.name))];
  const tools = calls.some((c) => !system.includes(c.name)) ? await mcpTools() : [];
  calls.forEach((call, index) => {
    const parsed = parseArgs(call.argsText);
    if (!parsed.ok) {
      results[index] = failure(callText(call), MESSAGES.badArgs(call.name, parsed.error));
      return;
    }
    const client = ctx.services.maybe(McpRef);
    if (!system.includes(call.name) && client && tools.some((tool) => tool.name === call.name)) {
      // The local MCP helper's tools run from the browser, never through the server.
      local.push(
        client.call(call.name, parsed.args, signal).then(
          (message) => void (results[index] = { success: true, function: callText(call), message }),
          (err: unknown) => void (results[index] = failure(callText(call), err instanceof Error ? err.message : String(err))),
        ),
      );
      return;
    }
    server.push({ index, name: call.name, args: parsed.args });
  });
  if (server.length) {
    try {
      const api = typedClient<FunctionRoutes>(ctx.services.get(PlatformRef).api).api.function;
      const answer = await send(api.exec.$post({ json: { functions: server.map(({ name, args }) => ({ name, args })) } }));
      server.forEach(({ index }, i) => {
        // Nested message data reads back as JSON values in the client's type: it is ExecResult as sent.
        const r = answer.function_results[i] as ExecResult | undefined;
        results[index] = r ? { ...r, function: callText(calls[index]!) } : failure(callText(calls[index]!), ctx.t('msg.noResult'));
      });
    } catch (err) {
      const message = err instanceof ApiError ? err.message : String(err);
      for (const { index } of server) results[index] = failure(callText(calls[index]!), message);
    }
  }
  await Promise.all(local);
  return results.map((r, i) => r ?? failure(callText(calls[i]!), ctx.t('msg.noResult')));
}

/** Another namespace's message stays in English here (its text), as the runner has only its own strings. */
const english: Translate = (_key, vars) => String(vars?.defaultValue ?? '');

/** A failure's error in the interface's language when it is one of the functions' messages (by its code), else as it came. */
function errorText(r: ExecResult, t: Translate): string {
  const error = r.error ?? '';
  if (!r.code || splitCode(r.code)[0] !== 'function') return error;
  return translateMessage({ code: r.code, params: r.params ?? {}, text: error }, (ns) => (ns === 'function' ? t : english));
}

/**
 * One result prints its message or error; several print as blocks headed `!<call>`. Redirects
 * open. An error the server words (the functions' messages) shows in the interface's language.
 */
function render(results: ExecResult[], t: Translate): Output[] {
  const outputs: Output[] = [];
  const several = results.length > 1;
  for (const r of results) {
    // One failure with a code goes to the host as it is, translated there whatever its namespace.
    if (!several && !r.success && r.code) {
      outputs.push(error({ code: r.code, params: r.params ?? {}, text: r.error ?? '' }));
      continue;
    }
    const body = r.success ? (r.message ?? '') : errorText(r, t);
    const shown = several ? `!${r.function}\n${body}` : body;
    outputs.push(r.success ? text(shown) : error(shown));
  }
  for (const r of results) {
    if (r.success && r.event?.name === 'redirect') outputs.push(effect({ type: 'open', url: r.event.parameters.url, blank: r.event.parameters.blank }));
  }
  return outputs;
}
