// The HTTP request of the direct relay (directStream.ts) to an OpenAI-compatible provider,
// and the reading of its answer read by read. Three clients:
// - the operator's system models on plain http: rawHttp.ts, which reads into one shared
//   buffer and allocates nothing per network read (benchmark B5: 20% less CPU per relayed
//   token than node:http);
// - the operator's system models on https: node:https with a keep-alive agent. What one
//   network read brought is handed over at once, synchronously, so a relayed token costs no
//   promise, no microtask and no stream iterator;
// - user and group models: the egress-safe fetch (vetted addresses, size limits), read with
//   the web stream's reader.
// Either way, `hold` pauses the reading until a promise settles: that is the back-pressure
// of a slow browser reaching the provider.
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { urlToHttpOptions } from 'node:url';
import { IdleWatch, type Watch } from './idleWatch.ts';
import { rawHttpSend } from './rawHttp.ts';
import { CutShortError, type ChunkResult, type Send, type Upstream } from './upstreamTypes.ts';

export { CutShortError, type ChunkResult, type Send, type Upstream } from './upstreamTypes.ts';

/** No byte for this long (before the headers or between two reads) and the request is given up. */
const IDLE_TIMEOUT_MS = 300_000;

// Keep-alive: a turn's next request (and the next turn) reuses the connection.
const agents = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };

function readAll(res: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    res.setEncoding('utf8');
    res.on('data', (s: string) => (text += s));
    res.on('end', () => resolve(text));
    res.on('error', () => resolve(text));
  });
}

/**
 * The body in paused mode: on 'readable', read() returns everything buffered at once, so the
 * many small chunks of the chunked encoding that one network read brought (a burst of tokens)
 * reach the handler as one chunk. A hold stops the reading; its release reads what waited.
 */
function nodeBody(res: IncomingMessage, watch: Watch): Pick<Upstream, 'pump' | 'hold'> {
  let holds = 0;
  let drain = () => {};
  return {
    pump: (onChunk) =>
      new Promise((resolve, reject) => {
        let done = false;
        const finish = (err?: unknown) => {
          if (done) return;
          done = true;
          if (err === undefined) resolve();
          else reject(err);
        };
        drain = () => {
          let chunk: Buffer | null;
          watch.activity++;
          while (!done && holds === 0 && (chunk = res.read() as Buffer | null) !== null) {
            let result: ChunkResult;
            try {
              result = onChunk(chunk);
            } catch (err) {
              res.destroy();
              return finish(err);
            }
            if (result === 'stop') {
              // The rest of this answer is not wanted: the connection cannot be reused for it.
              res.destroy();
              return finish();
            }
          }
        };
        res.on('readable', drain);
        res.once('end', () => finish());
        res.once('error', (err) => finish(err));
        res.once('close', () => finish(res.complete ? undefined : new CutShortError('The model provider ended the stream early.')));
      }),
    hold: (until) => {
      holds++;
      const release = () => {
        if (--holds === 0) drain();
      };
      until.then(release, release);
    },
  };
}

/**
 * A keep-alive connection that the provider closed while it lay idle, found out only when the
 * request is sent on it: the request failed before the provider could have read it, so it is
 * sent once more on a new connection (what `request.reusedSocket` is for). Without this, a
 * provider that closes idle connections without a Keep-Alive hint (Node's own server does,
 * after 5 s) now and then fails a turn with "read ECONNRESET" (seen in bench B5).
 */
const staleConnection = (req: http.ClientRequest, err: unknown) =>
  req.reusedSocket && ['ECONNRESET', 'EPIPE'].includes((err as NodeJS.ErrnoException).code ?? '');

// A system model's URL is the same for every turn: parsed once (with the request options it
// makes), not on every request.
const targets = new Map<string, { secure: boolean; options: http.RequestOptions }>();
function targetOf(url: string): { secure: boolean; options: http.RequestOptions } {
  let target = targets.get(url);
  if (!target) {
    const parsed = new URL(url);
    target = { secure: parsed.protocol === 'https:', options: urlToHttpOptions(parsed) };
    if (targets.size >= 64) targets.clear();
    targets.set(url, target);
  }
  return target;
}

/** node:http(s) requests, given up when `idle` sees them silent too long. */
export const nodeHttpSend =
  (idle: IdleWatch): Send =>
  (url, headers, body, signal) =>
    new Promise((resolve, reject) => {
      const { secure, options } = targetOf(url);
      let responded = false;
      const attempt = (retried: boolean) => {
        const req = (secure ? https : http).request(
          {
            ...options,
            method: 'POST',
            headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
            agent: secure ? agents.https : agents.http,
            signal,
          },
          (res) => {
            responded = true;
            const responseHeaders: Record<string, string> = {};
            for (const [key, value] of Object.entries(res.headers)) if (typeof value === 'string') responseHeaders[key] = value;
            watch.activity++;
            res.once('close', stop);
            resolve({ status: res.statusCode ?? 0, headers: responseHeaders, text: () => readAll(res), ...nodeBody(res, watch) });
          },
        );
        const watch = idle.watch(() => req.destroy(new Error(`The model provider sent nothing for ${idle.limitMs / 1000} s.`)));
        const stop = () => idle.unwatch(watch);
        req.once('close', stop);
        // Before the response this rejects the request; afterwards the response reports the error.
        req.on('error', (err) => {
          if (!responded && !retried && !signal.aborted && staleConnection(req, err)) attempt(true);
          else reject(err);
        });
        req.end(body);
      };
      attempt(false);
    });

const systemIdle = new IdleWatch(IDLE_TIMEOUT_MS);
const overHttps = nodeHttpSend(systemIdle);
const overHttp = rawHttpSend(systemIdle);

/** The operator's system models: plain http through rawHttp.ts, https through node:https. */
export const viaNodeHttp: Send = (url, headers, body, signal) => (url.startsWith('https:') ? overHttps : overHttp)(url, headers, body, signal);

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
