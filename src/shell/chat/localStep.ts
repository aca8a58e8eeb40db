// One request of a local model turn: POST /v1/chat/completions to the local model server and
// its streamed answer read into text (reported as it arrives) and whole tool calls (their
// arguments arrive in pieces). A model that cannot use tools is asked again without them.
import { ApiError, OLLAMA_MESSAGES, type ToolCall, type ToolSpec } from '../../core/index.ts';
import type { Message } from '../../core/messages.ts';
import { SERVER_MESSAGES } from '../../core/serverMessages.ts';
import { readSse, type SseMessage } from '../../core/api/sse.ts';

export type ChatMessage = Record<string, unknown>;

export interface StepOptions {
  ollamaUrl: string;
  model: string;
  signal: AbortSignal;
  fetch: typeof fetch;
}

async function providerError(response: Response): Promise<Message> {
  let detail = '';
  try {
    const body = (await response.json()) as { error?: { message?: string } | string };
    detail = typeof body.error === 'string' ? body.error : (body.error?.message ?? '');
  } catch {
    detail = '';
  }
  // The server's words for the same failure, so that both read (and translate) alike.
  return detail ? SERVER_MESSAGES.providerStatusDetail(response.status, detail) : SERVER_MESSAGES.providerStatus(response.status);
}

function post(o: StepOptions, messages: ChatMessage[], tools: ToolSpec[]): Promise<Response> {
  const body = {
    model: o.model,
    messages,
    stream: true,
    ...(tools.length
      ? { tools: tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description ?? t.name, parameters: t.parameters ?? { type: 'object' } } })) }
      : {}),
  };
  return o.fetch(`${o.ollamaUrl}/v1/chat/completions`, {
    method: 'POST',
    credentials: 'omit',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify(body),
    signal: o.signal,
  });
}

/** The response, asking again without tools when the model says it does not support them. */
async function request(o: StepOptions, messages: ChatMessage[], tools: ToolSpec[]): Promise<{ response: Response; toolsUsed: boolean } | undefined> {
  let response: Response;
  try {
    response = await post(o, messages, tools);
    if (response.status === 400 && tools.length) {
      const text = await response.clone().text();
      if (/does not support tools/i.test(text)) return { response: await post(o, messages, []), toolsUsed: false };
    }
  } catch {
    if (o.signal.aborted) return undefined;
    throw new ApiError(OLLAMA_MESSAGES.ollamaCannotConnect, 0);
  }
  return { response, toolsUsed: tools.length > 0 };
}

/**
 * Streams one answer: `onText` gets each piece of text; the result holds the step's text, its
 * complete tool calls, and whether tools were offered at all (undefined when stopped early).
 */
export async function streamStep(
  o: StepOptions,
  messages: ChatMessage[],
  tools: ToolSpec[],
  onText: (delta: string) => void,
): Promise<{ text: string; calls: ToolCall[]; toolsUsed: boolean } | undefined> {
  const answered = await request(o, messages, tools);
  if (!answered) return undefined;
  const { response, toolsUsed } = answered;
  if (response.status !== 200 || !response.body) throw new ApiError(await providerError(response), response.status);
  let text = '';
  const calls: { id: string; name: string; args: string }[] = [];
  // A stream that breaks, or ends without its [DONE], was cut off: said as such, not as a
  // network error (and not taken for a whole answer).
  let finished = false;
  const events = readSse(response.body, o.signal);
  for (;;) {
    let next: IteratorResult<SseMessage>;
    try {
      next = await events.next();
    } catch (err) {
      if (o.signal.aborted) return undefined;
      throw err instanceof ApiError ? err : new ApiError(OLLAMA_MESSAGES.ollamaCutShort, 502);
    }
    if (next.done) break;
    const message = next.value;
    if (message.data === '[DONE]') {
      finished = true;
      break;
    }
    let chunk: {
      choices?: { delta?: { content?: unknown; tool_calls?: { index?: number; id?: string; function?: { name?: string; arguments?: string } }[] } }[];
      error?: { message?: string };
    };
    try {
      chunk = JSON.parse(message.data) as typeof chunk;
    } catch {
      continue;
    }
    if (chunk.error) throw new ApiError(chunk.error.message || 'Error occurred.', 500);
    const delta = chunk.choices?.[0]?.delta;
    if (typeof delta?.content === 'string' && delta.content) {
      text += delta.content;
      onText(delta.content);
    }
    for (const call of delta?.tool_calls ?? []) {
      const pending = (calls[call.index ?? calls.length] ??= { id: '', name: '', args: '' });
      if (call.id) pending.id = call.id;
      if (call.function?.name) pending.name += call.function.name;
      if (call.function?.arguments) pending.args += call.function.arguments;
    }
  }
  if (o.signal.aborted) return undefined;
  if (!finished) throw new ApiError(OLLAMA_MESSAGES.ollamaCutShort, 502);
  return { text, calls: calls.filter(Boolean).map((c, i) => ({ ...c, id: c.id || `call_${i}`, args: c.args || '{}' })), toolsUsed };
}
