// The typed API client: fetch-based, so it runs in the browser, the CLI and the tests.
// Answers follow spec part 7 ({success, message, error, result}); a status other than 200
// is an error carrying the server's text, or 'Request failed with status {n}'.
import type { HandlerResult } from '../contract.ts';

export interface ApiAnswer<T = unknown> {
  success: boolean;
  message?: string;
  error?: string;
  result?: T;
}

export class ApiError extends Error {
  readonly status: number;
  /** When the message is one of the shell's own (`msg.*`): its key, to show it translated. */
  readonly key: string | undefined;
  readonly params: Record<string, unknown> | undefined;
  constructor(message: string, status: number, translation?: { key: string; params?: Record<string, unknown> }) {
    super(message);
    this.status = status;
    this.key = translation?.key;
    this.params = translation?.params;
  }
}

/** The server could not be reached. */
export const offlineError = () => new ApiError('You are offline.', 0, { key: 'msg.offline' });
/** A status other than 200 without the server's own text. */
export const statusError = (status: number) => new ApiError(`Request failed with status ${status}`, status, { key: 'msg.requestFailed', params: { status } });

export interface ApiClient {
  get<T>(path: string, query?: Record<string, string>): Promise<ApiAnswer<T>>;
  post<T>(path: string, body?: unknown): Promise<ApiAnswer<T>>;
}

export function createApiClient(options: { baseUrl?: string; fetch?: typeof fetch } = {}): ApiClient {
  const base = options.baseUrl ?? '';
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init));
  async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<ApiAnswer<T>> {
    let response: Response;
    try {
      response = await doFetch(base + path, {
        method,
        credentials: 'same-origin',
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch {
      throw offlineError();
    }
    let answer: ApiAnswer<T> | undefined;
    try {
      answer = (await response.json()) as ApiAnswer<T>;
    } catch {
      answer = undefined;
    }
    if (response.status !== 200 || !answer) {
      throw answer?.error ? new ApiError(answer.error, response.status) : statusError(response.status);
    }
    if (!answer.success) throw new ApiError(answer.error || 'An error occurred during your request.', response.status);
    return answer;
  }
  return {
    get: (path, query) => call('GET', query && Object.keys(query).length ? `${path}?${new URLSearchParams(query)}` : path),
    post: (path, body) => call('POST', path, body ?? {}),
  };
}

/** The server could not be reached at all (the fetch failed): 'You are offline.' */
export function isOffline(err: unknown): boolean {
  return err instanceof ApiError && err.status === 0;
}

/**
 * Runs a command's API calls and turns an API failure into the error line the user sees
 * (the server's text, or 'Request failed with status {n}'); other errors propagate.
 */
export async function withApiErrors<T>(fn: () => Promise<T>): Promise<T | { kind: 'error'; text: string }> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof ApiError) return { kind: 'error', text: err.message, ...(err.key ? { key: err.key, params: err.params } : {}) };
    throw err;
  }
}

/** A command handler's API calls, with failures shown as the error line (see withApiErrors). */
export function callApi(fn: () => Promise<HandlerResult>): Promise<HandlerResult> {
  return withApiErrors(fn);
}
