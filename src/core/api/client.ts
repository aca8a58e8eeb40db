// The typed API client: fetch-based, so it runs in the browser, the CLI and the tests.
// Answers follow spec part 7 ({success, message, error, result}); a status other than 200
// is an error carrying the server's text, or 'Request failed with status {n}'.
import { Message, type MessageData } from '../messages.ts';

/**
 * The one answer shape of the API, on both sides. `code` and `params` come with a `message` or
 * an `error` that is one of the catalogues' (messages.ts), so clients show it in their language.
 */
export interface ApiAnswer<T = unknown> {
  success: boolean;
  message?: string;
  error?: string;
  result?: T;
  code?: string;
  params?: MessageData['params'];
}

/** An answer's `message` (or `error`), as message data when it came with a code, else as text. */
export function saidIn(answer: Pick<ApiAnswer, 'message' | 'error' | 'code' | 'params'>): string | MessageData {
  const text = answer.message ?? answer.error ?? '';
  return answer.code ? { code: answer.code, params: answer.params ?? {}, text } : text;
}

/** The answer fields that carry `said`: its English as `field`, and its code and values beside. */
export function answerFields(field: 'message' | 'error', said: string | Message): Pick<ApiAnswer, 'message' | 'error' | 'code' | 'params'> {
  if (!(said instanceof Message)) return { [field]: said };
  const { code, params, text } = said.toData();
  return { [field]: text, code, params };
}

export class ApiError extends Error {
  readonly status: number;
  /** When the message is one of the shell's own (`msg.*`): its key, to show it translated. */
  readonly key: string | undefined;
  readonly params: Record<string, unknown> | undefined;
  /** When the server's error is one of the catalogues' messages: its code and values. */
  readonly said: MessageData | undefined;
  constructor(message: string | Message, status: number, translation?: { key: string; params?: Record<string, unknown> }, said?: MessageData) {
    super(String(message));
    this.status = status;
    this.key = translation?.key;
    this.params = translation?.params;
    this.said = said ?? (message instanceof Message ? message.toData() : undefined);
  }
}

/** The server could not be reached. */
export const offlineError = () => new ApiError('You are offline.', 0, { key: 'msg.offline' });
/** A streamed answer whose connection closed before its end (the server went away mid-answer). */
export const connectionLostError = () =>
  new ApiError('The connection to the server was lost before the answer was complete.', 0, { key: 'msg.connectionLost' });
/** A status other than 200 without the server's own text. */
export const statusError = (status: number) => new ApiError(`Request failed with status ${status}`, status, { key: 'msg.requestFailed', params: { status } });

export interface ApiClient {
  get<T>(path: string, query?: Record<string, string>): Promise<ApiAnswer<T>>;
  post<T>(path: string, body?: unknown): Promise<ApiAnswer<T>>;
  /** Where the API is ('' for this origin) and the fetch it goes through: what the typed client (typed.ts) uses. */
  readonly baseUrl: string;
  readonly fetch: typeof fetch;
}

/** The answer of a response, or the ApiError it is (a status other than 200, or success false). */
export async function readAnswer<T>(response: Response): Promise<ApiAnswer<T>> {
  let answer: ApiAnswer<T> | undefined;
  try {
    answer = (await response.json()) as ApiAnswer<T>;
  } catch {
    answer = undefined;
  }
  // Only our answer's fields: another server at that address may answer other JSON ({error: {...}}).
  const error = typeof answer?.error === 'string' ? answer.error : undefined;
  const refusal = (text: string) => {
    const said = typeof answer?.code === 'string' ? saidIn(answer) : undefined;
    return new ApiError(text, response.status, undefined, said && typeof said !== 'string' ? said : undefined);
  };
  if (response.status !== 200 || !answer) throw error ? refusal(error) : statusError(response.status);
  if (!answer.success) throw refusal(error || 'An error occurred during your request.');
  return answer;
}

export function createApiClient(options: { baseUrl?: string; fetch?: typeof fetch } = {}): ApiClient {
  const base = options.baseUrl ?? '';
  const doFetch: typeof fetch = options.fetch ?? ((input, init) => fetch(input, init));
  async function send<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<ApiAnswer<T>> {
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
    return readAnswer<T>(response);
  }
  return {
    get: (path, query) => send('GET', query && Object.keys(query).length ? `${path}?${new URLSearchParams(query)}` : path),
    post: (path, body) => send('POST', path, body ?? {}),
    baseUrl: base,
    fetch: doFetch,
  };
}

/** The server could not be reached at all (the fetch failed): 'You are offline.' */
export function isOffline(err: unknown): boolean {
  return err instanceof ApiError && err.status === 0;
}

/**
 * What a `ls` command says rather than an empty list: the server cannot be reached, or it
 * refuses (403: the plus plan's gate, with its reason).
 */
export function listingMustSay(err: unknown): boolean {
  return isOffline(err) || (err instanceof ApiError && err.status === 403);
}

/**
 * Runs a command's API calls and turns an API failure into the error line the user sees
 * (the server's text, or 'Request failed with status {n}'); other errors propagate.
 */
export async function withApiErrors<T>(fn: () => Promise<T>): Promise<T | { kind: 'error'; text: string }> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof ApiError) {
      return { kind: 'error', text: err.message, ...(err.key ? { key: err.key, params: err.params } : {}), ...(err.said ? { message: err.said } : {}) };
    }
    throw err;
  }
}
