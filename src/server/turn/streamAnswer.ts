// The streaming of a turn's answer: through the direct relay for OpenAI-compatible models
// unless STREAM_RELAY=sdk (../transport/directStream.ts), through the AI SDK otherwise
// (../transport/sdkStream.ts), with retries before the first token (../transport/retry.ts).
// The relay's parts go to the browser as they come and into a StreamedAnswer, which the turn
// reads once the stream has ended (or keeps from, when it stops).
import type { ModelMessage } from 'ai';
import type { ToolCall } from '../../core/index.ts';
import { MAX_TOOL_ROUNDS } from '../../core/index.ts';
import { SERVER_MESSAGES } from '../../core/serverMessages.ts';
import type { ModelEntry } from '../models/systemModels.ts';
import { directChatStream, type DirectStreamOptions, type PartSink, type RelayTool } from '../transport/directStream.ts';
import { RetryGate, retryStatus, withRetries } from '../transport/retry.ts';
import { sdkChatStream } from '../transport/sdkStream.ts';
import { AnswerText } from './answerText.ts';
import { modelFetch, type ModelTurn } from './deps.ts';
import { errorMessage, GenerationError, statusEvent } from './errors.ts';

/** Providers whose APIs take image URLs themselves (the provider fetches them, not us). */
const URL_PROVIDERS = new Set(['openai-compatible', 'openai', 'anthropic']);

/** What the model has sent of the turn so far (the part sink writes it; the steps after the stream read it). */
export class StreamedAnswer {
  readonly answer = new AnswerText();
  /** The model event has gone to the browser (its first text or tool call): no more retries. */
  modelSent = false;
  readonly calls = new Map<string, ToolCall>();
  /** The results of the calls that ran here, by call id. */
  readonly results = new Map<string, string>();
  usage = { inputTokens: 0, outputTokens: 0 };
  /** Steps of the model (one per round of server tool calls) and whether the last one called tools. */
  steps = 0;
  lastStepCalledTools = false;
  /** The error the stream ended with, unless it was held for a retry. */
  failure: unknown = undefined;
}

/**
 * Streams the model's answer into `streamed`: through the direct relay for OpenAI-compatible
 * models unless STREAM_RELAY=sdk, through the AI SDK otherwise, started again after a 429 or
 * 5xx that came before the first token (retry.ts). The browser sees a status while it waits.
 */
export async function streamAnswer(turn: ModelTurn, messages: ModelMessage[], tools: Record<string, RelayTool>, streamed: StreamedAnswer): Promise<void> {
  const { deps, entry, emit, signal } = turn;
  // The direct relay hands over one text part per network read of the provider.
  const direct = entry.provider === 'openai-compatible' && deps.settings.streamRelay === 'direct';
  const options: DirectStreamOptions = {
    entry,
    fetch: modelFetch(entry, deps),
    messages,
    tools,
    temperature: deps.settings.temperature,
    topP: deps.settings.topP,
    maxSteps: MAX_TOOL_ROUNDS,
    signal,
    toolChoice: turn.extra?.toolChoice,
  };
  const gate = new RetryGate(() => streamed.modelSent);
  const observed = observe(turn, streamed);
  const sink = partSink(turn, streamed, gate, direct, observed);
  let thrown: unknown;
  try {
    await withRetries(
      () => (direct ? directChatStream(options, sink) : sdkChatStream({ ...options, download: imageDownloader(entry, deps.egressFetch) }, sink)),
      gate,
      signal,
      (delay, failure) => emit({ type: 'status', text: retryStatus(delay, failure) }),
      () => emit(statusEvent(deps.settings.generating)),
    );
  } catch (err) {
    thrown = err;
    // A held error that could not be retried is thrown here, once, after its part was counted.
    if (err !== gate.held) observed.failed(err);
    throw err;
  } finally {
    observed.end(thrown);
  }
}

/** Says the answer's start, first token, provider errors and end on the server's events (metrics listen). */
function observe({ deps, entry, signal }: ModelTurn, streamed: StreamedAnswer) {
  const events = deps.events;
  const provider = entry.provider;
  const started = performance.now();
  events?.emit('answer.start', { provider });
  return {
    failed(error: unknown) {
      // A stop (the reader gone, a shutdown) ends the stream with an abort: not the provider's error.
      if (signal.aborted) return;
      const status = (error as { statusCode?: unknown } | null)?.statusCode;
      events?.emit('provider.error', { provider, status: typeof status === 'number' ? status : null });
    },
    firstToken() {
      events?.emit('answer.firstToken', { provider, ms: performance.now() - started });
    },
    end(thrown: unknown) {
      const outcome = signal.aborted ? 'stopped' : thrown !== undefined || streamed.failure !== undefined ? 'failed' : 'done';
      events?.emit('answer.end', { provider, outcome, ...streamed.usage, ms: performance.now() - started });
    },
  };
}

/**
 * The sink of the relay's parts. Called synchronously for each network read on the direct
 * relay (`direct`): the text goes on to the browser's stream, and its back-pressure comes back
 * as the returned promise.
 */
function partSink(
  { entry, emit }: ModelTurn,
  streamed: StreamedAnswer,
  gate: RetryGate,
  direct: boolean,
  observed: { failed(error: unknown): void; firstToken(): void },
): PartSink {
  const { answer, calls, results } = streamed;
  return (part) => {
    if (!streamed.modelSent && (part.type === 'text-delta' || part.type === 'tool-call')) {
      emit({ type: 'model', model: entry.name });
      streamed.modelSent = true;
      observed.firstToken();
    }
    switch (part.type) {
      case 'text-delta':
        answer.add(part.text);
        return emit({ type: 'text', delta: part.text }, direct);
      case 'start-step':
        streamed.steps++;
        streamed.lastStepCalledTools = false;
        return;
      case 'tool-call':
        streamed.lastStepCalledTools = true;
        calls.set(part.toolCallId, { id: part.toolCallId, name: part.toolName, args: JSON.stringify(part.input ?? {}) });
        return;
      case 'tool-result':
        results.set(part.toolCallId, typeof part.output === 'string' ? part.output : JSON.stringify(part.output));
        return;
      case 'tool-error':
        results.set(part.toolCallId, `Error: ${errorMessage(part.error)}`);
        return;
      case 'finish':
        streamed.usage = { inputTokens: part.totalUsage.inputTokens ?? 0, outputTokens: part.totalUsage.outputTokens ?? 0 };
        return;
      case 'error':
        observed.failed(part.error);
        if (!gate.take(part.error)) streamed.failure ??= part.error;
        return;
    }
  };
}

/**
 * Passes image URLs through where the provider takes them; elsewhere downloads them safely
 * (for the AI SDK's relay: image URLs are the user's, never fetched with the SDK's plain fetch).
 */
function imageDownloader(entry: ModelEntry, egressFetch: typeof fetch) {
  return (requests: { url: URL; isUrlSupportedByModel: boolean; abortSignal?: AbortSignal }[]) =>
    Promise.all(
      requests.map(async ({ url, isUrlSupportedByModel, abortSignal }) => {
        if (isUrlSupportedByModel || URL_PROVIDERS.has(entry.provider)) return null;
        const response = await egressFetch(url.href, { signal: abortSignal });
        if (!response.ok) throw new GenerationError(SERVER_MESSAGES.imageFailed(url.href, response.status));
        return { data: new Uint8Array(await response.arrayBuffer()), mediaType: response.headers.get('content-type') ?? undefined };
      }),
    );
}
