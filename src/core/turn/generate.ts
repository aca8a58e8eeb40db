// Where a turn's answer comes from, as one function that reports GenerationEvents: the server's
// stream (POST /api/generate_sse), or its whole answer (POST /api/generate, streaming off)
// reported as the same events, so that a surface renders both alike. The browser's local model
// turns (src/shell/chat/local.ts) are another such function.
import { generateOnce, streamGeneration } from '../api/generationClient.ts';
import { statusEvent, type GenerateRequest, type GenerationEvent } from '../generation.ts';
import { SERVER_MESSAGES } from '../serverMessages.ts';

export type Generate = (request: GenerateRequest, onEvent: (event: GenerationEvent) => void, signal: AbortSignal) => Promise<void>;

export interface ServerGenerationOptions {
  /** Streamed (the `useStream` setting), or whole when the answer is complete. */
  stream: boolean;
  /** The shellchat server ('' in the browser: same origin). */
  baseUrl?: string;
  fetch?: typeof fetch;
  /** The operator's 'Generating...' (system info), said while a whole answer is awaited. */
  generating?: string;
}

export function serverGeneration(options: ServerGenerationOptions): Generate {
  const via = { baseUrl: options.baseUrl, fetch: options.fetch };
  if (options.stream) return (request, onEvent, signal) => streamGeneration(request, onEvent, { signal, ...via });
  return async (request, onEvent, signal) => {
    // Without streaming nothing shows until the whole answer is there: say that it is coming.
    onEvent(statusEvent(options.generating || SERVER_MESSAGES.generating));
    const result = await generateOnce(request, { signal, ...via });
    onEvent({ type: 'model', model: result.info.model });
    onEvent({ type: 'text', delta: result.text });
    onEvent({ type: 'done', session: result.info.session, time: result.info.time, tool_calls: result.tool_calls });
    if (request.use_stats) onEvent({ type: 'stats', stats: result.stats });
    if (result.eval) onEvent({ type: 'eval', ...result.eval });
    for (const url of result.images) onEvent({ type: 'image', url });
    for (const event of result.events) onEvent({ type: 'event', event });
  };
}
