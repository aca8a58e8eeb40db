// A chat turn with a model of the local model server (Ollama), called from the browser: the
// server builds the messages (POST /api/generate_msg, the same context as a server turn), the
// browser streams Ollama's OpenAI-compatible /v1/chat/completions, and the turn is saved with
// POST /api/log/add (the server only accepts the caller's own sessions). Everything is reported
// as the same GenerationEvents a server answer produces, so the output code is shared.
import {
  ApiError,
  createApiClient,
  isOllamaUrl,
  OLLAMA_MESSAGES,
  ollamaModelName,
  ollamaModels,
  ollamaUrl,
  type GenerateRequest,
  type GenerationEvent,
  type SettingsStore,
  type SystemInfo,
} from '../../core/index.ts';
import { readSse } from './sse.ts';

/** The local model server's URL when the active model is one of its models, else undefined. */
export function localModelUrl(settings: SettingsStore, info: SystemInfo | undefined): string | undefined {
  const declared = (key: string) => settings.specs().some((s) => s.key === key);
  if (!declared('model') || !declared('baseUrl') || !settings.get<string>('model')) return undefined;
  const url = ollamaUrl(info);
  return isOllamaUrl(settings.get<string>('baseUrl'), url) ? url : undefined;
}

/** What /api/generate_msg answers. */
interface BuiltMessages {
  msg: { messages: unknown[]; mem: number; session: number };
}

type Part = { type?: string; text?: string; image?: unknown; toolCallId?: string; toolName?: string; input?: unknown; output?: { value?: unknown } };
type ChatMessage = Record<string, unknown>;

/** The server's messages (AI SDK shape) in the Chat Completions shape Ollama's /v1 API takes. */
export function toChatMessages(messages: unknown[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (const raw of messages) {
    const m = raw as { role?: string; content?: unknown };
    const parts: Part[] = Array.isArray(m.content) ? (m.content as Part[]) : [];
    if (typeof m.content === 'string') {
      out.push({ role: m.role, content: m.content });
    } else if (m.role === 'user') {
      out.push({
        role: 'user',
        content: parts.flatMap((p): ChatMessage[] =>
          p.type === 'text' ? [{ type: 'text', text: p.text ?? '' }] : p.type === 'image' ? [{ type: 'image_url', image_url: { url: String(p.image) } }] : [],
        ),
      });
    } else if (m.role === 'assistant') {
      const text = parts.filter((p) => p.type === 'text').map((p) => p.text ?? '').join('');
      const calls = parts
        .filter((p) => p.type === 'tool-call')
        .map((p) => ({ id: p.toolCallId, type: 'function', function: { name: p.toolName, arguments: JSON.stringify(p.input ?? {}) } }));
      out.push({ role: 'assistant', content: text || null, ...(calls.length ? { tool_calls: calls } : {}) });
    } else if (m.role === 'tool') {
      for (const p of parts) {
        const value = p.output?.value;
        out.push({ role: 'tool', tool_call_id: p.toolCallId, content: typeof value === 'string' ? value : JSON.stringify(value ?? '') });
      }
    }
  }
  return out;
}

async function providerError(response: Response): Promise<string> {
  let detail = '';
  try {
    const body = (await response.json()) as { error?: { message?: string } | string };
    detail = typeof body.error === 'string' ? body.error : (body.error?.message ?? '');
  } catch {
    detail = '';
  }
  return `The model provider answered ${response.status}${detail ? `: ${detail}` : ''}.`;
}

export async function localGeneration(
  request: GenerateRequest,
  onEvent: (event: GenerationEvent) => void,
  options: {
    signal: AbortSignal;
    /** The local model server. */
    ollamaUrl: string;
    /** The shellchat server ('' in the browser: same origin). */
    baseUrl?: string;
    fetch?: typeof fetch;
    texts?: { querying?: string; generating?: string };
  },
): Promise<void> {
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const model = request.model ?? '';
  // Spec part 8: the health check (100 ms), then the model in /v1/models.
  const names = await ollamaModels(options.ollamaUrl, { fetch: doFetch });
  if (!names) throw new ApiError(OLLAMA_MESSAGES.cannotConnect, 0);
  if (!names.includes(ollamaModelName(model))) throw new ApiError(OLLAMA_MESSAGES.modelNotFound, 404);

  onEvent({ type: 'status', text: options.texts?.querying || 'Querying...' });
  const api = createApiClient({ baseUrl: options.baseUrl ?? '', fetch: doFetch });
  const { mcp_tools: _tools, ...body } = request;
  const built = (await api.post<BuiltMessages>('/api/generate_msg', body)).result!.msg;
  if (options.signal.aborted) return;

  onEvent({ type: 'model', model });
  onEvent({ type: 'status', text: options.texts?.generating || 'Generating...' });
  let response: Response;
  try {
    response = await doFetch(`${options.ollamaUrl}/v1/chat/completions`, {
      method: 'POST',
      credentials: 'omit',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ model, messages: toChatMessages(built.messages), stream: true }),
      signal: options.signal,
    });
  } catch {
    if (options.signal.aborted) return;
    throw new ApiError(OLLAMA_MESSAGES.cannotConnect, 0);
  }
  if (response.status !== 200 || !response.body) throw new ApiError(await providerError(response), response.status);

  let output = '';
  for await (const message of readSse(response.body, options.signal)) {
    if (message.data === '[DONE]') break;
    let chunk: { choices?: { delta?: { content?: unknown } }[]; error?: { message?: string } };
    try {
      chunk = JSON.parse(message.data) as typeof chunk;
    } catch {
      continue;
    }
    if (chunk.error) throw new ApiError(chunk.error.message || 'Error occurred.', 500);
    const delta = chunk.choices?.[0]?.delta?.content;
    if (typeof delta === 'string' && delta) {
      output += delta;
      onEvent({ type: 'text', delta });
    }
  }
  // As with a server answer, a stopped turn is not saved.
  if (options.signal.aborted) return;

  const saved = await api.post<{ session: number; time: number }>('/api/log/add', {
    input: request.user_input,
    output,
    model,
    session: built.session,
    images: request.images ?? [],
  });
  onEvent({ type: 'done', session: saved.result!.session, time: saved.result!.time });
}
