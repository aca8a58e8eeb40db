// The direct relay for OpenAI-compatible chat-completion streams, the wire format of most
// system models (OpenAI-compatible servers: vLLM, llama.cpp, LM Studio, OpenRouter...).
// Why it exists: the AI SDK's streamText costs ~25 µs of server CPU per relayed token (web
// streams and a zod validation per chunk) against ~2 µs for a bare relay (benchmark B5).
// This path reads the provider's SSE with the shared chat-stream reader (src/core/api/
// chatStream.ts: eventsource-parser, one JSON read per event) and hands one text part per
// network read to a sink, synchronously inside the read's callback (no async iterator between
// the socket and the browser's response). The parts have the
// shapes of streamText's fullStream parts, so the turn (../turn/streamAnswer.ts) treats both
// alike, and the server-tool loop follows the same rule. Every other provider kind, and this
// one with STREAM_RELAY=sdk, goes through the AI SDK (sdkStream.ts).
import { MessageError, type Message } from '../../core/messages.ts';
import { SERVER_MESSAGES } from '../../core/serverMessages.ts';
import type { ModelMessage } from 'ai';
import type { ToolChoice } from '../../core/index.ts';
import type { ModelEntry } from '../models/systemModels.ts';
import { chatStreamReader, type StreamFailure, type StreamedCall } from '../../core/api/chatStream.ts';
import { CutShortError, viaFetch, viaSystem, type ChunkResult } from './upstream.ts';

/** The stream parts the turn reads: the subset of the AI SDK's fullStream parts it uses. */
export type RelayPart =
  | { type: 'start-step' }
  | { type: 'text-delta'; text: string }
  | { type: 'tool-call'; toolCallId: string; toolName: string; input: unknown }
  | { type: 'tool-result'; toolCallId: string; output: unknown }
  | { type: 'tool-error'; toolCallId: string; error: unknown }
  | { type: 'finish'; totalUsage: { inputTokens: number; outputTokens: number } }
  | { type: 'error'; error: unknown };

/** A provider's HTTP error, with the fields the AI SDK's APICallError has (retry.ts and the turn read them). */
export class ProviderError extends MessageError {
  readonly statusCode: number | undefined;
  readonly responseHeaders: Record<string, string>;
  readonly responseBody: string;
  constructor(message: string | Message, statusCode: number | undefined, responseHeaders: Record<string, string>, responseBody: string) {
    super(message);
    this.statusCode = statusCode;
    this.responseHeaders = responseHeaders;
    this.responseBody = responseBody;
  }
}

export interface RelayTool {
  description: string;
  parameters: unknown;
  /** Absent for tools the browser runs: a call to one ends the turn. */
  execute?: (input: unknown) => Promise<unknown>;
}

export interface DirectStreamOptions {
  entry: ModelEntry;
  /** The egress-safe fetch for user and group models; absent for the operator's system models. */
  fetch?: typeof fetch;
  messages: ModelMessage[];
  tools: Record<string, RelayTool>;
  temperature: number;
  topP: number;
  maxSteps: number;
  signal: AbortSignal;
  /** The caller's tool choice (a server turn's: ServerTurnInput.toolChoice); the provider's default otherwise. */
  toolChoice?: ToolChoice;
}

type WireMessage = Record<string, unknown>;

const toolOutput = (output: { type: string; value?: unknown; reason?: string }): string =>
  output.type === 'text' || output.type === 'error-text' ? String(output.value) : JSON.stringify(output.value ?? output.reason ?? '');

