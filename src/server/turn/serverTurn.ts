// A turn a plugin runs for a user on its own route (ctx.generation.run): the page's pipeline
// (run.ts) under the same caps on answers in flight, tracked for a shutdown like the page's, with
// the caller's whole conversation in place of a session's memory (an API in another wire format).
import type { ModelMessage } from 'ai';
import { rankOf, ROLE_RANKS, type GenerateResult, type ServerTurnInput, type TurnMessage } from '../../core/index.ts';
import { SERVER_MESSAGES } from '../../core/serverMessages.ts';
import type { GenerationDeps } from './deps.ts';
import { errorEvent } from './errors.ts';
import type { Owner } from './owner.ts';
import { runGeneration } from './run.ts';

const parseArgs = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return {};
  }
};

/** The caller's conversation as the model's messages (the server's own system messages go first: run.ts). */
export function conversationMessages(conversation: TurnMessage[], vision: boolean): ModelMessage[] {
  return conversation.map((m): ModelMessage => {
    switch (m.role) {
      case 'system':
        return { role: 'system', content: m.content };
      case 'user':
        if (!vision || !m.images?.length) return { role: 'user', content: m.content };
        return { role: 'user', content: [{ type: 'text', text: m.content }, ...m.images.map((url) => ({ type: 'image' as const, image: new URL(url) }))] };
      case 'assistant':
        if (!m.toolCalls?.length) return { role: 'assistant', content: m.content };
        return {
          role: 'assistant',
          content: [
            ...(m.content ? [{ type: 'text' as const, text: m.content }] : []),
            ...m.toolCalls.map((c) => ({ type: 'tool-call' as const, toolCallId: c.id, toolName: c.name, input: parseArgs(c.args) })),
          ],
        };
      case 'tool':
        return { role: 'tool', content: [{ type: 'tool-result', toolCallId: m.toolCallId, toolName: m.name, output: { type: 'text', value: m.content } }] };
    }
  });
}

/** ctx.generation.run: one turn for `input.user`, refused at once past the caps on answers in flight. */
export function serverTurnRunner(deps: GenerationDeps) {
  return async (input: ServerTurnInput): Promise<GenerateResult | undefined> => {
    const owner: Owner = { user: input.user, deviceId: '', root: rankOf(input.user.role) >= ROLE_RANKS.root_user };
    const release = deps.caps.take(owner, input.address);
    if (!release) {
      await input.emit(errorEvent(SERVER_MESSAGES.tooManyAnswers));
      return undefined;
    }
    // The turn's own stop, so that a shutdown stops it as it stops the page's (inflight.ts).
    const abort = new AbortController();
    const stop = () => abort.abort(input.signal.reason);
    if (input.signal.aborted) stop();
    else input.signal.addEventListener('abort', stop, { once: true });
    const extra = { conversation: input.conversation, toolChoice: input.toolChoice, tag: input.tag, noLog: input.noLog };
    const run = runGeneration(deps, input.request, owner, input.emit, abort.signal, () => deps.settings.publicUrl ?? '', extra);
    return deps.inflight.track(abort, run).finally(() => {
      input.signal.removeEventListener('abort', stop);
      release();
    });
  };
}
