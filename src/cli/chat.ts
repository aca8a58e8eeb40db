// A question from the terminal: the turn of src/core/turn (the same request, rounds and
// session rules as the page's), rendered here: the answer written as it comes, the stats block,
// the self-evaluation and the links it brought printed under it.
import { serverGeneration } from '../core/turn/generate.ts';
import { runTurn, type TurnSink } from '../core/turn/runTurn.ts';
import type { Output } from '../core/host/index.ts';
import type { AnswerInfo, ChatSink } from './answer.ts';
import type { ChatRunner, CliRuntime } from './runtime.ts';

/** The stats block (`:stats on`) and the self-evaluation, as lines under the answer. */
function blocksUnder(info: AnswerInfo): Output[] {
  const blocks: Output[] = [];
  if (info.stats) blocks.push({ kind: 'text', text: Object.entries(info.stats).map(([k, v]) => `${k}: ${v}`).join('  ') });
  if (info.evaluation) blocks.push({ kind: 'text', text: `${info.evaluation.score ?? '?'} ${info.evaluation.reason}`.trim() });
  return blocks;
}

export function cliChat(sink: ChatSink, extraFiles: () => string) {
  return (session: CliRuntime): ChatRunner =>
    async (parsed, signal) => {
      const { settings, host } = session;
      const piped = extraFiles();
      const text = piped ? `${parsed.text}\n\n${piped}` : parsed.text;
      const question = {
        text,
        images: parsed.attachments.filter((a) => a.kind === 'image').map((a) => a.url),
        files: parsed.attachments.filter((a) => a.kind === 'file').map((a) => a.url),
      };
      const info: Partial<AnswerInfo> = {};
      // Links the answer brought (an image model's pictures, a redirect): printed after it.
      const links: string[] = [];
      const render: TurnSink = (event) => {
        switch (event.type) {
          case 'text':
            sink.write(event.delta);
            break;
          case 'stats':
            if (settings.get<boolean>('useStats')) info.stats = event.stats as unknown as Record<string, unknown>;
            break;
          case 'eval':
            info.evaluation = { score: event.score, reason: event.reason };
            break;
          case 'image':
            if (!question.images.includes(event.url)) links.push(new URL(event.url, session.server).href);
            break;
          case 'event':
            if (event.event.name === 'redirect') links.push(event.event.parameters.url);
            break;
        }
      };
      // The renderer loads while the question is typed or the session opens; the answer's first
      // words must not wait for it (issue 40: within 50 ms of arriving).
      await sink.prepare?.();
      const generate = serverGeneration({ stream: settings.get<boolean>('useStream') !== false, baseUrl: session.server, fetch: session.api.fetch });
      const end = await runTurn(question, render, { settings, generate, signal });
      // Stopped: what came is printed (and kept by the server), nothing more.
      const ended: AnswerInfo = { model: end.model, session: end.session, text: end.text, ...info };
      await sink.end(ended);
      if (end.stopped) return [];
      const under = [...blocksUnder(ended), ...links.map((url): Output => ({ kind: 'text', text: url }))];
      return end.failure ? [...under, ...(await host.inLanguage([end.failure]))] : under;
    };
}
