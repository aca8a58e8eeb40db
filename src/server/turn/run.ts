// One generation: model, context, the tool loop, streaming, self-evaluation, and the turn's
// log and usage. Events go to `emit` as they happen; the SSE route relays them, the JSON
// route collects them.
// runGeneration reads as the turn's steps, each a named function that follows it here in the
// order they run: resolveModel, imageModelTurn (an image model's turn), buildContext,
// relayTools, streamAnswer (streamAnswer.ts: the relay, its retries, the parts it hands over),
// splitToolCalls, handOverToolCalls (the browser's tools), selfEvaluate and the log
// (turnRecord). A stop, a shutdown or a failure keeps the answer so far (keepAnswerSoFar,
// through stopped and failed). With usage limits on, the question's use is recorded when it
// starts (startUse, uses.ts), and removed again if the turn ends before its model is asked.
import type { ModelMessage } from 'ai';
import type { GenerateRequest, GenerateResult, GenerationGuard, RedirectEvent, Stats, ToolCall, ToolResult } from '../../core/index.ts';
import { DEFAULT_MEM_LENGTH, MAX_TOOL_ROUNDS } from '../../core/index.ts';
import { SERVER_MESSAGES } from '../../core/serverMessages.ts';
import { isConnectionLost } from '../db/connectionLost.ts';
import { languageModel } from '../models/providers.ts';
import type { ModelEntry } from '../models/systemModels.ts';
import type { RelayTool } from '../transport/directStream.ts';
import { modelFetch, type Emit, type GenerationDeps, type ModelTurn, type Turn, type TurnExtra } from './deps.ts';
import { conversationMessages } from './serverTurn.ts';
import { errorEvent, errorMessage, GenerationError, statusEvent } from './errors.ts';
import { evaluate } from './evaluate.ts';
import { fetchFileTexts, imagesOf, inlineUploadedImages } from './files.ts';
import { runImageTurn } from './imageTurn.ts';
import { ServerStopping } from './inflight.ts';
import { buildMessages } from './modelMessages.ts';
import type { Owner } from './owner.ts';
import { estimateUsage, saveTurn, type TurnRecord } from './persist.ts';
import { memory, memoryUnits, SessionError, sessionForTurn, type LogRow } from './sessions.ts';
import { StreamedAnswer, streamAnswer } from './streamAnswer.ts';
import { awaitToolResults, reserveUse, settleUse, type Use } from './uses.ts';

export { GenerationError, MAX_TOOL_ROUNDS };

/** Where a kept log went. */
type Kept = { session: number; time: number };

/** Saves the answer so far as the turn's log, once the model has begun answering. */
type KeepSoFar = () => Promise<Kept | undefined>;

const SERVER_STOPPING_KEPT = SERVER_MESSAGES.stoppingKept;
const SERVER_STOPPING = SERVER_MESSAGES.stopping;

