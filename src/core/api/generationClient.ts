// The generation client: POST /api/generate_sse and read its events, or POST /api/generate
// when streaming is off. Runs in the browser and in Node (tests, the CLI).
import { ApiError, connectionLostError, offlineError, saidIn, statusError, type ApiAnswer } from './client.ts';
import { GENERATION_EVENT_TYPES, type GenerateRequest, type GenerateResult, type GenerationEvent } from '../generation.ts';
import { readSse } from './sse.ts';

const KNOWN = new Set<string>(GENERATION_EVENT_TYPES);

/**
 * The server's refusal (its `error` text), with its message's code when it has one (a gate's, a
 * guard's) so that it is shown translated; undefined when the body is not one of ours (another
 * server at that address answers other JSON).
 */
function refused(body: unknown, status: number): ApiError | undefined {
  const answer = (body ?? {}) as Partial<ApiAnswer>;
  if (typeof answer.error !== 'string' || !answer.error) return undefined;
  const said = typeof answer.code === 'string' ? saidIn({ error: answer.error, code: answer.code, ...(answer.params ? { params: answer.params } : {}) }) : undefined;
  return new ApiError(answer.error, status, undefined, typeof said === 'object' ? said : undefined);
}

export async function streamGeneration(
  request: GenerateRequest,
  onEvent: (event: GenerationEvent) => void,
  options: { signal: AbortSignal; baseUrl?: string; fetch?: typeof fetch },
): Promise<void> {
  const doFetch = options.fetch ?? fetch;
  let response: Response;
  try {
    response = await doFetch(`${options.baseUrl ?? ''}/api/generate_sse`, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify(request),
      signal: options.signal,
    });
  } catch (err) {
    if (options.signal.aborted) return;
    throw offlineError();
  }
  if (response.status !== 200 || !response.body) {
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      // not JSON
    }
    throw refused(body, response.status) ?? statusError(response.status);
  }
  // An answer ends with 'done' or 'error'. A stream that stops before either (the server was
  // killed, a proxy dropped the connection) is said to be cut, not taken for a whole answer.
  let ended = false;
  try {
    for await (const message of readSse(response.body, options.signal)) {
      if (!KNOWN.has(message.event)) continue;
      let data: object = {};
      try {
        data = JSON.parse(message.data) as object;
      } catch {
        continue;
      }
      if (message.event === 'done' || message.event === 'error') ended = true;
      onEvent({ type: message.event, ...data } as GenerationEvent);
    }
  } catch (err) {
    if (options.signal.aborted) return;
    throw err instanceof ApiError ? err : connectionLostError();
  }
  if (!ended && !options.signal.aborted) throw connectionLostError();
}

export async function generateOnce(
  request: GenerateRequest,
  options: { signal: AbortSignal; baseUrl?: string; fetch?: typeof fetch },
): Promise<GenerateResult> {
  let response: Response;
  // A server that cannot be reached is said as with streaming on, not as fetch's 'fetch failed'.
  try {
    response = await (options.fetch ?? fetch)(`${options.baseUrl ?? ''}/api/generate`, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(request),
      signal: options.signal,
    });
  } catch (err) {
    if (options.signal.aborted) throw err;
    throw offlineError();
  }
  const body = (await response.json().catch(() => ({}))) as Partial<ApiAnswer<GenerateResult>>;
  if (response.status !== 200 || !body.success || !body.result) {
    const refusal = refused(body, response.status);
    if (refusal) throw refusal;
    throw response.status === 200 ? new ApiError('Error occurred.', 200, { key: 'msg.errorOccurred' }) : statusError(response.status);
  }
  return body.result;
}
