// Client entry of the archive plugin. In the browser: a file picker (a hidden `<input
// type=file multiple>`), an upload over XMLHttpRequest whose progress `:session import` shows,
// and the export saved as a download. In the terminal: the path read and sent as a stream, the
// export written to the path given or shown (TerminalRef's files).
import { ApiError, definePluginModule, offlineError, PlatformRef, readAnswer, saidIn, statusError, TerminalRef, type ApiAnswer, type LocalFile, type PluginContext } from '../../../src/core/index.ts';
import { activateArchive, ProgressLines, PROGRESS_TYPE, type ArchiveIo, type ImportReport, type UploadProgress } from '../common/index.ts';

// ?progress: a line per conversation as it is written, the answer last (common/progressLines.ts).
const importUrl = (base: string, name: string) => `${base}/api/archive/import?${new URLSearchParams({ name: name.slice(0, 255), progress: '1' })}`;

function pick(accept: string): Promise<File[]> {
  return new Promise((resolve) => {
    const input = document.createElement('input');
    input.type = 'file';
    input.multiple = true;
    input.accept = accept;
    input.hidden = true;
    input.dataset.testid = 'archive-import-input';
    let done = false;
    const finish = (files: File[]) => {
      if (done) return;
      done = true;
      input.remove();
      resolve(files);
    };
    input.addEventListener('change', () => finish([...(input.files ?? [])]));
    input.addEventListener('cancel', () => finish([]));
    document.body.append(input);
    input.click();
  });
}

function xhrUpload(base: string, file: File, progress: UploadProgress, signal: AbortSignal): Promise<ApiAnswer<ImportReport>> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', importUrl(base, file.name));
    xhr.withCredentials = true;
    xhr.responseType = 'text';
    xhr.setRequestHeader('Content-Type', 'application/octet-stream');
    xhr.upload.addEventListener('progress', (e) => progress.sent(e.loaded));
    // The streamed answer as it arrives: the conversations written so far.
    const lines = new ProgressLines();
    let read = 0;
    const more = () => {
      if (xhr.status !== 200 || !(xhr.getResponseHeader('content-type') ?? '').startsWith(PROGRESS_TYPE)) return;
      const text = xhr.responseText.slice(read);
      read = xhr.responseText.length;
      if (lines.push(text)) progress.written(lines.rows);
    };
    xhr.addEventListener('progress', more);
    xhr.addEventListener('load', () => {
      let answer: ApiAnswer<ImportReport> | undefined;
      try {
        if ((xhr.getResponseHeader('content-type') ?? '').startsWith(PROGRESS_TYPE)) {
          more();
          lines.push('\n');
          answer = lines.answer;
        } else answer = JSON.parse(xhr.responseText) as ApiAnswer<ImportReport>;
      } catch {
        answer = undefined;
      }
      const refusal = (text: string) => {
        const said = saidIn(answer!);
        return new ApiError(text, xhr.status, undefined, typeof said === 'string' ? undefined : said);
      };
      if (xhr.status !== 200 || !answer) return reject(answer?.error ? refusal(answer.error) : statusError(xhr.status));
      if (!answer.success) return reject(refusal(answer.error || 'An error occurred during your request.'));
      resolve(answer);
    });
    xhr.addEventListener('error', () => reject(offlineError()));
    xhr.addEventListener('abort', () => reject(offlineError()));
    if (signal.aborted) return reject(offlineError());
    signal.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(file);
  });
}

/** A streamed answer read line by line (the conversations written so far), else the plain one. */
async function readProgress(response: Response, progress: UploadProgress): Promise<ApiAnswer<ImportReport>> {
  if (response.status !== 200 || !(response.headers.get('content-type') ?? '').startsWith(PROGRESS_TYPE) || !response.body) return readAnswer<ImportReport>(response);
  const lines = new ProgressLines();
  const decoder = new TextDecoder();
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    if (lines.push(decoder.decode(chunk, { stream: true }))) progress.written(lines.rows);
  }
  lines.push(decoder.decode() + '\n');
  const answer = lines.answer;
  if (!answer) throw statusError(response.status);
  if (!answer.success) throw new ApiError(answer.error || 'An error occurred during your request.', response.status, undefined, ((said) => (typeof said === 'string' ? undefined : said))(saidIn(answer)));
  return answer;
}

function browserIo(ctx: PluginContext): ArchiveIo<File> {
  const base = () => ctx.services.maybe(PlatformRef)?.serverUrl() ?? '';
  return {
    pick,
    upload: (file, progress, signal) => xhrUpload(base(), file, progress, signal),
    async save(response, suggested, path) {
      const name = path ?? suggested;
      const url = URL.createObjectURL(await response.blob());
      const a = document.createElement('a');
      a.href = url;
      a.download = name;
      a.hidden = true;
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
      return { file: name };
    },
  };
}

function terminalIo(ctx: PluginContext): ArchiveIo<LocalFile> | undefined {
  const terminal = ctx.services.maybe(TerminalRef);
  if (!terminal) return undefined;
  return {
    open: (path) => terminal.openFile(path),
    async upload(file, progress, signal) {
      const api = ctx.services.get(PlatformRef).api;
      let sent = 0;
      const counted = file.stream.pipeThrough(
        new TransformStream<Uint8Array, Uint8Array>({
          transform(chunk, controller) {
            sent += chunk.length;
            progress.sent(sent);
            controller.enqueue(chunk);
          },
        }),
      );
      let response: Response;
      try {
        response = await api.fetch(importUrl(api.baseUrl, file.name), {
          method: 'POST',
          headers: { 'Content-Type': 'application/octet-stream' },
          body: counted,
          signal,
          // A streamed request body (Node's fetch needs to be told).
          ...({ duplex: 'half' } as object),
        });
      } catch {
        throw offlineError();
      }
      return readProgress(response, progress);
    },
    async save(response, _suggested, path) {
      if (path === undefined) return { shown: await response.text() };
      await terminal.saveFile(path, response.body ?? new ReadableStream());
      return { file: path };
    },
  };
}

export default definePluginModule({
  activate: (ctx) => activateArchive(ctx, ctx.env === 'browser' && typeof document !== 'undefined' ? browserIo(ctx) : terminalIo(ctx)),
});
