// The direct relay for OpenAI-compatible chat-completion streams, the wire format of most
// system models (OpenAI-compatible servers: vLLM, llama.cpp, LM Studio, OpenRouter...).
// Why it exists: the AI SDK's streamText costs ~25 µs of server CPU per relayed token (web
// streams and a zod validation per chunk) against ~2 µs for a bare relay (benchmark B5).
// This path reads the provider's SSE with a small line parser, one JSON.parse per chunk, and
// yields one text part per network read. It yields the same part shapes as streamText's
// fullStream, so run.ts treats both alike, and runs the same server-tool loop. Every other
// provider kind, and this one with STREAM_RELAY=sdk, goes through the AI SDK.
import type { ModelMessage } from 'ai';
import { request } from 'undici';
import type { ModelEntry } from '../models/systemModels.ts';

/** The stream parts run.ts reads: the subset of the AI SDK's fullStream parts it uses. */
export type RelayPart =
  | { type: 'start-step' }
  | { type: 'text-delta'; text: string }
  | { type: 'tool-call'; toolCallId: string; toolName: string; input: unknown }
  | { type: 'tool-result'; toolCallId: string; output: unknown }
  | { type: 'tool-error'; toolCallId: string; error: unknown }
  | { type: 'finish'; totalUsage: { inputTokens: number; outputTokens: number } }
  | { type: 'error'; error: unknown };