export async function runGeneration(
  deps: GenerationDeps,
  request: GenerateRequest,
  owner: Owner,
  emit: Emit,
  signal: AbortSignal,
  /** Where the server's own URLs point (an image model's pictures): PUBLIC_URL or the request's origin. */
  origin: () => string = () => '',
  /** A plugin's server turn (serverTurn.ts): its conversation, tool choice, ledger tag, no log. */
  extra?: TurnExtra,
): Promise<GenerateResult | undefined> {
  const turn: Turn = { deps, request, owner, emit, signal, extra };
  // What a stop (or a closed tab, or a provider that cut the answer off) leaves: the answer so
  // far, kept as the turn's log (set once the answer can begin).
  let keepSoFar: KeepSoFar | undefined;
  try {
    if (deps.guards?.length) await checkGuards(deps.guards, request, owner);
    turn.use = await startUse(turn);
    // A server turn without a log has no session (0): nothing reads or writes one.
    const session = extra?.noLog ? 0 : await sessionForTurn(deps.db, request.session, request.time, owner);
    const modelTurn: ModelTurn = { ...turn, session, entry: await resolveModel(turn) };
    const { entry } = modelTurn;
    if (turn.use) turn.use.model = entry.name;
    const images = request.images ?? [];
    // An image model answers with a picture (imageTurn.ts); the images attached are to be edited.
    // A server turn's conversation has no session to edit them in: those models are the page's.
    if (entry.capabilities.image && extra?.conversation) throw new GenerationError(SERVER_MESSAGES.modelNotFound);
    if (entry.capabilities.image) return await imageModelTurn(modelTurn, origin);
    if (images.length && !entry.capabilities.vision) throw new GenerationError(SERVER_MESSAGES.noVision(entry.name));

    emit(statusEvent(deps.settings.querying));
    const context = await buildContext(modelTurn);
    const events: RedirectEvent[] = [];
    const tools = relayTools(modelTurn, events);
    const stats = turnStats(deps, request, `${context.past.reduce((n, log) => n + memoryUnits(log), 0)}/${context.memLength}`);
    if (request.use_stats) emit({ type: 'stats', stats });
    const shownImages = [...images, ...context.providerImages];
    for (const url of shownImages) emit({ type: 'image', url });

    // The context is built; what follows waits on the model (system info's texts, spec part 3).
    emit(statusEvent(deps.settings.generating));
    const streamed = new StreamedAnswer();
    keepSoFar = () => keepAnswerSoFar(modelTurn, streamed, context.messages);
    if (turn.use) turn.use.asked = true;
    await streamAnswer(modelTurn, context.messages, tools, streamed);
    const text = streamed.answer.text;
    if (streamed.failure !== undefined) throw streamed.failure;
    if (signal.aborted) return stopped(turn, keepSoFar);

    const { ran, pending } = splitToolCalls(streamed);
    stats.func = [...streamed.calls.values()].map((c) => c.name).join('|');
    stats.token_ct = streamed.usage.inputTokens + streamed.usage.outputTokens;
    if (pending.length) return await handOverToolCalls(modelTurn, pending, streamed.usage, { events, tool_calls: pending, images: shownImages, text, stats });
    if (streamed.steps >= MAX_TOOL_ROUNDS && streamed.lastStepCalledTools) {
      throw new GenerationError(SERVER_MESSAGES.toolRounds(MAX_TOOL_ROUNDS));
    }

    const judged = request.use_eval && text ? await selfEvaluate(modelTurn, text, stats) : undefined;
    const record = turnRecord(modelTurn, text, [...(request.tool_results ?? []), ...ran], streamed.usage, judged?.usage);
    const { time } = await saveTurn(deps.db, record).catch((err: unknown) => {
      if (!isConnectionLost(err)) throw err;
      // The save waited for the database already (groupCommit.ts): the answer so far would not be kept either.
      keepSoFar = undefined;
      deps.log.error({ err: { message: String((err as Error)?.message) }, session }, 'an answer was not saved: the database cannot be reached');
      throw new GenerationError(SERVER_MESSAGES.answerNotSaved);
    });
    if (request.use_stats) emit({ type: 'stats', stats });
    emit({ type: 'done', session, time });
    const result: GenerateResult = { events, tool_calls: [], images: shownImages, text, stats, info: { model: entry.name, session, time }, eval: judged?.evaluation };
    return extra?.conversation ? { ...result, usage: record.usage } : result;
  } catch (err) {
    if (signal.aborted) return stopped(turn, keepSoFar);
    return failed(turn, keepSoFar, err);
  }
}

/** Refuses the turn with the first guard's message (before anything is written or asked). */
export async function checkGuards(guards: GenerationGuard[] | undefined, request: GenerateRequest, owner: Owner): Promise<void> {
  for (const guard of guards ?? []) {
    const refusal = await guard({ request, owner });
    if (refusal) throw new GenerationError(refusal);
  }
}

