// The HTTP request of the direct relay (directStream.ts) to an OpenAI-compatible provider,
// and the reading of its answer read by read. Two clients:
// - the operator's system models: rawHttp.ts, a keep-alive HTTP/1.1 client (http and https)
//   that reads into one shared buffer and hands what one network read brought over at once,
//   synchronously: a relayed token costs no allocation of its own, no promise and no stream
//   iterator (benchmark B5: 0.80-0.84 of node:http's CPU per relayed token);
// - user and group models: the egress-safe fetch (vetted addresses, size limits), read with
//   the web stream's reader.
// Either way, `hold` pauses the reading until a promise settles: that is the back-pressure
// of a slow browser reaching the provider.
import { IdleWatch } from './idleWatch.ts';
import { rawHttpSend } from './rawHttp.ts';
import type { Send } from './upstreamTypes.ts';

export { CutShortError, type ChunkResult, type Send, type Upstream } from './upstreamTypes.ts';

/** No byte for this long (before the headers or between two reads) and the request is given up. */
const IDLE_TIMEOUT_MS = 300_000;

/** The operator's system models, over http or https: rawHttp.ts. */
export const viaRawHttp: Send = rawHttpSend(new IdleWatch(IDLE_TIMEOUT_MS));

/**
 * fetch (undici) failed because the connection closed under the request before any answer:
 * fetch's TypeError, or the AI SDK's error made of it, has the socket error as its cause. As a
 * rule that is a kept-alive connection the provider had closed; fetch does not say whether
 * the connection was reused, so such a request is sent once more either way (the official
 * OpenAI client retries connection errors too).
 */
export function closedUnderRequest(err: unknown): boolean {
  for (let e = err, depth = 0; e && depth < 3; e = (e as { cause?: unknown }).cause, depth++) {
    if (['UND_ERR_SOCKET', 'ECONNRESET'].includes((e as { code?: string }).code ?? '')) return true;
  }
  return false;
}

/** User and group models: through the given (egress-safe) fetch. */
export const viaFetch =
  (fetchImpl: typeof fetch): Send =>
  async (url, headers, body, signal) => {
    const send = () => fetchImpl(url, { method: 'POST', headers, body, signal });
    const response = await send().catch((err: unknown) => {
      if (signal.aborted || !closedUnderRequest(err)) throw err;
      return send();
    });
    const responseHeaders: Record<string, string> = {};
    response.headers.forEach((value, key) => (responseHeaders[key] = value));
    let held: Promise<void>[] = [];
    return {
      status: response.status,
      headers: responseHeaders,
      text: () => response.text().catch(() => ''),
      pump: async (onChunk) => {
        if (!response.body) return;
        const reader = response.body.getReader();
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return;
          if (onChunk(value) === 'stop') {
            await reader.cancel().catch(() => {});
            return;
          }
          while (held.length) {
            const waiting = held;
            held = [];
            await Promise.allSettled(waiting);
          }
        }
      },
      hold: (until) => void held.push(until),
    };
  };
