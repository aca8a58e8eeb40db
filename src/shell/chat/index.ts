// Chat in the browser: sends free text to the server, streams the answer into the output
// (at most one update per animation frame), and keeps session, time and head in step.
// Loaded on the first chat message, not with the first paint.
import {
  ApiError,
  MAX_TOOL_ROUNDS,
  McpRef,
  statusEvent,
  ToolboxRef,
  type ServiceRef,
  type ToolCall,
  type ToolResult,
  type GenerationEvent,
  type Output,
  type Said,
  type ParsedLine,
  type SettingsStore,
  type ShellEvents,
  type Translate,
} from '../../core/host/index.ts';
import type { Emitter } from 'mitt';
import type { ShellController } from '../controller.ts';
import { generateOnce, streamGeneration } from '../../core/api/generationClient.ts';
import { localGeneration, localModelUrl } from './local.ts';
import { buildRequest } from '../../core/api/generateRequest.ts';
import { SERVER_MESSAGES } from '../../core/serverMessages.ts';

export interface ChatDeps {
  controller: ShellController;
  settings: SettingsStore;
  events: Emitter<ShellEvents>;
  t: Translate;
}

/**
 * A service a plugin provides (the function plugin: the MCP helper's client, the toolbox of a
 * local model), activating that plugin first; undefined when no installed plugin provides it.
 */
async function serviceFor<T>(controller: ShellController, ref: ServiceRef<T>): Promise<T | undefined> {
  const host = await controller.host();
  const owner = host.manifests.find((m) => m.provides?.some((r) => r.id === ref.id));
  if (!owner) return undefined;
  await host.ensureActive(owner.id).catch(() => undefined);
  return host.services.maybe(ref);
}

/**
 * Batches output updates to one per animation frame (or a timer outside a browser). `stop()`
 * at the end of the stream drops a frame still due: it would otherwise land after the final
 * output and put the answer back in its streaming form (an open fence shown raw).
 */
export function frameBatcher(apply: () => void): { schedule(): void; flush(): void; stop(): void } {
  let pending = false;
  let stopped = false;
  const raf = globalThis.requestAnimationFrame ?? ((fn: () => void) => setTimeout(fn, 16));
  return {
    schedule() {
      if (pending || stopped) return;
      pending = true;
      raf(() => {
        pending = false;
        if (!stopped) apply();
      });
    },
    flush() {
      pending = false;
      if (!stopped) apply();
    },
    stop() {
      stopped = true;
    },
  };
}

