// ctx.streamResponse: a plugin's streamed answer in its own format (an API's server-sent events),
// written the way the generation's SSE is (sseStream.ts): straight to the Node response's socket,
// with back-pressure (`full`/`ready`), and `onClose` when the client goes away first; without a
// Node response (app.request in tests), into a ReadableStream.
import type { ServerResponse } from 'node:http';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import type { Context } from 'hono';
import type { AppEnv, StreamSink } from '../../core/index.ts';
import { nodeSink } from './sseStream.ts';

export function streamResponse(c: Context<AppEnv>, headers: Record<string, string>, onClose: () => void): { sink: StreamSink; response: Response } {
  const outgoing = (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;
  if (outgoing) {
    // The headers the middleware set (the security headers) go out with the stream's own.
    const all: Record<string, string> = {};
    c.res.headers.forEach((value, key) => (all[key] = value));
    const sink = nodeSink(outgoing, { ...all, ...headers }, onClose);
    // As the generation route does (routes.ts): the context's response is dropped before the
    // marker, which Hono would otherwise merge into a response to write again.
    c.res = undefined as unknown as Response;
    c.res = RESPONSE_ALREADY_SENT;
    return { sink: { ...sink, end: (last = '') => sink.end(last) }, response: RESPONSE_ALREADY_SENT };
  }
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
      start: (c) => void (controller = c),
      pull: release,
      cancel: () => {
        cancelled = true;
        release();
        onClose();
      },
    },
    { highWaterMark: 64 * 1024, size: (chunk) => chunk.byteLength },
  );
  const sink: StreamSink = {
    write: (text) => {
      if (!cancelled) controller.enqueue(encoder.encode(text));
    },
    full: () => !cancelled && (controller.desiredSize ?? 1) <= 0,
    ready: () => new Promise<void>((resolve) => waiters.push(resolve)),
    end: (last = '') => {
      if (cancelled) return;
      if (last) controller.enqueue(encoder.encode(last));
      release();
      controller.close();
    },
  };
  return { sink, response: c.body(body, 200, headers) };
}
