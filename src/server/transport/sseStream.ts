// The SSE response of a generation: events serialized as `event: <type>\ndata: <json>\n\n`.
// Why not hono's streamSSE: it runs a TransformStream, an encoder and a writer promise per
// event. Here the text deltas that arrive in one burst become one event, and everything
// emitted in one turn of the event loop goes out as one write (no added latency: the flush
// runs as soon as the burst has been read); the direct relay's text, already one part per
// network read, is written at once (`endOfRead`). Under the Node server the events are written to
// the socket's response directly; without one (app.request) into a ReadableStream.
// Back-pressure: when a slow client lets the buffer fill, `emit` returns a promise that
// resolves once the client has read some; the generation awaits it before it reads more of
// the provider's stream, so a slow reader holds the provider back instead of server memory.
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Writable } from 'node:stream';
import type { GenerationEvent } from '../../core/index.ts';

const HIGH_WATER_BYTES = 64 * 1024;

export interface SseStream {
  /**
   * `endOfRead`: the event is all that one network read of the provider brought (the direct
   * relay's text), so it is written at once instead of waiting for the end of the loop turn.
   */
  emit(event: GenerationEvent, endOfRead?: boolean): void | Promise<void>;
  /** Flushes what is pending and ends the response. */
  close(): void;
}

export interface Sink {
  write(chunk: string): void;
  /** The client is behind: the buffer is over its high-water mark. */
  full(): boolean;
  ready(): Promise<void>;
  /** Ends the body, after `last` (the events still pending) when there are any. */
  end(last: string): void;
}

function sseEncoder(sink: Sink): SseStream {
  let closed = false;
  let pendingText = '';
  let out = '';
  let scheduled = false;
  const frame = (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
  const textFrame = (delta: string) => `event: text\ndata: {"delta":${JSON.stringify(delta)}}\n\n`;
  const flush = () => {
    scheduled = false;
    if (pendingText) out += textFrame(pendingText);
    pendingText = '';
    if (!out || closed) return;
    sink.write(out);
    out = '';
  };
  return {
    emit(event, endOfRead) {
      if (closed) return;
      if (event.type === 'text') {
        pendingText += event.delta;
      } else {
        if (pendingText) out += textFrame(pendingText);
        pendingText = '';
        // retryAt serves the server's own routes (an API's Retry-After): the page's wire stays as the spec has it.
        const { type, ...data } = event;
        if ('retryAt' in data) delete data.retryAt;
        out += frame(type, data);
      }
      if (endOfRead) {
        flush();
      } else if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
      return sink.full() ? sink.ready() : undefined;
    },
    close() {
      if (closed) return;
      closed = true;
      if (pendingText) out += textFrame(pendingText);
      pendingText = '';
      const last = out;
      out = '';
      sink.end(last);
    },
  };
}

/**
 * Events written straight to a Node response; `onClose` runs when the client goes away first.
 *
 * After the first event (which carries the headers) the events go to the socket itself, each
 * framed as one HTTP/1.1 chunk by hand: one socket write per event. ServerResponse.write would
 * frame it as four writes (size, CRLF, data, CRLF), cork the socket and uncork it on the next
 * tick, which costs about a tenth of the CPU of a relayed token (benchmark B5). The response
 * still ends through `res.end()`, which writes the last chunk, so keep-alive and 'finish' work
 * as usual. Not taken when Node did not choose the chunked encoding (an HTTP/1.0 client, such
 * as a proxy speaking 1.0) or the response is not yet the socket's (a pipelined request).
 */
export function nodeSseStream(res: ServerResponse, headers: Record<string, string>, onClose: () => void): SseStream {
  return sseEncoder(nodeSink(res, headers, onClose));
}

/** A Node response as a sink of text (nodeSseStream's; a plugin's own stream: streamResponse.ts). */
export function nodeSink(res: ServerResponse, headers: Record<string, string>, onClose: () => void): Sink {
  // Not flushed on their own: the headers go out with the first event ('Querying...'), in
  // one write instead of two.
  res.writeHead(200, headers);
  res.on('close', () => {
    if (!res.writableFinished) onClose();
  });
  let socket: Socket | null = null;
  const target = (): Writable => socket ?? res;
  const write = (chunk: string) => {
    if (socket) {
      socket.write(`${Buffer.byteLength(chunk).toString(16)}\r\n${chunk}\r\n`);
      return;
    }
    res.write(chunk);
    if (res.chunkedEncoding && res.socket && !res.socket.destroyed) socket = res.socket as Socket;
  };
  return {
    write,
    full: () => target().writableNeedDrain,
    ready: () =>
      new Promise<void>((resolve) => {
        const writable = target();
        const done = () => {
          writable.off('drain', done);
          res.off('close', done);
          resolve();
        };
        writable.on('drain', done);
        res.on('close', done);
      }),
    end: (last) => {
      if (!last) return void res.end();
      if (!socket) return void res.end(last);
      // The last events ('done', as a rule) and the end of the body in one write and one
      // packet, not two. res.end() uncorks the socket fully itself; the uncork after it is a
      // no-op then, and keeps the socket from staying corked if that ever changes.
      socket.cork();
      write(last);
      res.end();
      socket.uncork();
    },
  };
}

/** Events in a ReadableStream (for a runtime without a Node response). */
export function webSseStream(onCancel: () => void): SseStream & { body: ReadableStream<Uint8Array> } {
  const encoder = new TextEncoder();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let cancelled = false;
  let waiters: (() => void)[] = [];
  const release = () => {
    const ready = waiters;
    waiters = [];
    for (const resolve of ready) resolve();
  };
  const body = new ReadableStream<Uint8Array>(
    {
      start: (c) => {
        controller = c;
      },
      pull: release,
      cancel: () => {
        cancelled = true;
        release();
        onCancel();
      },
    },
    { highWaterMark: HIGH_WATER_BYTES, size: (chunk) => chunk.byteLength },
  );
  const stream = sseEncoder({
    write: (chunk) => {
      if (!cancelled) controller.enqueue(encoder.encode(chunk));
    },
    full: () => !cancelled && (controller.desiredSize ?? 1) <= 0,
    ready: () => new Promise<void>((resolve) => waiters.push(resolve)),
    end: (last) => {
      if (cancelled) return;
      if (last) controller.enqueue(encoder.encode(last));
      release();
      controller.close();
    },
  });
  return { ...stream, body };
}
