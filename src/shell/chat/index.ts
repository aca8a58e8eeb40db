// Chat in the browser: a question's turn (src/core/turn, the same as the terminal's) with the
// page's transports (the server, or a model of the local model server called from here) and
// the MCP helper's tools; ./view.ts draws it. Loaded on the first chat message, not with the
// first paint.
import { McpRef, ToolboxRef, type Output, type ParsedLine, type ServiceRef, type SettingsStore, type ShellEvents, type Translate } from '../../core/host/index.ts';
import type { Emitter } from 'mitt';
import type { ShellController } from '../controller.ts';
import { serverGeneration, type Generate } from '../../core/turn/generate.ts';
import { runTurn } from '../../core/turn/runTurn.ts';
import { localGeneration, localModelUrl } from './local.ts';
import { chatView } from './view.ts';

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

export async function runChat(parsed: Extract<ParsedLine, { kind: 'chat' }>, deps: ChatDeps, signal: AbortSignal): Promise<Output[]> {
  const { controller, settings } = deps;
  // Loaded: the chat runs through it. Its words (statuses, failures) are shown in the interface's language.
  const host = await controller.host();
  const question = {
    text: parsed.text,
    images: parsed.attachments.filter((a) => a.kind === 'image').map((a) => a.url),
    files: parsed.attachments.filter((a) => a.kind === 'file').map((a) => a.url),
  };
  const view = chatView({ ...deps, host }, question.images);
  // A model of the local model server is called from the browser (./local.ts).
  const info = controller.state.get().systemInfo;
  const ollama = localModelUrl(settings, info);
  const mcp = await serviceFor(controller, McpRef);
  const stream = settings.get<boolean>('useStream');
  const generate: Generate = ollama
    ? async (request, onEvent, signal) =>
        localGeneration(request, onEvent, {
          signal,
          ollamaUrl: ollama,
          texts: { querying: info.querying, generating: info.generating },
          toolbox: await serviceFor(controller, ToolboxRef),
        })
    : serverGeneration({ stream, generating: info.generating });
  // The MCP helper's tools run here, in the browser (a local model's run in ./local.ts).
  const end = await runTurn(question, view.onEvent, { settings, generate, signal, ...(mcp && !ollama ? { tools: mcp } : {}) });
  // Stopped with streaming off, the server kept what it had, which nobody saw.
  return view.end(end, { keptUnseen: !stream && !ollama });
}
