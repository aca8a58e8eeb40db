// A question from the terminal: the same request the browser builds, POSTed to
// /api/generate_sse (or /api/generate with streaming off), the answer written as it comes.
import { buildRequest } from '../core/api/generateRequest.ts';
import { generateOnce, streamGeneration } from '../core/api/generationClient.ts';
import { ApiError, type GenerationEvent, type Output } from '../core/host/index.ts';
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
      const request = buildRequest(settings, {
        text,
        images: parsed.attachments.filter((a) => a.kind === 'image').map((a) => a.url),
        files: parsed.attachments.filter((a) => a.kind === 'file').map((a) => a.url),
      });
      let answer = '';
      let model = '';
      let sessionId = request.session;
      let failed: Output | undefined;
      const info: Partial<AnswerInfo> = {};
      // Links the answer brought (an image model's pictures, a redirect): printed after it.
      const links: string[] = [];
      const onEvent = (event: GenerationEvent) => {
        switch (event.type) {
          case 'text':
            answer += event.delta;
            sink.write(event.delta);
            break;
          case 'model':
            model = event.model;
            break;
          case 'stats':
            if (settings.get<boolean>('useStats')) info.stats = event.stats as unknown as Record<string, unknown>;
            break;
          case 'eval':
            info.evaluation = { score: event.score, reason: event.reason };
            break;
          case 'image':
            if (!request.images?.includes(event.url)) links.push(new URL(event.url, session.server).href);
            break;
          case 'event':
            if (event.event.name === 'redirect') links.push(event.event.parameters.url);
            break;
          case 'done':
            sessionId = event.session;
            settings.set('session', event.session);
            settings.set('time', event.time);
            break;
          case 'error':
            failed = { kind: 'error', text: event.error, ...(event.message ? { message: event.message } : {}) };
            break;
        }
      };
      try {
        if (settings.get<boolean>('useStream') !== false) await streamGeneration(request, onEvent, { signal, baseUrl: session.server, fetch: session.api.fetch });
        else {
          const result = await generateOnce(request, { signal, baseUrl: session.server, fetch: session.api.fetch });
          onEvent({ type: 'model', model: result.info.model });
          onEvent({ type: 'text', delta: result.text });
          onEvent({ type: 'done', session: result.info.session, time: result.info.time });
          if (request.use_stats) onEvent({ type: 'stats', stats: result.stats });
          if (result.eval) onEvent({ type: 'eval', ...result.eval });
          for (const url of result.images) onEvent({ type: 'image', url });
          for (const e of result.events) onEvent({ type: 'event', event: e });
        }
      } catch (err) {
        // In the interface's language: the shell's own messages by key, the server's by code.
        if (!signal.aborted) {
          failed =
            err instanceof ApiError
              ? { kind: 'error', text: err.message, ...(err.said ? { message: err.said } : {}), ...(err.key ? { key: err.key, ...(err.params ? { params: err.params } : {}) } : {}) }
              : { kind: 'error', text: String((err as Error).message ?? err) };
        }
      }
      // Stopped: what came is printed (and kept by the server), nothing more.
      const ended: AnswerInfo = { model, session: sessionId, text: answer, ...info };
      await sink.end(ended);
      if (signal.aborted) return [];
      const under = [...blocksUnder(ended), ...links.map((url): Output => ({ kind: 'text', text: url }))];
      return failed ? [...under, ...(await host.inLanguage([failed]))] : under;
    };
}