/**
 * The question's use, recorded now when usage limits are on (uses.ts): refused here past a
 * limit. A round that brings the browser's tool results takes over the use waiting in its session.
 */
async function startUse({ deps, request, owner, extra }: Turn): Promise<Use | undefined> {
  if (!deps.useLimits?.length) return undefined;
  const model = request.model || deps.models.defaultModel()?.name || '';
  return reserveUse(deps.db, deps.useLimits, owner, { model, tag: extra?.tag, ...(request.tool_results?.length ? { continues: request.session } : {}) });
}

/** The model asked for (the user's, their groups', or the system's), or the default one. */
async function resolveModel({ deps, request, owner }: Turn): Promise<ModelEntry> {
  const entry = request.model ? await deps.models.resolve(request.model, owner.user) : deps.models.defaultModel();
  if (!entry) throw new GenerationError(request.model ? SERVER_MESSAGES.modelNotFound : SERVER_MESSAGES.noModel);
  return entry;
}

/** The turn of an image model (imageTurn.ts): a picture for an answer, not streamed. */
function imageModelTurn(turn: ModelTurn, origin: () => string): Promise<GenerateResult> {
  const { deps, request, owner, entry, session, emit, signal, use } = turn;
  emit(statusEvent(deps.settings.querying));
  const stats = turnStats(deps, request, `0/${request.mem_length ?? DEFAULT_MEM_LENGTH}`);
  return runImageTurn({ deps, request, owner, entry, session, stats, fetch: modelFetch(entry, deps), origin: origin(), emit, signal, use });
}

/** The model's context, and what building it found on the way. */
interface TurnContext {
  messages: ModelMessage[];
  /** The logs the model remembers, of the `memLength` asked for. */
  past: LogRow[];
  memLength: number;
  /** Images a context provider produced (a node's): shown with the answer, not sent to the model. */
  providerImages: string[];
}

/**
 * The model's messages (modelMessages.ts): the system prompt, what the context providers add
 * (role, stores, node, location), the memory of the session, and the input with its files'
 * text and its images (this server's uploads inline, for a model that reads images).
 */
async function buildContext(turn: ModelTurn): Promise<TurnContext> {
  const { deps, request, entry, session, signal } = turn;
  const provided = await askContextProviders(turn);
  const conversation = turn.extra?.conversation;
  if (conversation) {
    // The caller's conversation stands for the memory and the input; the server's system
    // messages (the prompt, the role's, the stores') still go first.
    const system = buildMessages({ ...request, user_input: '', images: [], tool_results: [] }, { systemPrompt: deps.settings.roleContentSystem, providerSystem: provided.system, memory: [], fileTexts: [], vision: false }).slice(0, -1);
    return { messages: [...system, ...conversationMessages(conversation, entry.capabilities.vision)], past: [], memLength: 0, providerImages: provided.images };
  }
  const memLength = request.mem_length ?? DEFAULT_MEM_LENGTH;
  const past = memLength > 0 ? await memory(deps.db, session, memLength) : [];
  const fileTexts = await fetchFileTexts(request.files ?? [], deps.attachments, signal);
  const inlineImages = entry.capabilities.vision ? await inlineUploadedImages(imagesOf(request.images ?? [], past), deps.attachments, signal) : undefined;
  const messages = buildMessages(request, {
    systemPrompt: deps.settings.roleContentSystem,
    providerSystem: provided.system,
    memory: past,
    fileTexts,
    vision: entry.capabilities.vision,
    inlineImages,
  });
  return { messages, past, memLength, providerImages: provided.images };
}

/** The plugins' context providers in turn: their system messages, and the images they produced. */
async function askContextProviders({ deps, request, owner, emit, signal }: Turn): Promise<{ system: string[]; images: string[] }> {
  const system: string[] = [];
  const images: string[] = [];
  for (const provider of deps.providers) {
    const added = await provider({ request, user: owner.user, owner, signal, status: (text) => emit(statusEvent(text)) });
    system.push(...(added?.system ?? []));
    images.push(...(added?.images ?? []));
  }
  return { system, images };
}

