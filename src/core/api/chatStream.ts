// The one reader of OpenAI-format chat-completion streams, for the server's direct relay
// (src/server/transport/directStream.ts) and the browser's local-model turns
// (src/shell/chat/localStep.ts): SSE framing by eventsource-parser, one JSON read per event
// (plainContent's fast path for the usual piece of text), tool-call deltas assembled by index,
// usage added up. Both sides meet the same stream the same way: a malformed event or an error
// event ends it with a failure; `[DONE]` or a finish reason marks it complete.
import { createParser } from 'eventsource-parser';
import { plainContent } from './plainContent.ts';

export interface StreamedCall {
  id: string;
  name: string;
  args: string;
}

export type StreamFailure = { kind: 'malformed'; sample: string } | { kind: 'reported'; message: string };

interface ChatChunk {
  error?: { message?: string } | string;
  choices?: { delta?: { content?: unknown; tool_calls?: { index?: number; id?: string; function?: { name?: string; arguments?: string } }[] }; finish_reason?: string | null }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
}

/** A line longer than this without an end is not an SSE stream: the reader stops (bounded memory). */
export const MAX_EVENT_BYTES = 8 * 1024 * 1024;

export interface ChatStreamReader {
  /** One network read (bytes, or text already decoded). */
  feed(chunk: Uint8Array | string): void;
  /** The text of the events completed since the last call ('' when none). */
  takeText(): string;
  /** Set once the stream said it was complete. */
  readonly finished: boolean;
  /** Set when the stream failed; nothing more is read after it. */
  readonly failure: StreamFailure | undefined;
  /** The tool calls, complete once the stream finished (ids filled in where the model gave none). */
  calls(): StreamedCall[];
  readonly usage: { inputTokens: number; outputTokens: number };
}

export function chatStreamReader(): ChatStreamReader {
  const decoder = new TextDecoder();
  const calls: StreamedCall[] = [];
  const usage = { inputTokens: 0, outputTokens: 0 };
  let text = '';
  let finished = false;
  let failure: StreamFailure | undefined;

  const onData = (data: string) => {
    if (failure || !data) return;
    if (data === '[DONE]') {
      finished = true;
      return;
    }
    let chunk: ChatChunk;
    try {
      const plain = plainContent(data);
      if (plain !== undefined) {
        text += plain;
        return;
      }
      chunk = JSON.parse(data) as ChatChunk;
    } catch {
      failure = { kind: 'malformed', sample: data.slice(0, 200) };
      return;
    }
    if (chunk.error) {
      failure = { kind: 'reported', message: (typeof chunk.error === 'string' ? chunk.error : chunk.error.message) || 'an error' };
      return;
    }
    const choice = chunk.choices?.[0];
    if (choice) {
      const delta = choice.delta;
      if (typeof delta?.content === 'string') text += delta.content;
      for (const call of delta?.tool_calls ?? []) {
        const pending = (calls[call.index ?? calls.length] ??= { id: '', name: '', args: '' });
        if (call.id) pending.id = call.id;
        if (call.function?.name) pending.name += call.function.name;
        if (call.function?.arguments) pending.args += call.function.arguments;
      }
      if (choice.finish_reason) finished = true;
    }
    if (chunk.usage) {
      usage.inputTokens += chunk.usage.prompt_tokens ?? 0;
      usage.outputTokens += chunk.usage.completion_tokens ?? 0;
    }
  };
  const tooLong = () => (failure ??= { kind: 'malformed', sample: `an event over ${MAX_EVENT_BYTES} bytes` });
  // Unknown fields and a bad `retry` are ignored, as the SSE spec says; only the bound stops.
  const parser = createParser({
    onEvent: (event) => onData(event.data),
    onError: (error) => error.type === 'max-buffer-size-exceeded' && tooLong(),
    maxBufferSize: MAX_EVENT_BYTES,
  });

  return {
    feed(chunk) {
      if (failure) return;
      try {
        parser.feed(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }));
      } catch {
        tooLong();
      }
    },
    takeText() {
      const taken = text;
      text = '';
      return taken;
    },
    get finished() {
      return finished;
    },
    get failure() {
      return failure;
    },
    calls: () => calls.filter(Boolean).map((c, i) => ({ ...c, id: c.id || `call_${i}` })),
    usage,
  };
}
