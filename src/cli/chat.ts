// A question from the terminal: the same request the browser builds, POSTed to
// /api/generate_sse (or /api/generate with streaming off), the answer written as it comes.
import { buildRequest } from '../core/api/generateRequest.ts';
import { generateOnce, streamGeneration } from '../core/api/generationClient.ts';
import { ApiError, type GenerationEvent, type Output } from '../core/host/index.ts';
import type { ChatRunner, CliSession } from './session.ts';

export interface ChatSink {
  /** A piece of the answer as it streams. */
  write(text: string): void;
  /** The end of an answer. */
  end(info: { model: string; session: number; text: string }): void;
}

export function cliChat(sink: ChatSink, extraFiles: () => string) {
  return (session: CliSession): ChatRunner =>
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
      const onEvent = (event: GenerationEvent) => {
        if (event.type === 'text') {
          answer += event.delta;
          sink.write(event.delta);
        } else if (event.type === 'model') model = event.model;
        else if (event.type === 'done') {
          sessionId = event.session;
          settings.set('session', event.session);
          settings.set('time', event.time);
        } else if (event.type === 'error') failed = { kind: 'error', text: event.error, ...(event.message ? { message: event.message } : {}) };
      };
      try {
        if (settings.get<boolean>('useStream') !== false) await streamGeneration(request, onEvent, { signal, baseUrl: session.server, fetch: session.api.fetch });
        else {
          const result = await generateOnce(request, { signal, baseUrl: session.server, fetch: session.api.fetch });
          onEvent({ type: 'model', model: result.info.model });
          onEvent({ type: 'text', delta: result.text });
          onEvent({ type: 'done', session: result.info.session, time: result.info.time });
        }
      } catch (err) {
        if (signal.aborted) return [];
        failed = err instanceof ApiError ? { kind: 'error', text: err.message, ...(err.said ? { message: err.said } : {}) } : { kind: 'error', text: String((err as Error).message ?? err) };
      }
      if (signal.aborted) return [];
      sink.end({ model, session: sessionId, text: answer });
      return failed ? await host.inLanguage([failed]) : [];
    };
}