/**
 * The tools offered to the model: the server's enabled functions run here (the events they
 * raise go to the browser and into `events`); the browser's MCP tools have no execute, so the
 * model's call ends the turn and the browser runs them (spec part 4).
 */
function relayTools({ deps, request, owner, entry, emit, signal }: ModelTurn, events: RedirectEvent[]): Record<string, RelayTool> {
  const user = owner.user;
  const enabled = new Set((request.functions ?? '').split(',').map((s) => s.trim()).filter(Boolean));
  const tools: Record<string, RelayTool> = {};
  if (!entry.capabilities.tools) return tools;
  for (const [name, serverTool] of deps.tools) {
    if (!enabled.has(name)) continue;
    tools[name] = {
      description: serverTool.description,
      parameters: serverTool.parameters,
      execute: async (args: unknown) => {
        const out = await serverTool.execute(args, { user, owner, signal });
        if (out.event) {
          events.push(out.event);
          emit({ type: 'event', event: out.event });
        }
        return out.result;
      },
    };
  }
  for (const mcp of request.mcp_tools ?? []) {
    tools[mcp.name] = { description: mcp.description ?? mcp.name, parameters: mcp.parameters ?? { type: 'object' } };
  }
  return tools;
}

/** The turn's tool calls: those that ran here, with their results, and those the browser is to run. */
function splitToolCalls({ calls, results }: StreamedAnswer): { ran: ToolResult[]; pending: ToolCall[] } {
  const ran = [...calls.values()].filter((c) => results.has(c.id)).map((c) => ({ ...c, result: results.get(c.id)! }));
  const pending = [...calls.values()].filter((c) => !results.has(c.id));
  return { ran, pending };
}

/**
 * Ends the turn with the calls the browser runs (its MCP tools): it sends the turn again with
 * their results. A pending call to anything else means the tool rounds ran out. The question's
 * use, with this round's tokens, waits for that next round (uses.ts).
 */
async function handOverToolCalls(
  turn: ModelTurn,
  pending: ToolCall[],
  used: { inputTokens: number; outputTokens: number },
  result: Omit<GenerateResult, 'info' | 'eval'>,
): Promise<GenerateResult> {
  const { deps, request, entry, session, emit, use, extra } = turn;
  if (pending.some((c) => !request.mcp_tools?.some((t) => t.name === c.name))) {
    throw new GenerationError(SERVER_MESSAGES.toolRounds(MAX_TOOL_ROUNDS));
  }
  const usage = { ...used, cost: used.inputTokens * entry.priceInput + used.outputTokens * entry.priceOutput };
  // A server turn's caller sends its conversation again with the results: this round's tokens are
  // counted now, in the ledger alone (the page's round waits in its session: uses.ts).
  if (extra?.conversation) await saveTurn(deps.db, { ...turnRecord(turn, '', [], used), noLog: true });
  else if (use) await awaitToolResults(deps.db, use, session, usage);
  emit({ type: 'call', calls: pending });
  emit({ type: 'done', session, time: 0, tool_calls: pending });
  return { ...result, info: { model: entry.name, session, time: 0 }, ...(extra?.conversation ? { usage } : {}) };
}

/**
 * Self-evaluation (evaluate.ts), by the default model or else the turn's: its score goes into
 * the stats and to the browser, its tokens into the log's usage.
 */
