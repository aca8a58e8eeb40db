// Retrying a turn whose provider answered 429 or 5xx before the first token: the gate that
// holds such an error instead of reporting it, the waits (Retry-After honoured up to 30 s, or
// a short backoff), and the status the browser shows meanwhile. Once a token has gone to the
// user, errors are reported, not retried.
import { APICallError } from 'ai';
import { closedUnderRequest } from './upstream.ts';

/** Attempts after the first when the provider answers 429 or 5xx before the first token. */
export const MAX_RETRIES = 3;

function retryDelay(err: unknown, attempt: number): number | undefined {
  const e = err as { statusCode?: number; responseHeaders?: Record<string, string> };
  // Through the AI SDK, a connection that closed before any answer (a kept-alive one the
  // provider had closed, as a rule) is tried again at once, once. The direct relay retries
  // this itself (upstream.ts), so its errors are not APICallErrors and do not come here.
  if (attempt === 0 && APICallError.isInstance(err) && err.statusCode === undefined && closedUnderRequest(err)) return 0;
  if (typeof e?.statusCode !== 'number' || (e.statusCode !== 429 && e.statusCode < 500)) return undefined;
  const after = Number(e.responseHeaders?.['retry-after']);
  // Honour Retry-After up to 30 s; otherwise back off 0.5 s, 1 s, 2 s.
  return Number.isFinite(after) && after >= 0 ? Math.min(after * 1000, 30_000) : 500 * 2 ** attempt;
}

/**
 * Whether an error part of the current attempt is held for a retry instead of reported: only
 * before the first token has gone to the user, and while attempts remain. The sink asks it on
 * error parts, so the text parts (nearly all of them) reach the sink with no wrapper around it.
 */
export class RetryGate {
  held: unknown = undefined;
  open = true;
  private readonly started: () => boolean;
  constructor(started: () => boolean) {
    this.started = started;
  }
  take(error: unknown): boolean {
    if (!this.open || this.started()) return false;
    this.held = error;
    return true;
  }
}

/**
 * Runs a turn's stream, starting it again after a 429 or 5xx that came before the first
 * token (which the sink handed to `gate`). Once a token has gone to the user, an error is
 * reported, not retried. Each source ends its stream after an error part.
 */
export async function withRetries(
  start: () => Promise<void>,
  gate: RetryGate,
  signal: AbortSignal,
  /** A wait before the next attempt begins (ms) and the error that caused it; then its end. */
  waiting: (delay: number, failure: unknown) => void,
  resumed: () => void,
): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    gate.held = undefined;
    gate.open = attempt < MAX_RETRIES;
    await start();
    const failure = gate.held;
    if (failure === undefined) return;
    const delay = retryDelay(failure, attempt);
    if (delay === undefined) throw failure;
    if (delay > 0) waiting(delay, failure);
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, delay);
      signal.addEventListener('abort', () => {
        clearTimeout(timer);
        resolve();
      }, { once: true });
    });
    if (signal.aborted) return;
    if (delay > 0) resumed();
  }
}

/** The status shown while a turn waits to ask a busy provider again (Retry-After can be 30 s). */
export function retryStatus(delay: number, failure: unknown): string {
  const status = (failure as { statusCode?: number }).statusCode;
  const seconds = Math.max(1, Math.round(delay / 1000));
  return `The model provider answered ${status ?? 'with an error'}; trying again in ${seconds} s...`;
}
