// A chat turn with a model of the local model server (Ollama), called from the browser: the
// server builds the messages (POST /api/generate_msg, the same context as a server turn), the
// browser streams Ollama's OpenAI-compatible /v1/chat/completions (./localStep.ts), runs the
// tool calls of the enabled functions (the function plugin's Toolbox), and the turn is saved
// with POST /api/log/add (the server only accepts the caller's own sessions). Everything is reported
// as the same GenerationEvents a server answer produces, so the output code is shared.
import {
  ApiError,
  createApiClient,
  isOllamaUrl,
  MAX_TOOL_ROUNDS,
  OLLAMA_MESSAGES,
  ollamaModelName,
  ollamaModels,
  ollamaUrl,
  statusEvent,
  type GenerateRequest,
  type GenerationEvent,
  type SettingsStore,
  type SystemInfo,
  type Toolbox,
  type ToolResult,
} from '../../core/index.ts';
import { streamStep, type ChatMessage } from './localStep.ts';
import { offlineMessages, rememberOffline } from './offline.ts';
import { SERVER_MESSAGES } from '../../core/serverMessages.ts';
import { send, typedClient } from '../../core/api/typed.ts';
import type { GenerationRoutes } from '../../server/turn/routes.ts';

/** The shellchat server could not be reached (the API client's 'You are offline.'). */
const unreachable = (err: unknown) => err instanceof ApiError && err.status === 0;

/** The local model server's URL when the active model is one of its models, else undefined. */
export function localModelUrl(settings: SettingsStore, info: SystemInfo | undefined): string | undefined {
  const declared = (key: string) => settings.specs().some((s) => s.key === key);
  if (!declared('model') || !declared('baseUrl') || !settings.get<string>('model')) return undefined;
  const url = ollamaUrl(info);
  return isOllamaUrl(settings.get<string>('baseUrl'), url) ? url : undefined;
}

type Part = { type?: string; text?: string; image?: unknown; toolCallId?: string; toolName?: string; input?: unknown; output?: { value?: unknown } };

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
    /** The enabled functions, when the function plugin is installed. */
    toolbox?: Toolbox;
  },
): Promise<void> {
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const { signal } = options;
  const model = request.model ?? '';
  // Spec part 8: the health check (100 ms), then the model in /v1/models.
  const names = await ollamaModels(options.ollamaUrl, { fetch: doFetch });
  if (!names) throw new ApiError(OLLAMA_MESSAGES.ollamaCannotConnect, 0);
  if (!names.includes(ollamaModelName(model))) throw new ApiError(OLLAMA_MESSAGES.ollamaModelNotFound, 404);

  onEvent(statusEvent(options.texts?.querying || SERVER_MESSAGES.querying));
  const api = typedClient<GenerationRoutes>(createApiClient({ baseUrl: options.baseUrl ?? '', fetch: doFetch })).api;
  const { mcp_tools: _tools, ...body } = request;
  // The server builds the messages; when it cannot be reached, the browser does (offline mode).
  let built: { messages: ChatMessage[]; session: number } | undefined;
  try {
    const answer = (await send(api.generate_msg.$post({ json: body }))).result.msg;
    built = { messages: toChatMessages(answer.messages), session: answer.session };
  } catch (err) {
    if (!unreachable(err)) throw err;
  }
  if (signal.aborted) return;
  const enabled = String(request.functions ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  let tools = options.toolbox && enabled.length ? await options.toolbox.tools(enabled) : [];

  onEvent({ type: 'model', model });
  onEvent(statusEvent(options.texts?.generating || SERVER_MESSAGES.generating));
  const messages = built?.messages ?? offlineMessages(request);
  let output = '';
  const ran: ToolResult[] = [];
  // The tool-call loop of spec part 4, here in the browser: the built-ins run on the server,
  // the MCP helper's tools locally, and the answer is asked for again with their results.
  const rounds = async () => {
    for (let round = 0; !signal.aborted; round++) {
      const step = await streamStep({ ollamaUrl: options.ollamaUrl, model, signal, fetch: doFetch }, messages, tools, (delta) => {
        output += delta;
        onEvent({ type: 'text', delta });
      });
      if (!step || signal.aborted || !step.calls.length) return;
      if (!step.toolsUsed) tools = [];
      if (round + 1 >= MAX_TOOL_ROUNDS) throw new ApiError(`The model kept calling tools; stopped after ${MAX_TOOL_ROUNDS} rounds.`, 500);
      onEvent({ type: 'call', calls: step.calls });
      const results: ChatMessage[] = [];
      for (const call of step.calls) {
        let args: unknown;
        try {
          args = JSON.parse(call.args);
        } catch {
          args = undefined;
        }
        const { result, event } =
          args === undefined || !options.toolbox
            ? { result: `Error: Invalid arguments for ${call.name}: not JSON.`, event: undefined }
            : await options.toolbox.call(call.name, args, signal);
        if (event) onEvent({ type: 'event', event });
        ran.push({ ...call, result });
        results.push({ role: 'tool', tool_call_id: call.id, content: result });
      }
      messages.push(
        { role: 'assistant', content: step.text || null, tool_calls: step.calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.args } })) },
        ...results,
      );
    }
  };
  // Stopped, or cut off mid-answer: what was said is kept, as the server keeps its answers,
  // and the error comes once the log is saved (so the browser knows where it went).
  let failure: unknown;
  try {
    await rounds();
  } catch (err) {
    if (!output) throw err;
    if (!signal.aborted) failure = err;
  }
  // A stopped turn keeps what was said, and nothing when nothing was.
  if (signal.aborted && !output) return;

  // Offline, or the server went away meanwhile: the turn is kept here, as offline memory.
  const saved = built
    ? await send(
        api.log.add.$post({
          json: {
            input: request.user_input,
            output,
            model,
            session: built.session,
            images: request.images ?? [],
            ...(ran.length ? { tools: ran } : {}),
          },
        }),
      ).catch((err: unknown) => {
          if (!unreachable(err)) throw err;
          return undefined;
        })
    : undefined;
  if (saved) onEvent({ type: 'done', session: saved.result.session, time: saved.result.time });
  else rememberOffline({ input: request.user_input, output }, request);
  if (failure) throw failure;
}
