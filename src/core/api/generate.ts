// Request schema of the generation endpoints (server validation). zod stays out of the first paint.
import { z } from 'zod';
import { MEM_LENGTH_MAX, USER_INPUT_MAX } from '../constants.ts';
import { MAX_TOOL_ROUNDS } from '../generation.ts';

const toolCall = z.object({ id: z.string().max(128), name: z.string().max(128), args: z.string().max(100_000) });

export const generateBody = z.object({
  user_input: z.string().max(USER_INPUT_MAX, { error: `The input is too long: at most ${USER_INPUT_MAX.toLocaleString('en-US')} characters.` }),
  images: z.array(z.string().max(4096)).max(16).optional(),
  files: z.array(z.string().max(4096)).max(16).optional(),
  time: z.number().int().nonnegative().optional(),
  session: z.number().int().positive(),
  model: z.string().max(128).optional(),
  mem_length: z.number().int().min(0).max(MEM_LENGTH_MAX).optional(),
  functions: z.string().max(2048).optional(),
  mcp_tools: z.array(z.object({ name: z.string().max(128), description: z.string().max(4096).optional(), parameters: z.unknown().optional() })).max(128).optional(),
  role: z.string().max(128).optional(),
  stores: z.string().max(512).optional(),
  node: z.string().max(128).optional(),
  use_stats: z.boolean().optional(),
  use_eval: z.boolean().optional(),
  use_location: z.boolean().optional(),
  location: z.string().max(256).optional(),
  lang: z.string().max(16).optional(),
  use_system_role: z.boolean().optional(),
  tool_results: z.array(toolCall.extend({ result: z.string().max(100_000) })).max(32).optional(),
});

/** GET /api/generate_sse carries the same fields in the query string (spec part 7). */
export function generateQueryToBody(query: Record<string, string>): unknown {
  const bool = (v: string | undefined) => (v === undefined ? undefined : v === 'true' || v === '1');
  const num = (v: string | undefined) => (v === undefined || v === '' ? undefined : Number(v));
  const list = (v: string | undefined) => (v ? v.split('###').map(decodeURIComponent).filter(Boolean) : undefined);
  const json = (v: string | undefined) => {
    if (!v) return undefined;
    try {
      return JSON.parse(v);
    } catch {
      return v;
    }
  };
  return {
    user_input: query.user_input ?? '',
    images: list(query.images),
    files: list(query.files),
    time: num(query.time),
    session: num(query.session),
    model: query.model,
    mem_length: num(query.mem_length),
    functions: query.functions,
    mcp_tools: json(query.mcp_tools),
    role: query.role,
    stores: query.stores,
    node: query.node,
    use_stats: bool(query.use_stats),
    use_eval: bool(query.use_eval),
    use_location: bool(query.use_location),
    location: query.location,
    lang: query.lang,
    use_system_role: bool(query.use_system_role),
  };
}

export const logAddBody = z.object({
  input: z.string().max(USER_INPUT_MAX),
  output: z.string().max(1_000_000),
  model: z.string().max(128),
  session: z.number().int().positive(),
  images: z.array(z.string().max(4096)).max(16).optional(),
  time: z.number().int().positive().optional(),
  /** The tool calls of a local model's turn, with their results (they count in memory). */
  tools: z
    .array(z.object({ id: z.string().max(256), name: z.string().max(256), args: z.string().max(100_000), result: z.string().max(200_000) }))
    .max(MAX_TOOL_ROUNDS * 16)
    .optional(),
});
