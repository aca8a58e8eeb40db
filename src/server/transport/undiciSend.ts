// The direct relay's client for system models on undici (the library Node's own fetch is built
// on): its pools of kept-alive connections per origin and its HTTP parser, through the
// dispatcher API, whose handler gets each piece of the body synchronously from the parser (no
// Readable, no async iterator: undici's `request()` stream cost 30% more CPU per relayed
// token, bench/README.md B5). The proxy is the global dispatcher's (HTTPS_PROXY, HTTP_PROXY,
// NO_PROXY: app.ts sets an EnvHttpProxyAgent). User and group models do not come here: they
// go through the egress-safe fetch.
import { getGlobalDispatcher, type Dispatcher } from 'undici';
import type { IncomingHttpHeaders } from 'undici/types/header';
import { closedUnderRequest } from './closedUnderRequest.ts';
import { CutShortError, type ChunkResult, type Send, type Upstream } from './upstreamTypes.ts';

/** An error body is read up to this much (it is shown cut, and logged). */
const MAX_ERROR_BODY = 1024 * 1024;

export interface UndiciSendOptions {
  /** No byte for this long (before the headers, or between two reads) and the request is given up. */
  idleMs: number;
  /** Another dispatcher (tests); by default the global one (with the proxy when one is set). */
  dispatcher?: Dispatcher;
}

const TIMEOUTS = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);
const abortError = () => Object.assign(new Error('The operation was aborted'), { name: 'AbortError', code: 'ABORT_ERR' });

/**
 * undici's errors in the words the relay shows: a silence; once the answer began, a closed
 * connection is an answer cut short (directStream.ts says so); others as they are.
 */
function plain(err: unknown, idleMs: number, answering: boolean): unknown {
  const code = (err as { code?: string })?.code ?? '';
  if (TIMEOUTS.has(code)) return new Error(`The model provider sent nothing for ${idleMs / 1000} s.`);
  if (answering && (code === 'UND_ERR_SOCKET' || code === 'ECONNRESET')) return new CutShortError('The provider closed the connection mid-answer.');
  return err;
}

const flatten = (headers: IncomingHttpHeaders): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers)) if (value !== undefined) out[key] = Array.isArray(value) ? value.join(', ') : value;
  return out;
};

/** One request: resolves at the response's head with an Upstream fed by the handler. */
function attempt(dispatcher: Dispatcher, url: URL, headers: Record<string, string>, body: string, signal: AbortSignal, idleMs: number): Promise<Upstream> {
  return new Promise<Upstream>((resolve, reject) => {
    let controller: Dispatcher.DispatchController | undefined;
    let started = false;
    // Before `pump` (or `text`) takes the body: what came waits, and the reading is paused.
    let early: Buffer[] = [];
    let onChunk: ((chunk: Buffer) => ChunkResult) | undefined;
    let ended: { err?: unknown } | undefined;
    let onEnd: ((err?: unknown) => void) | undefined;
    let held: Promise<void>[] = [];
    const onAbort = () => controller?.abort(abortError());
    signal.addEventListener('abort', onAbort, { once: true });

    const finish = (err?: unknown) => {
      if (ended) return;
      ended = { err };
      signal.removeEventListener('abort', onAbort);
      onEnd?.(err);
    };
    /** Hands a piece over; a hold the sink asked for pauses the parser until it settles. */
    const deliver = (chunk: Buffer) => {
      if (onChunk!(chunk) === 'stop') {
        finish();
        controller?.abort(abortError());
        return;
      }
      if (held.length) {
        const waiting = held;
        held = [];
        controller?.pause();
        void Promise.allSettled(waiting).then(() => controller?.resume());
      }
    };
    const take = (sink: (chunk: Buffer) => ChunkResult) =>
      new Promise<void>((done, fail) => {
        onEnd = (err) => (err ? fail(signal.aborted ? err : plain(err, idleMs, true)) : done());
        onChunk = sink;
        const waiting = early;
        early = [];
        for (const chunk of waiting) {
          if (ended) break;
          deliver(chunk);
        }
        if (ended) return onEnd(ended.err);
        controller?.resume();
      });

    dispatcher.dispatch(
      { origin: url.origin, path: `${url.pathname}${url.search}`, method: 'POST', headers, body, headersTimeout: idleMs, bodyTimeout: idleMs },
      {
        onRequestStart(c) {
          controller = c;
          if (signal.aborted) c.abort(abortError());
        },
        onResponseStart(c, statusCode, responseHeaders) {
          started = true;
          c.pause();
          resolve({
            status: statusCode,
            headers: flatten(responseHeaders),
            async text() {
              let text = '';
              await take((chunk) => {
                text += chunk.toString('utf8');
                return text.length >= MAX_ERROR_BODY ? 'stop' : undefined;
              }).catch(() => undefined);
              return text.slice(0, MAX_ERROR_BODY);
            },
            pump: take,
            hold: (until) => void held.push(until),
          });
        },
        onResponseData(c, chunk) {
          if (ended) return;
          if (onChunk) deliver(chunk);
          else {
            early.push(Buffer.from(chunk));
            c.pause();
          }
        },
        onResponseEnd() {
          finish();
        },
        onResponseError(_c, err) {
          if (started) return finish(err);
          signal.removeEventListener('abort', onAbort);
          reject(err);
        },
      },
    );
  });
}

export function undiciSend(options: UndiciSendOptions): Send {
  return async (url, headers, body, signal) => {
    const target = new URL(url);
    const dispatcher = options.dispatcher ?? getGlobalDispatcher();
    try {
      // A kept-alive connection the provider had closed while idle: sent once more.
      return await attempt(dispatcher, target, headers, body, signal, options.idleMs).catch((err: unknown) => {
        if (signal.aborted || !closedUnderRequest(err)) throw err;
        return attempt(dispatcher, target, headers, body, signal, options.idleMs);
      });
    } catch (err) {
      throw signal.aborted ? err : plain(err, options.idleMs, false);
    }
  };
}
