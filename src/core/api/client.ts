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
  constructor(message: string, status: number) {
    super(message);
    this.status = status;
  }
}

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
      throw new ApiError('You are offline.', 0);
    }
    let answer: ApiAnswer<T> | undefined;
    try {
      answer = (await response.json()) as ApiAnswer<T>;
    } catch {
      answer = undefined;
    }
    if (response.status !== 200 || !answer) {
      throw new ApiError(answer?.error || `Request failed with status ${response.status}`, response.status);
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
    if (err instanceof ApiError) return { kind: 'error', text: err.message };
    throw err;
  }
}

/** A command handler's API calls, with failures shown as the error line (see withApiErrors). */
export function callApi(fn: () => Promise<HandlerResult>): Promise<HandlerResult> {
  return withApiErrors(fn);
}