/** ModelMessages (as buildMessages makes them) in the chat-completions format. */
export function toWireMessages(messages: ModelMessage[]): WireMessage[] {
  const wire: WireMessage[] = [];
  for (const m of messages) {
    if (m.role === 'system') {
      wire.push({ role: 'system', content: m.content });
    } else if (m.role === 'user') {
      if (typeof m.content === 'string') {
        wire.push({ role: 'user', content: m.content });
        continue;
      }
      const content = m.content.map((part) => {
        if (part.type === 'text') return { type: 'text', text: part.text };
        if (part.type === 'image') return { type: 'image_url', image_url: { url: String(part.image) } };
        throw new Error(`Unsupported content part: ${part.type}`);
      });
      wire.push({ role: 'user', content });
    } else if (m.role === 'assistant') {
      if (typeof m.content === 'string') {
        wire.push({ role: 'assistant', content: m.content });
        continue;
      }
      let text = '';
      const toolCalls: WireMessage[] = [];
      for (const part of m.content) {
        if (part.type === 'text') text += part.text;
        if (part.type === 'tool-call') {
          toolCalls.push({ id: part.toolCallId, type: 'function', function: { name: part.toolName, arguments: JSON.stringify(part.input ?? {}) } });
        }
      }
      wire.push(toolCalls.length ? { role: 'assistant', content: text || null, tool_calls: toolCalls } : { role: 'assistant', content: text });
    } else if (m.role === 'tool') {
      for (const part of m.content) {
        if (part.type === 'tool-result') wire.push({ role: 'tool', tool_call_id: part.toolCallId, content: toolOutput(part.output as never) });
      }
    }
  }
  return wire;
}

/** Receives the turn's parts; a promise it returns holds the reading back until it settles. */
export type PartSink = (part: RelayPart) => void | Promise<void>;

/** What one step (one request to the provider) ended with. */
interface StepEnd {
  calls: StreamedCall[];
  usage: { inputTokens: number; outputTokens: number };
  finished: boolean;
}

/** The reader's failure as the provider's error the turn shows. */
const streamError = (failure: StreamFailure) =>
  failure.kind === 'malformed'
    ? new ProviderError(SERVER_MESSAGES.malformedStream, undefined, {}, failure.sample)
    : new ProviderError(SERVER_MESSAGES.providerReported(failure.message), undefined, {}, failure.message);

/** A read that failed once the answer had started: a cut connection says so plainly. */
function readFailure(err: unknown): unknown {
  const e = err as { code?: string; message?: string };
  if (err instanceof CutShortError || e?.code === 'ECONNRESET' || e?.message === 'aborted') {
    return new ProviderError(SERVER_MESSAGES.cutShort, undefined, {}, '');
  }
  return err;
}

/**
 * One request's stream: a text part per network read (the deltas of the events it completed),
 * then the step's tool calls and usage in `end`. Returns false when it ended in an error part.
 */
async function streamStep(o: DirectStreamOptions, messages: WireMessage[], end: StepEnd, sink: PartSink): Promise<boolean> {
  const tools = Object.entries(o.tools);
  const body = {
    model: o.entry.model,
    messages,
    stream: true,
    stream_options: { include_usage: true },
    temperature: o.temperature,
    top_p: o.topP,
    ...(tools.length
      ? { tools: tools.map(([name, t]) => ({ type: 'function', function: { name, description: t.description, parameters: t.parameters } })) }
      : {}),
    ...(tools.length && o.toolChoice ? { tool_choice: typeof o.toolChoice === 'string' ? o.toolChoice : { type: 'function', function: { name: o.toolChoice.name } } } : {}),
  };
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'text/event-stream' };
  if (o.entry.apiKey) headers.authorization = `Bearer ${o.entry.apiKey}`;
  const fail = async (error: unknown) => {
    await sink({ type: 'error', error });
    return false;
  };
  let upstream;
  try {
    upstream = await (o.fetch ? viaFetch(o.fetch) : viaSystem)(`${o.entry.baseUrl}/chat/completions`, headers, JSON.stringify(body), o.signal);
  } catch (err) {
    if (o.signal.aborted) throw err;
    // fetch's own "fetch failed" says nothing: name the cause, as the AI SDK does.
    const cause = (err as { cause?: { message?: string } }).cause?.message ?? (err instanceof TypeError ? undefined : (err as Error)?.message);
    return fail(cause ? new Error(`Cannot connect to API: ${cause}`) : err);
  }
  if (upstream.status >= 400) {
    return fail(new ProviderError(`The model provider answered ${upstream.status}.`, upstream.status, upstream.headers, await upstream.text()));
  }

  const reader = chatStreamReader();
  // The text of one network read goes on as one part.
  const flushText = () => {
    const delta = reader.takeText();
    if (!delta) return;
    const held = sink({ type: 'text-delta', text: delta });
    if (held) upstream.hold(held);
  };
  let stopped = false;
  try {
    await upstream.pump((chunk): ChunkResult => {
      reader.feed(chunk);
      flushText();
      if (reader.failure === undefined) return;
      stopped = true;
      return 'stop';
    });
  } catch (err) {
    if (o.signal.aborted) throw err;
    flushText();
    return fail(readFailure(err));
  }
  flushText();
  if (stopped) return fail(streamError(reader.failure!));
  end.usage.inputTokens += reader.usage.inputTokens;
  end.usage.outputTokens += reader.usage.outputTokens;
  end.finished = reader.finished;
  if (!end.finished) return fail(new ProviderError(SERVER_MESSAGES.cutShort, undefined, {}, ''));
  end.calls = reader.calls();
  return true;
}

