// One generation: model, context, the tool loop, streaming, self-evaluation, and the turn's
// log and usage. Events go to `emit` as they happen; the SSE route relays them, the JSON
// route collects them.
// OpenAI-compatible models stream through the direct relay (directStream.ts) unless
// STREAM_RELAY=sdk; the others through the AI SDK's single-consumer streamText (we read
// fullStream once, so no replay buffer is kept).
import { experimental_streamTextLowMemory as streamText, jsonSchema, stepCountIs, tool, type ModelMessage, type ToolSet } from 'ai';
import type { Kysely } from 'kysely';
import type {
  AttachmentsApi,
  ContextProvider,
  GenerationGuard,
  Database,
  GenerateRequest,
  GenerateResult,
  GenerationEvent,
  RedirectEvent,
  ServerTool,
  Stats,
  ToolCall,
  ToolResult,
} from '../../core/index.ts';
import { DEFAULT_MEM_LENGTH, MAX_TOOL_ROUNDS } from '../../core/index.ts';
import type { ModelRegistry } from '../models/registry.ts';
import { languageModel } from '../models/providers.ts';
import type { ModelEntry } from '../models/systemModels.ts';
import { evaluate } from './evaluate.ts';
import { runImageTurn } from './imageTurn.ts';
import { fetchFileTexts, imagesOf, inlineUploadedImages } from './files.ts';
import { directChatStream, type PartSink, type RelayPart, type RelayTool } from '../transport/directStream.ts';
import { buildMessages } from './modelMessages.ts';
import type { Owner } from './owner.ts';
import { AnswerText } from './answerText.ts';
import { ServerStopping, type InFlight } from './inflight.ts';
import { estimateUsage, saveTurn, type TurnRecord } from './persist.ts';
import { memory, memoryUnits, SessionError, sessionForTurn } from './sessions.ts';
import { RetryGate, retryStatus, withRetries } from '../transport/retry.ts';
import { errorMessage, GenerationError } from './errors.ts';
import { SERVER_MESSAGES } from '../../core/serverMessages.ts';

export { GenerationError, MAX_TOOL_ROUNDS };

export interface GenerationDeps {
  db: Kysely<Database>;
  models: ModelRegistry;
  providers: ContextProvider[];
  /** Checks before a turn (usage limits): a message refuses it. */
  guards?: GenerationGuard[];
  tools: Map<string, ServerTool>;
  /** fetch for user-supplied URLs (files, user models). */
  egressFetch: typeof fetch;
  /** The files behind attachment URLs: this server's uploads, or the egress-safe fetch. */
  attachments: AttachmentsApi;
  settings: { roleContentSystem: string; temperature: number; topP: number; querying: string; generating: string; streamRelay: 'direct' | 'sdk'; publicUrl?: string };
  log: { error(obj: object, msg?: string): void };
  /** Generations under way (a shutdown stops them: inflight.ts). */
  inflight: InFlight;
}

const SERVER_STOPPING_KEPT = SERVER_MESSAGES.stoppingKept;
const SERVER_STOPPING = SERVER_MESSAGES.stopping;

/** Providers whose APIs take image URLs themselves (the provider fetches them, not us). */
const URL_PROVIDERS = new Set(['openai-compatible', 'openai', 'anthropic']);

/** Passes image URLs through where the provider takes them; elsewhere downloads them safely. */
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

/** Refuses the turn with the first guard's message (before anything is written or asked). */
export async function checkGuards(guards: GenerationGuard[] | undefined, request: GenerateRequest, owner: Owner): Promise<void> {
  for (const guard of guards ?? []) {
    const refusal = await guard({ request, owner });
    if (refusal) throw new GenerationError(refusal);
  }
}

/** The stats block of a turn (spec part 3), its token count and functions filled in later. */
function turnStats(deps: GenerationDeps, request: GenerateRequest, mem: string): Stats {
  return {
    temperature: deps.settings.temperature,
    top_p: deps.settings.topP,
    token_ct: 0,
    func: '',
    mem,
    role: request.role ?? '',
    stores: request.stores ?? '',
    node: request.node ?? '',
    eval: '',
  };
}

/** An async iterable of parts (the AI SDK's fullStream) into a sink, ending at an error part. */
async function drain(parts: AsyncIterable<RelayPart>, sink: PartSink): Promise<void> {
  for await (const part of parts) {
    const held = sink(part);
    if (held) await held;
    if (part.type === 'error') return;
  }
}

