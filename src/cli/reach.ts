// Whether the server answers, and why not when it does not: every request of the CLI goes
// through `track`, so 'You are offline.' (the browser's words, wrong for a terminal whose
// server is down) becomes which server could not be reached and why, and `:info` says so.
import type { Translate } from '../core/index.ts';

export interface Reach {
  readonly server: string;
  /** undefined until a request has been made; then whether the last one got an answer. */
  readonly ok: boolean | undefined;
  /** Why the last request got no answer: a `cli` locale key under `reach.` and its values. */
  readonly failure: { reason: string; params: Record<string, string> } | undefined;
  /** `fetch`, noting whether the server answered. */
  track(fetcher: typeof fetch): typeof fetch;
  /** 'Could not reach the server <url>: <why>.' in the interface's language. */
  said(t: Translate): string;
  /** The reason alone, for `:info`'s status. */
  reason(t: Translate): string;
}

/** The system error under fetch's 'fetch failed' (undici puts it in `cause`). */
function causeOf(err: unknown): { code?: string; message: string } {
  let e = err as { code?: string; message?: string; cause?: unknown; name?: string } | undefined;
  for (let depth = 0; e?.cause && depth < 4; depth++) e = e.cause as typeof e;
  const code = e?.code ?? (e?.name === 'TimeoutError' ? 'ETIMEDOUT' : undefined);
  return { ...(code ? { code } : {}), message: String(e?.message ?? err) };
}

function reasonFor(err: unknown, server: string): { reason: string; params: Record<string, string> } {
  const { code, message } = causeOf(err);
  const host = new URL(server).hostname;
  switch (code) {
    case 'ECONNREFUSED':
      return { reason: 'refused', params: {} };
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NONAME':
      return { reason: 'noHost', params: { host } };
    case 'ETIMEDOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
    case 'UND_ERR_HEADERS_TIMEOUT':
      return { reason: 'timeout', params: {} };
    case 'ECONNRESET':
    case 'EPIPE':
    case 'UND_ERR_SOCKET':
      return { reason: 'reset', params: {} };
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'ENETDOWN':
      return { reason: 'unreachable', params: {} };
  }
  if (code && /CERT|TLS|SSL|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code)) return { reason: 'tls', params: { code } };
  // fetch's list of ports it never connects to (1, 25, 6000...).
  if (message === 'bad port') return { reason: 'badPort', params: { port: new URL(server).port } };
  return { reason: 'other', params: { detail: code ? `${code}: ${message}` : message } };
}

export function createReach(server: string): Reach {
  let ok: boolean | undefined;
  let failure: Reach['failure'];
  const reason = (t: Translate) => (failure ? t(`reach.${failure.reason}`, failure.params) : '');
  return {
    server,
    get ok() {
      return ok;
    },
    get failure() {
      return failure;
    },
    track: (fetcher) =>
      (async (input: RequestInfo | URL, init?: RequestInit) => {
        try {
          const response = await fetcher(input, init);
          ok = true;
          failure = undefined;
          return response;
        } catch (err) {
          // A request the user stopped (Ctrl+C) says nothing about the server; one that timed out does.
          const stopped = init?.signal?.aborted && (init.signal.reason as Error | undefined)?.name !== 'TimeoutError';
          if (!stopped) {
            ok = false;
            failure = reasonFor(err, server);
          }
          throw err;
        }
      }) as typeof fetch,
    said: (t) => t('reach.failed', { server, reason: reason(t) }),
    reason,
  };
}