function parseArgs(args: string): unknown {
  return args.trim() ? JSON.parse(args) : {};
}

/**
 * The whole turn, handed part by part to `sink`: steps until the model answers without calling
 * a tool that runs here, or `maxSteps` requests have been made (the same stop rule as
 * streamText's stepCountIs). An error part is the last part.
 */
export async function directChatStream(o: DirectStreamOptions, sink: PartSink): Promise<void> {
  const messages = toWireMessages(o.messages);
  const total = { inputTokens: 0, outputTokens: 0 };
  const hasTools = Object.keys(o.tools).length > 0;
  for (let step = 0; step < o.maxSteps; step++) {
    await sink({ type: 'start-step' });
    const end: StepEnd = { calls: [], usage: { inputTokens: 0, outputTokens: 0 }, finished: false };
    // The step's text goes back to the model with the results of the tools it called; without
    // tools to offer there is no next step, and the answer is not kept twice.
    let text = '';
    const keepText: PartSink = (part) => {
      if (part.type === 'text-delta') text += part.text;
      return sink(part);
    };
    const ok = await streamStep(o, messages, end, hasTools ? keepText : sink);
    if (!ok) return;
    total.inputTokens += end.usage.inputTokens;
    total.outputTokens += end.usage.outputTokens;
    if (!end.calls.length) break;
    const results: WireMessage[] = [];
    let allRan = true;
    for (const call of end.calls) {
      let input: unknown;
      try {
        input = parseArgs(call.args);
      } catch {
        input = call.args;
      }
      await sink({ type: 'tool-call', toolCallId: call.id, toolName: call.name, input });
      const execute = o.tools[call.name]?.execute;
      if (!execute) {
        allRan = false;
        continue;
      }
      let content: string;
      try {
        if (typeof input === 'string') throw new Error(`Invalid arguments for ${call.name}: not JSON.`);
        const output = await execute(input);
        content = typeof output === 'string' ? output : JSON.stringify(output);
        await sink({ type: 'tool-result', toolCallId: call.id, output });
      } catch (error) {
        content = `Error: ${(error as Error)?.message ?? String(error)}`;
        await sink({ type: 'tool-error', toolCallId: call.id, error });
      }
      results.push({ role: 'tool', tool_call_id: call.id, content });
    }
    // A call the browser runs ends the turn; the browser sends it again with the results.
    if (!allRan) break;
    messages.push(
      {
        role: 'assistant',
        content: text || null,
        tool_calls: end.calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.args || '{}' } })),
      },
      ...results,
    );
  }
  await sink({ type: 'finish', totalUsage: total });
}