function modelFetch(entry: ModelEntry, deps: GenerationDeps): typeof fetch | undefined {
  // Operator-configured system models are trusted; user and group base URLs are not.
  return entry.scope === 'system' ? undefined : deps.egressFetch;
}

/** The turn through the AI SDK: streamText with the same tools and stop rule. */
function sdkStream(entry: ModelEntry, fetchImpl: typeof fetch | undefined, messages: ModelMessage[], relayTools: Record<string, RelayTool>, deps: GenerationDeps, signal: AbortSignal) {
  const tools: ToolSet = {};
  for (const [name, t] of Object.entries(relayTools)) {
    const inputSchema = jsonSchema<unknown>(t.parameters as never);
    tools[name] = t.execute ? tool({ description: t.description, inputSchema, execute: t.execute }) : tool({ description: t.description, inputSchema });
  }
  return streamText({
    model: languageModel(entry, fetchImpl),
    messages,
    // The system messages are the server's own: the operator's prompt and the context providers'.
    allowSystemInMessages: true,
    tools: Object.keys(tools).length ? tools : undefined,
    stopWhen: stepCountIs(MAX_TOOL_ROUNDS),
    temperature: deps.settings.temperature,
    topP: deps.settings.topP,
    abortSignal: signal,
    // We retry ourselves (withRetries), so that the waits are short and follow Retry-After.
    maxRetries: 0,
    // Errors arrive as 'error' parts; the SDK's default handler would also print them.
    onError: () => {},
    // Image URLs are the user's: never fetched with the SDK's plain fetch.
    experimental_download: imageDownloader(entry, deps.egressFetch),
  }).fullStream;
}