/** A provider's HTTP error, with the fields the AI SDK's APICallError has (run.ts reads them). */
export class ProviderError extends Error {
  readonly statusCode: number | undefined;
  readonly responseHeaders: Record<string, string>;
  readonly responseBody: string;
  constructor(message: string, statusCode: number | undefined, responseHeaders: Record<string, string>, responseBody: string) {
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

interface PendingCall {
  id: string;
  name: string;
  args: string;
}

/** What one step (one request to the provider) ended with. */
interface StepEnd {
  calls: PendingCall[];
  usage: { inputTokens: number; outputTokens: number };
  finished: boolean;
}

/** The provider's answer, whichever client fetched it. */
interface Upstream {
  status: number;
  headers: Record<string, string>;
  body: AsyncIterable<Uint8Array>;
  text(): Promise<string>;
}

type Send = (url: string, headers: Record<string, string>, body: string, signal: AbortSignal) => Promise<Upstream>;

/** User and group models: through the egress-safe fetch (vetted addresses, size limits). */
const viaFetch =
  (fetchImpl: typeof fetch): Send =>
  async (url, headers, body, signal) => {
    const response = await fetchImpl(url, { method: 'POST', headers, body, signal });
    const responseHeaders: Record<string, string> = {};
    response.headers.forEach((value, key) => (responseHeaders[key] = value));
    const stream = response.body;
    return {
      status: response.status,
      headers: responseHeaders,
      body: (stream ?? []) as AsyncIterable<Uint8Array>,
      text: () => response.text().catch(() => ''),
    };
  };

/**
 * The operator's system models: undici's request() hands over a Node stream, which costs
 * less per network read than fetch's web stream (the relay's cost is per read when tokens
 * arrive one at a time).
 */
const viaUndici: Send = async (url, headers, body, signal) => {
  const response = await request(url, { method: 'POST', headers, body, signal });
  const responseHeaders: Record<string, string> = {};
  for (const [key, value] of Object.entries(response.headers)) if (typeof value === 'string') responseHeaders[key] = value;
  return { status: response.statusCode, headers: responseHeaders, body: response.body, text: () => response.body.text().catch(() => '') };
};

/**
 * One request's stream: text parts as they arrive (one per network read), then the step's
 * tool calls and usage in `end`.
 */
async function* streamStep(o: DirectStreamOptions, messages: WireMessage[], end: StepEnd): AsyncGenerator<RelayPart> {
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
  };
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'text/event-stream' };
  if (o.entry.apiKey) headers.authorization = `Bearer ${o.entry.apiKey}`;
  let upstream: Upstream;
  try {
    upstream = await (o.fetch ? viaFetch(o.fetch) : viaUndici)(`${o.entry.baseUrl}/chat/completions`, headers, JSON.stringify(body), o.signal);
  } catch (err) {
    if (o.signal.aborted) throw err;
    // fetch's own "fetch failed" says nothing: name the cause, as the AI SDK does.
    const cause = (err as { cause?: { message?: string } }).cause?.message ?? (err instanceof TypeError ? undefined : (err as Error)?.message);
    yield { type: 'error', error: cause ? new Error(`Cannot connect to API: ${cause}`) : err };
    return;
  }
  if (upstream.status >= 400) {
    yield { type: 'error', error: new ProviderError(`The model provider answered ${upstream.status}.`, upstream.status, upstream.headers, await upstream.text()) };
    return;
  }
  const calls: PendingCall[] = [];
  const decoder = new TextDecoder();
  let buffer = '';
  let data = '';
  for await (const chunk of upstream.body) {
    buffer += decoder.decode(chunk, { stream: true });
    let text = '';
    let start = 0;
    for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n', start)) {
      let line = buffer.slice(start, nl);
      start = nl + 1;
      if (line.endsWith('\r')) line = line.slice(0, -1);
      if (line.startsWith('data:')) {
        data += (data ? '\n' : '') + line.slice(line.charCodeAt(5) === 32 ? 6 : 5);
        continue;
      }
      if (line !== '' || !data) continue;
      // A blank line ends an event.
      const event = data;
      data = '';
      if (event === '[DONE]') {
        end.finished = true;
        continue;
      }
      let chunkJson: {
        error?: { message?: string };
        choices?: { delta?: { content?: string | null; tool_calls?: { index?: number; id?: string; function?: { name?: string; arguments?: string } }[] }; finish_reason?: string | null }[];
        usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
      };
      try {
        chunkJson = JSON.parse(event);
      } catch {
        yield { type: 'error', error: new ProviderError('The model provider sent a malformed stream.', undefined, {}, event.slice(0, 200)) };
        return;
      }
      if (chunkJson.error) {
        yield { type: 'error', error: new ProviderError(`The model provider reported: ${chunkJson.error.message ?? 'an error'}.`, undefined, {}, event) };
        return;
      }
      const choice = chunkJson.choices?.[0];
      if (choice) {
        const delta = choice.delta;
        if (delta?.content) text += delta.content;
        for (const call of delta?.tool_calls ?? []) {
          const index = call.index ?? calls.length;
          const pending = (calls[index] ??= { id: '', name: '', args: '' });
          if (call.id) pending.id = call.id;
          if (call.function?.name) pending.name += call.function.name;
          if (call.function?.arguments) pending.args += call.function.arguments;
        }
        if (choice.finish_reason) end.finished = true;
      }
      if (chunkJson.usage) {
        end.usage.inputTokens += chunkJson.usage.prompt_tokens ?? 0;
        end.usage.outputTokens += chunkJson.usage.completion_tokens ?? 0;
      }
    }
    buffer = buffer.slice(start);
    if (text) yield { type: 'text-delta', text };
  }
  if (!end.finished) {
    yield { type: 'error', error: new ProviderError('The model provider ended the stream early.', undefined, {}, '') };
    return;
  }
  end.calls = calls.filter(Boolean).map((c, i) => ({ ...c, id: c.id || `call_${i}` }));
}

function parseArgs(args: string): unknown {
  return args.trim() ? JSON.parse(args) : {};
}

/**
 * The whole turn: steps until the model answers without calling a tool that runs here, or
 * `maxSteps` requests have been made (the same stop rule as streamText's stepCountIs).
 */
export async function* directChatStream(o: DirectStreamOptions): AsyncGenerator<RelayPart> {
  const messages = toWireMessages(o.messages);
  const total = { inputTokens: 0, outputTokens: 0 };
  for (let step = 0; step < o.maxSteps; step++) {
    yield { type: 'start-step' };
    const end: StepEnd = { calls: [], usage: { inputTokens: 0, outputTokens: 0 }, finished: false };
    let text = '';
    for await (const part of streamStep(o, messages, end)) {
      if (part.type === 'error') {
        yield part;
        return;
      }
      if (part.type === 'text-delta') text += part.text;
      yield part;
    }
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
      yield { type: 'tool-call', toolCallId: call.id, toolName: call.name, input };
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
        yield { type: 'tool-result', toolCallId: call.id, output };
      } catch (error) {
        content = `Error: ${(error as Error)?.message ?? String(error)}`;
        yield { type: 'tool-error', toolCallId: call.id, error };
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
  yield { type: 'finish', totalUsage: total };
}