export async function runChat(parsed: Extract<ParsedLine, { kind: 'chat' }>, deps: ChatDeps, signal: AbortSignal): Promise<Output[]> {
  const { controller, settings, events } = deps;
  // Loaded: the chat runs through it. Its words (statuses, failures) are shown in the interface's language.
  const host = await controller.host();
  let request = buildRequest(settings, {
    text: parsed.text,
    images: parsed.attachments.filter((a) => a.kind === 'image').map((a) => a.url),
    files: parsed.attachments.filter((a) => a.kind === 'file').map((a) => a.url),
  });
  let text = '';
  // What went wrong: already in the interface's language (the shell's own), or the server's words.
  let failed: Said | undefined;
  let pending: { session: number; calls: ToolCall[] } | undefined;
  let model = '';
  let pictured = false;
  const state = controller.state;
  state.set({ generating: true, outputs: [], previews: request.images ?? [], stats: null, evaluation: null, modelInfo: null });
  const batch = frameBatcher(() => {
    if (text) state.set({ outputs: [{ kind: 'markdown', text, streaming: true }], notice: '' });
  });
  const onEvent = (event: GenerationEvent) => {
    switch (event.type) {
      case 'text':
        text += event.delta;
        events.emit('speak:text', event.delta);
        batch.schedule();
        break;
      case 'status':
        // The default status texts in the interface's language (an operator's own stay as set).
        if (!text) controller.notice(event.message ? host.translate(event.message) : event.text);
        break;
      case 'model':
        model = event.model;
        break;
      case 'stats':
        state.set({ stats: Object.fromEntries(Object.entries(event.stats).map(([k, v]) => [k, String(v)])) });
        break;
      case 'eval':
        state.set({ evaluation: { score: event.score ?? Number.NaN, reason: event.reason } });
        break;
      case 'image':
        // A picture the answer brought (an image model's, a node's), beside the question's own.
        if (!request.images?.includes(event.url)) pictured = true;
        state.set((s) => ({ previews: s.previews.includes(event.url) ? s.previews : [...s.previews, event.url] }));
        break;
      case 'event':
        if (event.event.name === 'redirect') controller.show([{ kind: 'effect', effect: { type: 'open', url: event.event.parameters.url, blank: event.event.parameters.blank } }]);
        break;
      case 'clear':
        text = '';
        batch.flush();
        break;
      case 'error':
        failed = event.message ?? event.error;
        break;
      case 'done':
        if (event.tool_calls?.length) pending = { session: event.session, calls: event.tool_calls };
        if (event.time) {
          settings.set('session', event.session);
          settings.set('time', event.time);
          settings.set('head', event.time);
        }
        break;
      case 'call':
        controller.notice(deps.t('msg.callingTools', { names: event.calls.map((c) => c.name).join(', ') }));
        break;
    }
  };
  // A model of the local model server is called from the browser (./local.ts).
  const info = state.get().systemInfo;
  const ollama = localModelUrl(settings, info);
  const mcp = await serviceFor(controller, McpRef);
  if (mcp && !ollama) {
    const enabled = new Set(String(request.functions ?? '').split(',').map((s) => s.trim()).filter(Boolean));
    const tools = (await mcp.tools()).filter((t) => enabled.has(t.name));
    if (tools.length) request = { ...request, mcp_tools: tools };
  }
  try {
    // Rounds: when the model calls MCP tools, the browser runs them through the local helper
    // and sends the turn again with their results, until plain text arrives (spec part 4).
    for (let round = 0; ; round++) {
      pending = undefined;
      if (ollama) {
        await localGeneration(request, onEvent, {
          signal,
          ollamaUrl: ollama,
          texts: { querying: info.querying, generating: info.generating },
          toolbox: await serviceFor(controller, ToolboxRef),
        });
      } else if (settings.get<boolean>('useStream')) {
        await streamGeneration(request, onEvent, { signal });
      } else {
        // Without streaming nothing shows until the whole answer is there: say that it is coming.
        onEvent(statusEvent(info.generating || SERVER_MESSAGES.generating));
        const result = await generateOnce(request, { signal });
        text += result.text;
        model = result.info.model;
        onEvent({ type: 'done', session: result.info.session, time: result.info.time, tool_calls: result.tool_calls });
        if (request.use_stats) onEvent({ type: 'stats', stats: result.stats });
        if (result.eval) onEvent({ type: 'eval', ...result.eval });
        for (const url of result.images) onEvent({ type: 'image', url });
        for (const e of result.events) onEvent({ type: 'event', event: e });
        events.emit('speak:text', result.text);
      }
      const calls = pending as { session: number; calls: ToolCall[] } | undefined;
      if (!calls || failed || signal.aborted || !mcp) break;
      if (round + 1 >= MAX_TOOL_ROUNDS) {
        failed = deps.t('msg.tooManyRounds', { rounds: MAX_TOOL_ROUNDS });
        break;
      }
      const results: ToolResult[] = await Promise.all(
        calls.calls.map(async (call) => {
          let args: unknown = {};
          try {
            args = JSON.parse(call.args || '{}');
          } catch {
            // the model sent broken JSON; the tool will say what it misses
          }
          const result = await mcp.call(call.name, args, signal).catch((err: unknown) => `Error: ${(err as Error).message}`);
          return { ...call, result };
        }),
      );
      request = { ...request, session: calls.session, tool_results: [...(request.tool_results ?? []), ...results] };
    }
  } catch (err) {
    if (!signal.aborted) failed = !(err instanceof ApiError) ? deps.t('msg.errorOccurred') : err.key ? deps.t(err.key, err.params) : (err.said ?? err.message);
  } finally {
    batch.stop();
    state.set({ generating: false });
  }
  if (failed) {
    events.emit('speak:cancel', undefined);
    const partial: Output[] = text ? [{ kind: 'markdown', text }] : [];
    // The server's words (a provider's status, a restart) in the interface's language.
    return [...partial, { kind: 'error', text: await host.say(failed) }];
  }
  events.emit('speak:end', undefined);
  // Stopped before anything showed: with streaming off the server kept the answer so far, and
  // the person is told where it is.
  if (!text && signal.aborted) return settings.get<boolean>('useStream') || ollama ? [] : [{ kind: 'text', text: deps.t('msg.stoppedKept') }];
  // A stopped answer is kept on the server as the session's latest log, but its time never
  // came back: look at the latest again, so that the next turn follows it instead of branching.
  if (signal.aborted) settings.set('time', 0);
  const session = settings.get<number>('session');
  state.set({ modelInfo: model ? { model, raw: text, session } : null });
  // An answer that is a picture is not silent: the previews show it.
  if (!text && pictured) {
    controller.notice('');
    return [];
  }
  // An empty reply says 'Silent...' (spec part 8) in the interface's language.
  return [text ? { kind: 'markdown', text } : { kind: 'text', text: deps.t('msg.silent') }];
}
