// Reads a text/event-stream response body into events (one `event:` name and JSON `data:`
// per message), so the stream can be POSTed (EventSource only does GET). Framing by
// eventsource-parser, as the provider streams are read (chatStream.ts).
import { createParser, type EventSourceMessage } from 'eventsource-parser';

export interface SseMessage {
  event: string;
  data: string;
}

export async function* readSse(body: ReadableStream<Uint8Array>, signal?: AbortSignal): AsyncGenerator<SseMessage> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let ready: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (message) => ready.push(message) });
  try {
    while (!signal?.aborted) {
      const { value, done } = await reader.read();
      if (done) break;
      parser.feed(decoder.decode(value, { stream: true }));
      const events = ready;
      ready = [];
      for (const message of events) yield { event: message.event || 'message', data: message.data };
    }
  } finally {
    reader.cancel().catch(() => undefined);
  }
}
