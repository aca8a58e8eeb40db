// The built-in functions on the server (spec part 9): registered as server tools for the
// tool-call loop, and POST /api/function/exec for direct `!` calls (login required, unlike the
// original). The data sources are operator configuration (its own variables, ./env.ts), fetched with
// plain fetch; redirect_to_url never fetches anything.
import { Hono } from 'hono';
import { z } from 'zod';
import { saidBy, type AppEnv, type Message, type ServerPluginContext, type ServerPluginModule, type ServerTool } from '../../../src/core/index.ts';
import { BUILTIN_FUNCTIONS, failure, parseArgs, type ExecResult } from '../common/functions.ts';
import { askWolframalpha } from './builtins/askWolframalpha.ts';
import { getTime } from './builtins/getTime.ts';
import { getWeather } from './builtins/getWeather.ts';
import { redirectToUrl } from './builtins/redirectToUrl.ts';
import { FunctionError, type Builtin } from './builtins/shared.ts';
import { MESSAGES } from '../common/messages.ts';
import functionEnv from './env.ts';

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
function parseCall(call: z.infer<typeof callSchema>): { text: string; name: string; args?: Record<string, unknown>; error?: Message } {
  if (typeof call !== 'string') return { text: `${call.name}(${JSON.stringify(call.args ?? {})})`, name: call.name, args: call.args ?? {} };
  const m = /^\s*([A-Za-z_][\w.-]*)\s*\(([\s\S]*)\)\s*$/.exec(call);
  if (!m) return { text: call, name: '', error: MESSAGES.invalid };
  const parsed = parseArgs(m[2]!);
  if (!parsed.ok) return { text: call, name: m[1]!, error: MESSAGES.badArgs(m[1]!, parsed.error) };
  return { text: call, name: m[1]!, args: parsed.args };
}

/** The built-ins as server tools, by name: what the model calls and what the exec route runs. */
function functionTools(ctx: ServerPluginContext): Map<string, ServerTool> {
  const config = functionEnv.of(ctx);
  const tools = new Map<string, ServerTool>();
  for (const spec of BUILTIN_FUNCTIONS) {
    const run = BUILTINS[spec.name]!;
    tools.set(spec.name, {
      description: spec.description,
      parameters: spec.parameters,
      execute: async (args, { user, signal }) => {
        const input = args && typeof args === 'object' && !Array.isArray(args) ? (args as Record<string, unknown>) : {};
        try {
          return await run(input, { user, signal, config });
        } catch (err) {
          if (err instanceof FunctionError) throw err;
          ctx.log.warn({ fn: spec.name, err: { message: String((err as Error)?.message) } }, 'function failed');
          // The model sees the reason and may answer accordingly; an unexpected failure says only that.
          throw new FunctionError(MESSAGES.failed);
        }
      },
    });
  }
  return tools;
}

/** The function API's route; the browser's client is typed from it (FunctionRoutes). */
export function functionRoutes(ctx: ServerPluginContext) {
  const tools = functionTools(ctx);

  /** One call: its result, or why it failed (the functions' messages keep their codes). */
  const runOne = async (call: z.infer<typeof callSchema>, context: Parameters<ServerTool['execute']>[1]): Promise<ExecResult> => {
    const parsed = parseCall(call);
    if (parsed.error) return failure(parsed.text, parsed.error);
    // A built-in, or a system function another plugin added: a local model's toolbox calls both.
    const serverTool = tools.get(parsed.name) ?? ctx.generation.tool(parsed.name);
    if (!serverTool) return failure(parsed.text, MESSAGES.notFound);
    try {
      const out = await serverTool.execute(parsed.args ?? {}, context);
      return { success: true, function: parsed.text, message: out.result, ...(out.event ? { event: out.event } : {}) };
    } catch (err) {
      return failure(parsed.text, saidBy(err));
    }
  };

  return new Hono<AppEnv>().post('/api/function/exec', ctx.requireUser, ctx.validate('json', execBody), async (c) => {
    const context = { user: c.get('user'), signal: c.req.raw.signal };
    const function_results = await Promise.all(c.req.valid('json').functions.map((call) => runOne(call, context)));
    // Spec part 3's answer: `error` and `function_results` beside `success`, and in `result` too.
    return c.json({ success: true as const, error: '', function_results, result: { function_results } }, 200);
  });
}

export type FunctionRoutes = ReturnType<typeof functionRoutes>;

const plugin: ServerPluginModule = {
  routes: functionRoutes,
  register(ctx) {
    for (const [name, serverTool] of functionTools(ctx)) ctx.generation.addTool(name, serverTool);
  },
};

export default plugin;
