// The page's sink of a turn (src/core/turn), as ../../cli/answer.ts is the terminal's: the
// only code that draws a turn into the page while it comes (the text once per frame, statuses,
// pictures, stats, the self-evaluation, speech); what the line leaves (the answer or its error,
// and with it a 'result' effect: model line, pictures, stats, self-evaluation) goes back through
// the host as every line's outputs do.
import type { Output, PluginHost, ShellEvents, Translate } from '../../core/host/index.ts';
import type { TurnEnd, TurnSink } from '../../core/turn/runTurn.ts';
import type { Emitter } from 'mitt';
import type { ShellController } from '../controller.ts';
import { frameBatcher } from './frameBatcher.ts';

export interface ChatView {
  onEvent: TurnSink;
  /** The turn ended: nothing more is drawn; the outputs to show, in the interface's language. */
  end(end: TurnEnd, options: { keptUnseen: boolean }): Promise<Output[]>;
}

export function chatView(deps: { controller: ShellController; host: PluginHost; events: Emitter<ShellEvents>; t: Translate }, images: string[]): ChatView {
  const { controller, host, events, t } = deps;
  const state = controller.state;
  let text = '';
  state.set({ generating: true, outputs: [], previews: images, stats: null, evaluation: null, modelInfo: null });
  const batch = frameBatcher(() => {
    if (text) state.set({ outputs: [{ kind: 'markdown', text, streaming: true }], notice: '' });
  });
  const onEvent: TurnSink = (event, answer) => {
    text = answer.text;
    switch (event.type) {
      case 'text':
        events.emit('speak:text', event.delta);
        batch.schedule();
        break;
      case 'status':
        // The default status texts in the interface's language (an operator's own stay as set).
        if (!text) controller.notice(event.message ? host.translate(event.message) : event.text);
        break;
      case 'stats':
        state.set({ stats: Object.fromEntries(Object.entries(event.stats).map(([k, v]) => [k, String(v)])) });
        break;
      case 'eval':
        state.set({ evaluation: { score: event.score ?? Number.NaN, reason: event.reason } });
        break;
      case 'image':
        // A picture the answer brought, beside the question's own.
        state.set((s) => ({ previews: s.previews.includes(event.url) ? s.previews : [...s.previews, event.url] }));
        break;
      case 'event':
        if (event.event.name === 'redirect') controller.show([{ kind: 'effect', effect: { type: 'open', url: event.event.parameters.url, blank: event.event.parameters.blank } }]);
        break;
      case 'clear':
        batch.flush();
        break;
      case 'call':
        controller.notice(t('msg.callingTools', { names: event.calls.map((c) => c.name).join(', ') }));
        break;
    }
  };
  return {
    onEvent,
    async end(end, { keptUnseen }) {
      batch.stop();
      state.set({ generating: false });
      if (end.failure) {
        events.emit('speak:cancel', undefined);
        const partial: Output[] = end.text ? [{ kind: 'markdown', text: end.text }] : [];
        // The server's words (a provider's status, a restart) in the interface's language.
        return [...partial, ...(await host.inLanguage([end.failure]))];
      }
      events.emit('speak:end', undefined);
      // Stopped before anything showed: with streaming off the server kept the answer so far,
      // and the person is told where it is.
      if (!end.text && end.stopped) return keptUnseen ? [{ kind: 'text', text: t('msg.stoppedKept') }] : [];
      // What surrounds the answer (its model line, pictures, stats, self-evaluation) comes back
      // with it, as a log's does: one channel, the outputs.
      const { previews, stats, evaluation } = state.get();
      const result: Output = { kind: 'effect', effect: { type: 'result', previews, info: end.model ? { model: end.model, raw: end.text, session: end.session } : null, stats, evaluation } };
      // An answer that is a picture is not silent: the previews show it.
      if (!end.text && end.pictured) return [result, { kind: 'effect', effect: { type: 'notice', text: '' } }];
      // An empty reply says 'Silent...' (spec part 8) in the interface's language.
      return [result, end.text ? { kind: 'markdown', text: end.text } : { kind: 'text', text: t('msg.silent') }];
    },
  };
}