async function selfEvaluate(
  { deps, request, entry, emit, signal }: ModelTurn,
  text: string,
  stats: Stats,
): Promise<{ evaluation: GenerateResult['eval']; usage: TurnRecord['evalUsage'] }> {
  const evaluator = deps.models.defaultModel() ?? entry;
  const judged = await evaluate(languageModel(evaluator, modelFetch(evaluator, deps)), request.user_input, text, signal);
  stats.eval = judged.score === null ? '?' : String(judged.score);
  const usage = {
    model: evaluator.name,
    ...judged.usage,
    cost: judged.usage.inputTokens * evaluator.priceInput + judged.usage.outputTokens * evaluator.priceOutput,
  };
  emit({ type: 'eval', score: judged.score, reason: judged.reason });
  return { evaluation: { score: judged.score, reason: judged.reason }, usage };
}

/** The turn's log: what was said, the tools that ran and the tokens used, at the model's prices. */
function turnRecord(
  { request, owner, entry, session, use, extra }: ModelTurn,
  output: string,
  tools: ToolResult[],
  used: { inputTokens: number; outputTokens: number },
  evalUsage?: TurnRecord['evalUsage'],
): TurnRecord {
  return {
    session,
    owner,
    model: entry.name,
    input: request.user_input,
    output,
    images: request.images ?? [],
    tools,
    usage: { ...used, cost: used.inputTokens * entry.priceInput + used.outputTokens * entry.priceOutput },
    evalUsage,
    useId: use?.id,
    tag: extra?.tag,
    noLog: extra?.noLog,
  };
}

/** The answer so far as the turn's log: nothing when nothing was said, or the browser was about to run tools. */
async function keepAnswerSoFar(turn: ModelTurn, streamed: StreamedAnswer, messages: ModelMessage[]): Promise<Kept | undefined> {
  const text = streamed.answer.text;
  if (!text || [...streamed.calls.keys()].some((id) => !streamed.results.has(id))) return;
  // The provider reports usage only at the end of a stream: estimate what it would bill.
  const { usage } = streamed;
  const { time } = await saveTurn(turn.deps.db, turnRecord(turn, text, turn.request.tool_results ?? [], usage.outputTokens ? usage : estimateUsage(messages, text)));
  return { session: turn.session, time };
}

/**
 * Keeps the answer so far, if there is one; a failure to save it is logged, not thrown. Without
 * a log, the question's use is settled: removed if the model was never asked (uses.ts).
 */
async function keep({ deps, use }: Turn, keepSoFar: KeepSoFar | undefined, what: string): Promise<Kept | undefined> {
  try {
    const kept = await keepSoFar?.();
    if (!kept) await settleUse(deps.db, use);
    return kept;
  } catch (err) {
    deps.log.error({ err: { message: String((err as Error)?.message) } }, `saving ${what} failed`);
    return undefined;
  }
}

/**
 * A stopped turn (a stop, a closed tab, a shutdown) keeps its answer so far. Stopped by a
 * shutdown, the browser is still there: it learns where the log went and why it stopped.
 */
async function stopped(turn: Turn, keepSoFar: KeepSoFar | undefined): Promise<undefined> {
  const kept = await keep(turn, keepSoFar, 'a stopped answer');
  if (turn.signal.reason instanceof ServerStopping) {
    if (kept) turn.emit({ type: 'done', session: kept.session, time: kept.time });
    turn.emit(errorEvent(kept ? SERVER_STOPPING_KEPT : SERVER_STOPPING));
  }
  return undefined;
}

/**
 * A failed turn: logged unless its message is ours. An answer the provider cut off is kept as
 * far as it came, as a stop keeps it; the browser learns where it went (done) before it shows
 * the error.
 */
async function failed(turn: Turn, keepSoFar: KeepSoFar | undefined, err: unknown): Promise<undefined> {
  if (!(err instanceof GenerationError) && !(err instanceof SessionError)) turn.deps.log.error({ err: { message: String((err as Error)?.message) } }, 'generation failed');
  const kept = await keep(turn, keepSoFar, 'a cut-off answer');
  if (kept) turn.emit({ type: 'done', session: kept.session, time: kept.time });
  turn.emit(errorEvent(errorMessage(err), err instanceof GenerationError ? err.retryAt : undefined));
  return undefined;
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

