import { Message, type MessageData } from './messages.ts';
// The generation protocol shared by the server and every client (spec parts 4 and 7): the
// request fields, and the stream's message kinds, each sent as one SSE event with JSON data.

export interface Stats {
  temperature: number;
  top_p: number;
  token_ct: number;
  func: string;
  /** `used/memLength`: how many past logs went into the context. */
  mem: string;
  role: string;
  stores: string;
  node: string;
  eval: string;
}

export interface ToolCall {
  id: string;
  name: string;
  /** The arguments as JSON text. */
  args: string;
}

export interface ToolResult extends ToolCall {
  /** The tool's output as text (JSON or plain). */
  result: string;
}

export interface RedirectEvent {
  name: 'redirect';
  parameters: { url: string; blank: boolean };
}

/** One message of the stream. `text` carries answer deltas; the others are spec part 4's kinds. */
export type GenerationEvent =
  | { type: 'text'; delta: string }
  | { type: 'model'; model: string }
  | { type: 'status'; text: string; message?: MessageData }
  | { type: 'stats'; stats: Stats }
  | { type: 'image'; url: string }
  | { type: 'call'; calls: ToolCall[] }
  | { type: 'event'; event: RedirectEvent }
  | { type: 'eval'; score: number | null; reason: string }
  /** `message`: the error is a catalogue message (shown by its code in the person's language);
   *  `retryAt`: when a refused question may be asked again (epoch ms), when the refusal knows,
   *  for the server's own routes (an API's Retry-After); not sent to the page. */
  | { type: 'error'; error: string; message?: MessageData; retryAt?: number }
  | { type: 'clear' }
  | { type: 'done'; session: number; time: number; tool_calls?: ToolCall[] };

export const GENERATION_EVENT_TYPES = ['text', 'model', 'status', 'stats', 'image', 'call', 'event', 'eval', 'error', 'clear', 'done'] as const;

/** The request of /api/generate_sse, /api/generate and /api/generate_msg (spec part 7). */
export interface GenerateRequest {
  user_input: string;
  images?: string[];
  files?: string[];
  /** The log the user is looking at (its time), or the latest; sending from an older log branches. */
  time?: number;
  session: number;
  model?: string;
  mem_length?: number;
  functions?: string;
  /** Tools the browser runs through the local MCP helper (name, description, JSON schema). */
  mcp_tools?: { name: string; description?: string; parameters?: unknown }[];
  role?: string;
  stores?: string;
  node?: string;
  use_stats?: boolean;
  use_eval?: boolean;
  use_location?: boolean;
  location?: string;
  lang?: string;
  use_system_role?: boolean;
  /** A tool-call round trip: the calls the model asked for and the client's results. */
  tool_results?: ToolResult[];
}

/** What /api/generate answers (spec part 7). */
export interface GenerateResult {
  events: RedirectEvent[];
  tool_calls: ToolCall[];
  images: string[];
  text: string;
  stats: Stats;
  info: { model: string; session: number; time: number };
  eval?: { score: number | null; reason: string };
  /** The turn's tokens and cost (a server turn's only: ServerTurnInput). */
  usage?: { inputTokens: number; outputTokens: number; cost: number };
}

/** Rounds of tool calls within one turn, on the server and in the browser, before giving up. */
export const MAX_TOOL_ROUNDS = 5;


/** The error event of a turn: the English text, and the message's code when it is one. */
export function errorEvent(said: string | Message, retryAt?: number): Extract<GenerationEvent, { type: 'error' }> {
  const event: Extract<GenerationEvent, { type: 'error' }> = said instanceof Message ? { type: 'error', error: said.text, message: said.toData() } : { type: 'error', error: said };
  if (retryAt !== undefined) event.retryAt = retryAt;
  return event;
}

/** A status line: the operator's own text, or a default's message (shown in the person's language). */
export function statusEvent(said: string | Message): Extract<GenerationEvent, { type: 'status' }> {
  return said instanceof Message ? { type: 'status', text: said.text, message: said.toData() } : { type: 'status', text: said };
}