export async function runGeneration(
  deps: GenerationDeps,
  request: GenerateRequest,
  owner: Owner,
  /** May return a promise when the reader is behind: the stream waits for it (back-pressure). */
  emit: (event: GenerationEvent, endOfRead?: boolean) => void | Promise<void>,
  signal: AbortSignal,
  /** Where the server's own URLs point (an image model's pictures): PUBLIC_URL or the request's origin. */
  origin: () => string = () => '',
): Promise<GenerateResult | undefined> {
  const { db } = deps;
  const user = owner.user;
  // What a stop (or a closed tab, or a provider that cut the answer off) leaves: the answer so
  // far, kept as the turn's log. Stopped by a shutdown, the browser is still there: it learns
  // where the log went and why it stopped.
  let keepStopped: (() => Promise<{ session: number; time: number } | undefined>) | undefined;
  const keep = async (what: string) => {
    try {
      return await keepStopped?.();
    } catch (err) {
      deps.log.error({ err: { message: String((err as Error)?.message) } }, `saving ${what} failed`);
      return undefined;
    }
  };
  const stopped = async () => {
    const kept = await keep('a stopped answer');
    if (signal.reason instanceof ServerStopping) {
      if (kept) emit({ type: 'done', session: kept.session, time: kept.time });
      emit({ type: 'error', error: kept ? SERVER_STOPPING_KEPT : SERVER_STOPPING });
    }
    return undefined;
  };
  try {
    if (deps.guards?.length) await checkGuards(deps.guards, request, owner);
    const session = await sessionForTurn(db, request.session, request.time, owner);
    const entry = request.model ? await deps.models.resolve(request.model, user) : deps.models.defaultModel();
    if (!entry) throw new GenerationError(request.model ? SERVER_MESSAGES.modelNotFound : SERVER_MESSAGES.noModel);
    const images = request.images ?? [];
    // An image model answers with a picture (imageTurn.ts); the images attached are to be edited.
    if (entry.capabilities.image) {
      emit({ type: 'status', text: deps.settings.querying });
      const stats = turnStats(deps, request, `0/${request.mem_length ?? DEFAULT_MEM_LENGTH}`);
      return await runImageTurn({ deps, request, owner, entry, session, stats, fetch: modelFetch(entry, deps), origin: origin(), emit, signal });
    }
    if (images.length && !entry.capabilities.vision) throw new GenerationError(SERVER_MESSAGES.noVision(entry.name));

    emit({ type: 'status', text: deps.settings.querying });
    const providerSystem: string[] = [];
    // Images a context provider produced (a node's) are shown with the answer, not sent to the model.
    const providerImages: string[] = [];
    for (const provider of deps.providers) {
      const added = await provider({ request, user, signal, status: (text) => emit({ type: 'status', text }) });
      providerSystem.push(...(added?.system ?? []));
      providerImages.push(...(added?.images ?? []));
    }
    const memLength = request.mem_length ?? DEFAULT_MEM_LENGTH;
    const past = memLength > 0 ? await memory(db, session, memLength) : [];
    const fileTexts = await fetchFileTexts(request.files ?? [], deps.attachments, signal);
    const inlineImages = entry.capabilities.vision ? await inlineUploadedImages(imagesOf(images, past), deps.attachments, signal) : undefined;
    const messages = buildMessages(request, {
      systemPrompt: deps.settings.roleContentSystem,
      providerSystem,
      memory: past,
      fileTexts,
      vision: entry.capabilities.vision,
      inlineImages,
    });

    // Tools: the server's enabled functions run here; the browser's MCP tools have no
    // execute, so the model's call ends the turn and the browser runs them (spec part 4).
    const enabled = new Set((request.functions ?? '').split(',').map((s) => s.trim()).filter(Boolean));
    const events: RedirectEvent[] = [];
    const relayTools: Record<string, RelayTool> = {};
    if (entry.capabilities.tools) {
      for (const [name, serverTool] of deps.tools) {
        if (!enabled.has(name)) continue;
        relayTools[name] = {
          description: serverTool.description,
          parameters: serverTool.parameters,
          execute: async (args: unknown) => {
            const out = await serverTool.execute(args, { user, signal });
            if (out.event) {
              events.push(out.event);
              emit({ type: 'event', event: out.event });
            }
            return out.result;
          },
        };
      }
      for (const mcp of request.mcp_tools ?? []) {
        relayTools[mcp.name] = { description: mcp.description ?? mcp.name, parameters: mcp.parameters ?? { type: 'object' } };
      }
    }

    const stats = turnStats(deps, request, `${past.reduce((n, log) => n + memoryUnits(log), 0)}/${memLength}`);
    if (request.use_stats) emit({ type: 'stats', stats });
    for (const url of [...images, ...providerImages]) emit({ type: 'image', url });

    // The context is built; what follows waits on the model (system info's texts, spec part 3).
    emit({ type: 'status', text: deps.settings.generating });
    const fetchImpl = modelFetch(entry, deps);
    // The direct relay hands over one text part per network read of the provider.
    const direct = entry.provider === 'openai-compatible' && deps.settings.streamRelay === 'direct';
    const start = (sink: PartSink): Promise<void> =>
      direct
        ? directChatStream(
            {
              entry,
              fetch: fetchImpl,
              messages,
              tools: relayTools,
              temperature: deps.settings.temperature,
              topP: deps.settings.topP,
              maxSteps: MAX_TOOL_ROUNDS,
              signal,
            },
            sink,
          )
        : drain(sdkStream(entry, fetchImpl, messages, relayTools, deps, signal) as AsyncIterable<RelayPart>, sink);

    const answer = new AnswerText();
    let modelSent = false;
    const gate = new RetryGate(() => modelSent);
    const calls = new Map<string, ToolCall>();
    const results = new Map<string, string>();
    let usage = { inputTokens: 0, outputTokens: 0 };
    // Steps of the model (one per round of server tool calls) and whether the last one called tools.
    let steps = 0;
    let lastStepCalledTools = false;
    let failure: unknown;
    // The turn's log: what was said, the tools that ran and the tokens used, at the model's prices.
    const turnRecord = (output: string, tools: ToolResult[], used: { inputTokens: number; outputTokens: number }, evalUsage?: TurnRecord['evalUsage']): TurnRecord => ({
      session,
      owner,
      model: entry.name,
      input: request.user_input,
      output,
      images,
      tools,
      usage: { ...used, cost: used.inputTokens * entry.priceInput + used.outputTokens * entry.priceOutput },
      evalUsage,
    });
    keepStopped = async () => {
      // Nothing was said, or the browser was about to run tools: nothing worth a log.
      const text = answer.text;
      if (!text || [...calls.keys()].some((id) => !results.has(id))) return;
      // The provider reports usage only at the end of a stream: estimate what it would bill.
      const { time } = await saveTurn(db, turnRecord(text, request.tool_results ?? [], usage.outputTokens ? usage : estimateUsage(messages, text)));
      return { session, time };
    };
    // Called synchronously for each network read on the direct relay: the text goes on to the
    // browser's stream, and its back-pressure comes back as the returned promise.
    const onPart: PartSink = (part) => {
      if (!modelSent && (part.type === 'text-delta' || part.type === 'tool-call')) {
        emit({ type: 'model', model: entry.name });
        modelSent = true;
      }
      switch (part.type) {
        case 'text-delta':
          answer.add(part.text);
          return emit({ type: 'text', delta: part.text }, direct);
        case 'start-step':
          steps++;
          lastStepCalledTools = false;
          return;
        case 'tool-call':
          lastStepCalledTools = true;
          calls.set(part.toolCallId, { id: part.toolCallId, name: part.toolName, args: JSON.stringify(part.input ?? {}) });
          return;
        case 'tool-result':
          results.set(part.toolCallId, typeof part.output === 'string' ? part.output : JSON.stringify(part.output));
          return;
        case 'tool-error':
          results.set(part.toolCallId, `Error: ${errorMessage(part.error)}`);
          return;
        case 'finish':
          usage = { inputTokens: part.totalUsage.inputTokens ?? 0, outputTokens: part.totalUsage.outputTokens ?? 0 };
          return;
        case 'error':
          if (!gate.take(part.error)) failure ??= part.error;
          return;
      }
    };
    await withRetries(
      () => start(onPart),
      gate,
      signal,
      (delay, failure) => emit({ type: 'status', text: retryStatus(delay, failure) }),
      () => emit({ type: 'status', text: deps.settings.generating }),
    );
    const text = answer.text;
    if (failure !== undefined) throw failure;
    if (signal.aborted) return stopped();

    const serverResults: ToolResult[] = [...calls.values()].filter((c) => results.has(c.id)).map((c) => ({ ...c, result: results.get(c.id)! }));
    const pending = [...calls.values()].filter((c) => !results.has(c.id));
    stats.func = [...calls.values()].map((c) => c.name).join('|');
    stats.token_ct = usage.inputTokens + usage.outputTokens;
    if (pending.length) {
      if (pending.some((c) => !request.mcp_tools?.some((t) => t.name === c.name))) {
        throw new GenerationError(SERVER_MESSAGES.toolRounds(MAX_TOOL_ROUNDS));
      }
      // The browser runs these and sends the turn again with their results.
      emit({ type: 'call', calls: pending });
      emit({ type: 'done', session, time: 0, tool_calls: pending });
      return { events, tool_calls: pending, images: [...images, ...providerImages], text, stats, info: { model: entry.name, session, time: 0 } };
    }
    if (steps >= MAX_TOOL_ROUNDS && lastStepCalledTools) {
      throw new GenerationError(SERVER_MESSAGES.toolRounds(MAX_TOOL_ROUNDS));
    }

    let evaluation: GenerateResult['eval'];
    let evalUsage;
    if (request.use_eval && text) {
      const evaluator = deps.models.defaultModel() ?? entry;
      const judged = await evaluate(languageModel(evaluator, modelFetch(evaluator, deps)), request.user_input, text, signal);
      evaluation = { score: judged.score, reason: judged.reason };
      stats.eval = judged.score === null ? '?' : String(judged.score);
      evalUsage = {
        model: evaluator.name,
        ...judged.usage,
        cost: judged.usage.inputTokens * evaluator.priceInput + judged.usage.outputTokens * evaluator.priceOutput,
      };
      emit({ type: 'eval', score: judged.score, reason: judged.reason });
    }
    const { time } = await saveTurn(db, turnRecord(text, [...(request.tool_results ?? []), ...serverResults], usage, evalUsage));
    if (request.use_stats) emit({ type: 'stats', stats });
    emit({ type: 'done', session, time });
    return { events, tool_calls: [], images: [...images, ...providerImages], text, stats, info: { model: entry.name, session, time }, eval: evaluation };
  } catch (err) {
    if (signal.aborted) return stopped();
    if (!(err instanceof GenerationError) && !(err instanceof SessionError)) deps.log.error({ err: { message: String((err as Error)?.message) } }, 'generation failed');
    // An answer the provider cut off is kept as far as it came, as a stop keeps it; the
    // browser learns where it went (done) before it shows the error.
    const kept = await keep('a cut-off answer');
    if (kept) emit({ type: 'done', session: kept.session, time: kept.time });
    emit({ type: 'error', error: errorMessage(err) });
    return undefined;
  }
}


