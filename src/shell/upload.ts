// Attaching files in the browser (spec parts 4, 5 and 7): a file pasted, dropped or picked
// becomes an inline marker in the input that says it is uploading, then the object URL once
// the server has it (`+image[url]` for pictures, `+file[url]` otherwise), or a failure note.
// Loaded on the first attachment, not with the first paint.
import { ApiError, createApiClient, offlineError, saidIn, statusError, type ApiAnswer, type ApiClient } from '../core/api/client.ts';
import { MessageError, saidBy, type Message } from '../core/messages.ts';
import { send, typedClient } from '../core/api/typed.ts';
import type { UploadRoutes } from '../server/uploads/routes.ts';
import { SERVER_MESSAGES } from '../core/serverMessages.ts';
import { isImageExtension, fileExtension, uploadMarker, uploadRefusal } from '../core/uploads.ts';
import type { Output, PluginHost, Translate } from '../core/host/index.ts';

/** What attaching needs of the shell's controller: its input and previews, and its output. */
interface Shell {
  state: { set(update: (s: { input: string; previews: string[] }) => { input: string } | { previews: string[] }): void };
  show(outputs: Output[]): void;
  previewUpload(url: string): void;
}

export interface UploadTarget {
  /** The markers go in at `at` (the caret), or at the end of the input. */
  insert(markers: string, at?: number): void;
  /** Replaces a marker in the input, wherever the person's editing has moved it. */
  replace(marker: string, next: string): void;
  /** A failure (a server or core message, or the API client's own) in the interface's language. */
  localize(failure: Message | Error): Promise<string>;
  /** The note that says a marker is still uploading (translated). */
  uploadingNote: string;
  /** An image the input now carries, shown among the previews. */
  preview(url: string): void;
  /** A failure worth more than the marker's note (the whole type list). */
  error(text: string): void;
  /** Whether a marker is still waiting for its upload, so that sending can wait. */
  pending: Set<string>;
  /** Failed markers and why, so that sending one says its reason (not 'URL must start with http'). */
  failures: Map<string, { name: string; reason: string }>;
}

const REFUSALS = {
  invalidType: SERVER_MESSAGES.uploadInvalidType,
  tooLarge: SERVER_MESSAGES.uploadTooLarge,
  empty: SERVER_MESSAGES.uploadEmpty,
} as const;

/** The server's words for a failed request, or what failed on the way. */
async function failure(response: Response): Promise<Error> {
  const body = (await response.json().catch(() => undefined)) as ApiAnswer | undefined;
  if (!body?.error) return statusError(response.status);
  const said = saidIn(body);
  return new ApiError(body.error, response.status, undefined, typeof said === 'string' ? undefined : said);
}

/** Uploads one file: presigned URL, then the PUT; the object URL. */
async function uploadOne(file: File, api: ApiClient, fileId: string): Promise<string> {
  const presign = typedClient<UploadRoutes>(api).api.file['generate-presigned-url'];
  const answer = await send(presign.$get({ query: { fileId, fileName: file.name, contentType: file.type } }));
  const signed = answer.result;
  if (!signed?.url || !signed.object_url) throw new MessageError(SERVER_MESSAGES.presignedInvalid);
  let response: Response;
  try {
    response = await fetch(signed.url, { method: 'PUT', headers: { 'content-type': signed.content_type }, body: file, credentials: 'same-origin' });
  } catch {
    throw offlineError();
  }
  if (response.status !== 200) throw await failure(response);
  return signed.object_url;
}

let counter = 0;

/** Uploads the files side by side, each behind its own marker, the markers in the files' order. */
export async function attachFiles(files: readonly File[], target: UploadTarget, at?: number, api: ApiClient = createApiClient()): Promise<void> {
  const entries = files.map((file) => {
    // Each marker is unique (two files of the same name upload side by side).
    const fileId = `${Date.now().toString(36)}-${(counter++).toString(36)}`;
    return { file, fileId, waiting: uploadMarker(file.name, `${file.name} (${target.uploadingNote}) #${fileId}`) };
  });
  for (const { waiting } of entries) target.pending.add(waiting);
  target.insert(entries.map((e) => e.waiting).join(' '), at);
  await Promise.all(
    entries.map(async ({ file, fileId, waiting }) => {
      const failed = async (failure: Message | Error) => {
        const reason = await target.localize(failure);
        const marker = uploadMarker(file.name, `${file.name} (${reason})`);
        target.failures.set(marker, { name: file.name, reason });
        target.replace(waiting, marker);
        return reason;
      };
      try {
        const refusal = uploadRefusal(file);
        if (refusal) {
          const reason = await failed(REFUSALS[refusal]);
          // The marker flags it; the output says which types are taken.
          if (refusal === 'invalidType') target.error(reason);
          return;
        }
        const url = await uploadOne(file, api, fileId);
        target.replace(waiting, uploadMarker(file.name, url));
        if (isImageExtension(fileExtension(file.name))) target.preview(url);
      } catch (err) {
        await failed((err as Error).message ? (err as Error) : SERVER_MESSAGES.uploadFailed);
      } finally {
        target.pending.delete(waiting);
      }
    }),
  );
}

/** Markers at the caret `at` (or at the end), set apart from the words around them by a space. */
function insertAt(input: string, markers: string, at?: number): string {
  const cut = at === undefined || at > input.length ? input.length : at;
  const [before, after] = [input.slice(0, cut), input.slice(cut)];
  return `${before}${before && !/\s$/.test(before) ? ' ' : ''}${markers}${after && !/^\s/.test(after) ? ' ' : ''}${after}`;
}

/**
 * Why a line with upload markers cannot be sent yet, or undefined when it can: a marker still
 * uploading is no URL yet (sending now would lose the file); one that failed says its own
 * reason, and what to do about it.
 */
export function markerRefusal(raw: string, markers: Pick<UploadTarget, 'pending' | 'failures'>, t: Translate): Output[] | undefined {
  if ([...markers.pending].some((marker) => raw.includes(marker))) return [{ kind: 'error', text: t('msg.uploadPending') }];
  const failed = [...markers.failures].filter(([marker]) => raw.includes(marker)).map(([, f]) => f);
  if (!failed.length) return undefined;
  const reasons: Output[] = failed.map((f) => ({ kind: 'error', text: `${f.name}: ${f.reason}` }));
  return [...reasons, { kind: 'effect', effect: { type: 'notice', text: t('msg.uploadFailedHint') } }];
}

/** Attaches files to the shell's input (the controller's `attach`, kept out of the first paint). */
export function attachToShell(
  controller: Shell,
  host: PluginHost,
  t: Translate,
  markers: Pick<UploadTarget, 'pending' | 'failures'>,
  files: readonly File[],
  at?: number,
): Promise<void> {
  const { state } = controller;
  return attachFiles(
    files,
    {
      insert: (markers, pos) => state.set((s) => ({ input: insertAt(s.input, markers, pos) })),
      replace: (marker, next) => state.set((s) => ({ input: s.input.replace(marker, () => next) })),
      localize: async (failure) => {
        // The API client's own failures (offline, a bare status) carry their key.
        if (failure instanceof ApiError && failure.key) return t(failure.key, failure.params);
        if (failure instanceof ApiError && failure.said) return host.say(failure.said);
        return host.say(failure instanceof Error ? saidBy(failure) : failure);
      },
      uploadingNote: t('msg.uploading'),
      preview: (url) => controller.previewUpload(url),
      error: (text) => controller.show([{ kind: 'error', text }]),
      ...markers,
    },
    at,
  );
}
