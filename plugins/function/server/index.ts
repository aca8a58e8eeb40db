// The built-in functions on the server (spec part 9): registered as server tools for the
// tool-call loop, and POST /api/function/exec for direct `!` calls (login required, unlike the
// original). The data sources are operator configuration (ctx.config.functions), fetched with
// plain fetch; redirect_to_url never fetches anything.
import { z } from 'zod';
import type { FunctionResult, ServerPluginModule, ServerTool } from '../../../src/core/index.ts';
import { BUILTIN_FUNCTIONS, parseArgs } from '../common/functions.ts';
import { askWolframalpha } from './builtins/askWolframalpha.ts';
import { getTime } from './builtins/getTime.ts';
import { getWeather } from './builtins/getWeather.ts';
import { redirectToUrl } from './builtins/redirectToUrl.ts';
import { FunctionError, type Builtin } from './builtins/shared.ts';
import { MESSAGES } from '../common/messageCatalogue.ts';

const BUILTINS: Record<string, Builtin> = {
  get_time: getTime,
  get_weather: getWeather,
  ask_wolframalpha: askWolframalpha,
  redirect_to_url: redirectToUrl,
};

export const MAX_CALLS = 10;

const callSchema = z.union([
  // The spec's form: "name(jsonargs)".
  z.string().max(10_000),
  // The structured form the browser sends.
  z.object({ name: z.string().max(256), args: z.record(z.string(), z.unknown()).optional() }),
]);
const execBody = z.object({ functions: z.array(callSchema).min(1).max(MAX_CALLS) });

/** "name(jsonargs)" → name and args, or the reason it is not a call. */
function parseCall(call: z.infer<typeof callSchema>): { text: string; name: string; args?: Record<string, unknown>; error?: string } {
  if (typeof call !== 'string') return { text: `${call.name}(${JSON.stringify(call.args ?? {})})`, name: call.name, args: call.args ?? {} };
  const m = /^\s*([A-Za-z_][\w.-]*)\s*\(([\s\S]*)\)\s*$/.exec(call);
  if (!m) return { text: call, name: '', error: MESSAGES.invalid };
  const parsed = parseArgs(m[2]!);
  if (!parsed.ok) return { text: call, name: m[1]!, error: MESSAGES.badArgs(m[1]!, parsed.error) };
  return { text: call, name: m[1]!, args: parsed.args };
}

const messageOf = (err: unknown) => (err instanceof FunctionError ? err.message : MESSAGES.failed);

const plugin: ServerPluginModule = {
  register(ctx) {
    const config = ctx.config.functions;
    const tools = new Map<string, ServerTool>();
    for (const spec of BUILTIN_FUNCTIONS) {
      const run = BUILTINS[spec.name]!;
      const serverTool: ServerTool = {
        description: spec.description,
        parameters: spec.parameters,
        execute: async (args, { user, signal }) => {
          const input = args && typeof args === 'object' && !Array.isArray(args) ? (args as Record<string, unknown>) : {};
          try {
            return await run(input, { user, signal, config });
          } catch (err) {
            if (!(err instanceof FunctionError)) ctx.log.warn({ fn: spec.name, err: { message: String((err as Error)?.message) } }, 'function failed');
            // The model sees the reason and may answer accordingly.
            throw new Error(messageOf(err));
          }
        },
      };
      tools.set(spec.name, serverTool);
      ctx.generation.addTool(spec.name, serverTool);
    }

    ctx.app.post('/api/function/exec', ctx.requireUser, ctx.validate('json', execBody), async (c) => {
      const user = c.get('user');
      const signal = c.req.raw.signal;
      const { functions } = c.req.valid('json');
      const function_results: FunctionResult[] = await Promise.all(
        functions.map(async (call): Promise<FunctionResult> => {
          const parsed = parseCall(call);
          if (parsed.error) return { success: false, function: parsed.text, error: parsed.error };
          const serverTool = tools.get(parsed.name);
          if (!serverTool) return { success: false, function: parsed.text, error: MESSAGES.notFound };
          try {
            const out = await serverTool.execute(parsed.args ?? {}, { user, signal });
            return { success: true, function: parsed.text, message: out.result, ...(out.event ? { event: out.event } : {}) };
          } catch (err) {
            return { success: false, function: parsed.text, error: err instanceof Error ? err.message : String(err) };
          }
        }),
      );
      return c.json({ success: true, error: '', function_results, result: { function_results } });
    });
  },
};

export default plugin;
