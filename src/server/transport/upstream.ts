// The HTTP request of the direct relay (directStream.ts) to an OpenAI-compatible provider,
// and the reading of its answer read by read. The clients:
// - the operator's system models: rawHttp.ts, a keep-alive HTTP/1.1 client (http and https)
//   that reads into one shared buffer and hands what one network read brought over at once,
//   synchronously. Measured against undici in the same run (bench/README.md, B5), undici's
//   dispatcher costs 1.23x its CPU per relayed token (1.27x the bare relay, over B5's 1.2x),
//   so it stays, and passes a framing corpus taken from llhttp's tests (rawHttp.test.ts);
// - the same models when the operator set a proxy (HTTPS_PROXY, HTTP_PROXY, NO_PROXY):
//   undiciSend.ts, through undici's EnvHttpProxyAgent (app.ts makes it the global dispatcher);
// - user and group models: the egress-safe fetch (vetted addresses, size limits), read with
//   the web stream's reader.
// Either way, `hold` pauses the reading until a promise settles: that is the back-pressure
// of a slow browser reaching the provider.
import { closedUnderRequest } from './closedUnderRequest.ts';
import { IdleWatch } from './idleWatch.ts';
import { rawHttpSend } from './rawHttp.ts';
import { undiciSend } from './undiciSend.ts';
import type { Send } from './upstreamTypes.ts';

export { closedUnderRequest } from './closedUnderRequest.ts';
export { CutShortError, type ChunkResult, type Send, type Upstream } from './upstreamTypes.ts';

/** No byte for this long (before the headers or between two reads) and the request is given up. */
export const IDLE_TIMEOUT_MS = 300_000;

const direct = rawHttpSend(new IdleWatch(IDLE_TIMEOUT_MS));
const proxied = undiciSend({ idleMs: IDLE_TIMEOUT_MS });
let behindProxy = false;

/** A proxy is set for the server's own requests (app.ts, from HTTPS_PROXY/HTTP_PROXY). */
export function useProxyForSystemModels(on: boolean): void {
  behindProxy = on;
}

/** The operator's system models, over http or https, through the proxy when one is set. */
export const viaSystem: Send = (...args) => (behindProxy ? proxied : direct)(...args);

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
