// One request of a local model turn: POST /v1/chat/completions to the local model server and
// its streamed answer read into text (reported as it arrives) and whole tool calls, by the
// same reader as the server's relay (core/api/chatStream.ts). A model that cannot use tools is
// asked again without them.
import { ApiError, OLLAMA_MESSAGES, type ToolCall, type ToolSpec } from '../../core/index.ts';
import type { Message } from '../../core/messages.ts';
import { SERVER_MESSAGES } from '../../core/serverMessages.ts';
import { chatStreamReader, type StreamFailure } from '../../core/api/chatStream.ts';

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
  const reader = chatStreamReader();
  const body = response.body.getReader();
  const failed = (failure: StreamFailure) =>
    new ApiError(failure.kind === 'malformed' ? SERVER_MESSAGES.malformedStream : SERVER_MESSAGES.providerReported(failure.message), 502);
  try {
    for (;;) {
      let next: ReadableStreamReadResult<Uint8Array>;
      try {
        next = await body.read();
      } catch {
        // A stream that breaks was cut off: said as such, not as a network error.
        if (o.signal.aborted) return undefined;
        throw new ApiError(OLLAMA_MESSAGES.ollamaCutShort, 502);
      }
      if (next.done) break;
      reader.feed(next.value);
      const delta = reader.takeText();
      if (delta) {
        text += delta;
        onText(delta);
      }
      if (reader.failure) throw failed(reader.failure);
    }
  } finally {
    body.cancel().catch(() => undefined);
  }
  if (o.signal.aborted) return undefined;
  // Ended without its [DONE] or a finish reason: cut off, not taken for a whole answer.
  if (!reader.finished) throw new ApiError(OLLAMA_MESSAGES.ollamaCutShort, 502);
  return { text, calls: reader.calls().map((c) => ({ ...c, args: c.args || '{}' })), toolsUsed };
}
