// Browser entry of the store plugin: the common handlers, plus a file picker (a hidden
// `<input type=file multiple>`) and a multipart upload over XMLHttpRequest, whose upload
// progress `:store data upload` shows while the files are sent.
import { ApiError, definePluginModule, offlineError, PlatformRef, saidIn, statusError, type ApiAnswer } from '../../../src/core/index.ts';
import { activateStore, MESSAGES, type StoreUploader, type UploadResult } from '../common/index.ts';

function pick(accept: string): Promise<File[]> {
  return new Promise((resolve) => {
    const input = document.createElement('input');
    input.type = 'file';
    input.multiple = true;
    input.accept = accept;
    input.hidden = true;
    input.dataset.testid = 'store-upload-input';
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

function send(baseUrl: string, store: string, files: File[], onProgress: (loaded: number, total: number) => void, signal: AbortSignal): Promise<ApiAnswer<UploadResult>> {
  return new Promise((resolve, reject) => {
    const form = new FormData();
    form.set('name', store);
    for (const f of files) form.append('files', f, f.name);
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `${baseUrl}/api/store/file-upload`);
    xhr.withCredentials = true;
    xhr.responseType = 'text';
    xhr.upload.addEventListener('progress', (e) => onProgress(e.loaded, e.lengthComputable ? e.total : 0));
    xhr.addEventListener('load', () => {
      let answer: ApiAnswer<UploadResult> | undefined;
      try {
        answer = JSON.parse(xhr.responseText) as ApiAnswer<UploadResult>;
      } catch {
        answer = undefined;
      }
      // A refusal keeps its code, so that it is shown in the interface's language.
      const refusal = (text: string) => {
        const said = saidIn(answer!);
        return new ApiError(text, xhr.status, undefined, typeof said === 'string' ? undefined : said);
      };
      if (xhr.status !== 200 || !answer) return reject(answer?.error ? refusal(answer.error) : statusError(xhr.status));
      if (!answer.success) return reject(refusal(answer.error || 'An error occurred during your request.'));
      resolve(answer);
    });
    xhr.addEventListener('error', () => reject(offlineError()));
    xhr.addEventListener('abort', () => reject(new ApiError(MESSAGES.uploadCancelled, 0)));
    if (signal.aborted) return reject(new ApiError(MESSAGES.uploadCancelled, 0));
    signal.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(form);
  });
}

export default definePluginModule({
  activate: (ctx) => {
    const uploader: StoreUploader<File> = {
      pick,
      send: (store, files, onProgress, signal) => send(ctx.services.maybe(PlatformRef)?.serverUrl() ?? '', store, files, onProgress, signal),
    };
    activateStore(ctx, { uploader });
  },
});
