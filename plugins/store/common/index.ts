// Handlers of the store commands, on top of the API client. The active stores live in the local
// `stores` setting (a comma list, at most 3); the server decides who may see or change a store.
import {
  ApiError,
  send,
  isOffline,
  listingMustSay,
  type ApiAnswer,
  error,
  extractAttachments,
  MAX_ACTIVE_STORES,
  PlatformRef,
  saidIn,
  text,
  typedClient,
  type CommandContext,
  type HandlerResult,
  type Message,
  type Output,
  type PluginContext,
  withApiErrors,
} from '../../../src/core/index.ts';
import { SERVER_MESSAGES } from '../../../src/core/serverMessages.ts';
import type { StoreRoutes } from '../server/index.ts';
import { MAX_UPLOAD_BYTES, STORE_ENGINES, STORE_SETTING_KEYS, UPLOAD_EXTENSIONS, type StoreEngine } from './limits.ts';
import { MESSAGES } from './messages.ts';
import { activeList, checkEngine, checkStoreName, checkStoreSetting, extensionOf, type PublicStore, type StoreLists, type UploadResult } from './rules.ts';

export * from './limits.ts';
export * from './messages.ts';
export * from './rules.ts';

const EMPTY: StoreLists = { user_stores: [], group_stores: [], system_stores: [] };

/** A file the user picked (a browser File; only its name and size matter here). */
export interface PickedFile {
  name: string;
  size: number;
}

/**
 * What an environment with a file picker offers `:store data upload` without attachments (the
 * browser entry provides it; elsewhere the command needs +file[url] attachments).
 */
export interface StoreUploader<F extends PickedFile = PickedFile> {
  /** Opens a picker for several files of the given `accept` list; [] when cancelled. */
  pick(accept: string): Promise<F[]>;
  /** Sends the files as multipart to POST /api/store/file-upload, reporting bytes sent. */
  send(store: string, files: F[], onProgress: (loaded: number, total: number) => void, signal: AbortSignal): Promise<ApiAnswer<UploadResult>>;
}

/** The picker's accept list: the allowed extensions. */
export const UPLOAD_ACCEPT = UPLOAD_EXTENSIONS.map((e) => `.${e}`).join(',');

/** The client-side check of one picked file (spec part 5 messages); undefined when fine. */
export function checkUpload(file: PickedFile): Message | undefined {
  if (!(UPLOAD_EXTENSIONS as readonly string[]).includes(extensionOf(file.name))) return MESSAGES.invalidType;
  if (file.size > MAX_UPLOAD_BYTES) return MESSAGES.tooLarge;
  return undefined;
}

/** One progress line per file, from the bytes sent of the whole request. */
export function progressLines(files: readonly PickedFile[], loaded: number, total: number): string[] {
  const sum = files.reduce((n, f) => n + f.size, 0);
  const sent = total > 0 ? (loaded / total) * sum : 0;
  let offset = 0;
  return files.map((f) => {
    const part = f.size > 0 ? Math.min(1, Math.max(0, (sent - offset) / f.size)) : total > 0 && loaded >= total ? 1 : 0;
    offset += f.size;
    return `Uploading ${f.name}: ${Math.floor(part * 100)}%`;
  });
}


export function activateStore(ctx: PluginContext, options: { uploader?: StoreUploader<any> } = {}): void {
  const api = () => typedClient<StoreRoutes>(ctx.services.get(PlatformRef).api).api.store;
  const active = (c: CommandContext) => activeList(c.settings.get<string>('stores'));
  const setActive = (c: CommandContext, names: string[]) => c.settings.set('stores', names.join(','));

  /**
   * The server's lists; a failure gives empty lists, except for `:store ls` (`strict`) when
   * the server cannot be reached at all ('You are offline.' rather than 'No available store found.')
   * or refuses (the plus plan's gate says why).
   */
  const lists = async (strict = false): Promise<StoreLists> => {
    try {
      return (await send(api().list.$get())).result;
    } catch (err) {
      if (strict && listingMustSay(err)) throw err;
      return EMPTY;
    }
  };
  const details = async (name: string, verbose = false): Promise<PublicStore | undefined> => {
    try {
      return (await send(api()[':name'].$get({ param: { name: encodeURIComponent(name) }, query: verbose ? { verbose: 'true' } : {} }))).result;
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) return undefined;
      throw err;
    }
  };
  /** The one active store, or the error line of spec part 5. */
  const single = (c: CommandContext): string | Output => {
    const names = active(c);
    if (names.length === 0) return error(MESSAGES.noStore);
    if (names.length > 1) return error(MESSAGES.multiple);
    return names[0]!;
  };
  /** The store a command names, or else the one active store. */
  const named = (c: CommandContext): string | Output => c.args.name ?? single(c);

  ctx.completion('store', async () => {
    const l = await lists();
    return [...new Set([...l.user_stores, ...l.group_stores, ...l.system_stores].map((s) => s.name))];
  });
  // The Settings page: the stores one may use, by scope (three at most active: the setter says so).
  ctx.choices('stores', async () => {
    const l = await lists();
    return [
      { title: ctx.t('list.user'), values: l.user_stores.map((s) => s.name) },
      { title: ctx.t('list.group'), values: l.group_stores.map((s) => s.name) },
      { title: ctx.t('list.system'), values: l.system_stores.map((s) => s.name) },
    ];
  });
  ctx.completion('storeEngine', () => [...STORE_ENGINES]);
  ctx.completion('storeSettingKey', () => [...new Set([...STORE_SETTING_KEYS.file, ...STORE_SETTING_KEYS.mysql])]);

  ctx.handle('store', (c) =>
    withApiErrors(async () => {
      if (c.args.name !== undefined) {
        const found = await details(c.args.name, true);
        return found ? { kind: 'json', value: found } : error(MESSAGES.notFound);
      }
      const out: Output[] = await pruned(c);
      const names = active(c);
      if (!names.length) return [...out, error(MESSAGES.noStore)];
      for (const name of names) {
        const found = await details(name);
        out.push(found ? { kind: 'json', value: found } : error(`${MESSAGES.notFound} (${name})`));
      }
      return out;
    }),
  );

  const listStores = async (c: CommandContext): Promise<HandlerResult> => {
    const l = await lists(true);
    const names = active(c);
    if (![...l.user_stores, ...l.group_stores, ...l.system_stores].length) return error(MESSAGES.noAvailable);
    const section = (title: string, items: StoreLists['user_stores']): Output => ({
      kind: 'list',
      title,
      items: items.map((s) => ({ text: `${s.name} (${s.engine})`, active: names.includes(s.name) })),
      empty: c.t('msg.none'),
    });
    return [section(c.t('list.user'), l.user_stores), section(c.t('list.group'), l.group_stores), section(c.t('list.system'), l.system_stores)];
  };
  ctx.handle('store.ls', (c) => withApiErrors(() => listStores(c)));

  ctx.handle('store.use', (c) =>
    withApiErrors(async () => {
      const name = c.args.name ?? '';
      if (!name) return error(MESSAGES.invalidName);
      const names = active(c);
      if (names.includes(name)) return error(MESSAGES.alreadyActive(name));
      if (names.length >= MAX_ACTIVE_STORES) return error(MESSAGES.tooManyActive);
      if (!(await details(name))) return error(MESSAGES.notExists);
      setActive(c, [...names, name]);
      return text(c.t('msg.using', { name }));
    }),
  );

  // `:set stores "a,b"` makes those the active stores, by `:store use`'s rules: at most three,
  // each one a store this user may use; an empty value is `:store reset`.
  ctx.setter('stores', (value, c) =>
    withApiErrors(async () => {
      const names = [...new Set(activeList(value.trim()))];
      if (names.length > MAX_ACTIVE_STORES) return error(MESSAGES.tooManyActive);
      if (names.length && !c.identity.loggedIn) return error(SERVER_MESSAGES.pleaseLogin);
      for (const name of names) if (!(await details(name))) return error(`${MESSAGES.notExists} (${name})`);
      setActive(c, names);
      return names.length ? text(c.t('msg.using', { name: names.join(', ') })) : text(c.t('msg.reset'));
    }),
  );

  ctx.handle('store.unuse', (c) => {
    const name = c.args.name ?? '';
    const names = active(c);
    if (!names.includes(name)) return error(c.t('msg.notActive', { name }));
    setActive(c, names.filter((n) => n !== name));
    return text(c.t('msg.unused', { name }));
  });

  ctx.handle('store.reset', (c) => {
    c.settings.set('stores', '');
    return text(c.t('msg.reset'));
  });

  ctx.handle('store.add', (c) =>
    withApiErrors(async () => {
      const engine = c.args.engine ?? '';
      const name = c.args.name ?? '';
      if (!checkEngine(engine)) return error(MESSAGES.invalidEngine);
      const problem = checkStoreName(name);
      if (problem) return error(problem);
      const names = active(c);
      const created = text(saidIn(await send(api().add.$post({ json: { name, engine } }))) || MESSAGES.created(name));
      // A store created by add becomes active, unless three are active already: then it is
      // created all the same, and the person is told how to use it.
      if (names.includes(name)) return created;
      if (names.length >= MAX_ACTIVE_STORES) return [created, text(c.t('msg.createdInactive', { max: MAX_ACTIVE_STORES, name }))];
      setActive(c, [...names, name]);
      return created;
    }),
  );

  ctx.handle('store.init', (c) =>
    withApiErrors(async () => {
      const name = named(c);
      if (typeof name !== 'string') return name;
      const answer = await send(api().init.$post({ json: { name } }));
      return text(saidIn(answer));
    }),
  );

  ctx.handle('store.set.owner', (c) =>
    withApiErrors(async () => {
      const one = single(c);
      if (typeof one !== 'string') return one;
      const answer = await send(api().update[':name'].owner.$post({ param: { name: encodeURIComponent(one) }, json: { owner: c.args.owner ?? '' } }));
      return text(saidIn(answer));
    }),
  );

  ctx.handle('store.set', (c) =>
    withApiErrors(async () => {
      const one = single(c);
      if (typeof one !== 'string') return one;
      const found = await details(one);
      if (!found) return error(MESSAGES.notFound);
      const checked = checkStoreSetting(found.engine as StoreEngine, c.args.key ?? '', c.args.value ?? '');
      if (!checked.ok) return error(checked.error);
      const answer = await send(api().update[':name'].settings.$post({ param: { name: encodeURIComponent(one) }, json: { key: checked.key, value: checked.value } }));
      return text(saidIn(answer));
    }),
  );

  ctx.handle('store.data.upload', (c) =>
    withApiErrors(async () => {
      const one = single(c);
      if (typeof one !== 'string') return one;
      const extracted = extractAttachments(c.line);
      if ('error' in extracted) return error(MESSAGES.urlScheme);
      const urls = extracted.attachments.filter((a) => a.kind === 'file').map((a) => a.url);
      // What was stored, then each file that was not, with its reason (here or the server's).
      const shown = (answer: ApiAnswer<UploadResult>, refusedHere: { name: string; reason: string | Message }[] = []): Output[] => [
        text(saidIn(answer)),
        { kind: 'table', columns: [c.t('table.file'), c.t('table.chunks')], rows: (answer.result?.files ?? []).map((f) => [f.name, String(f.chunks)]) },
        ...[...refusedHere, ...(answer.result?.refused ?? [])].map((r) => error(MESSAGES.uploadFailed(r.name, r.reason))),
      ];
      if (urls.length) return shown(await send(api()['file-upload'].$post({ json: { name: one, urls } })));
      const uploader = options.uploader;
      if (!uploader) return error(MESSAGES.noFiles);
      // No attachment: the browser's file picker, checked here first, then sent with progress.
      const picked = await uploader.pick(UPLOAD_ACCEPT);
      if (!picked.length) return error(MESSAGES.noSelection);
      // Files that fail the checks stay here, named with their reason; the others go.
      const refusedHere = picked.flatMap((f) => {
        const reason = checkUpload(f);
        return reason ? [{ name: f.name, reason }] : [];
      });
      const files = picked.filter((f) => !checkUpload(f));
      if (!files.length) return refusedHere.length === 1 ? error(refusedHere[0]!.reason) : refusedHere.map((r) => error(MESSAGES.uploadFailed(r.name, r.reason)));
      const show = (loaded: number, total: number) => c.events.emit('output', progressLines(files, loaded, total).map((line) => text(line)));
      show(0, 0);
      const answer = await uploader.send(one, files, show, c.signal);
      return shown(answer, refusedHere);
    }),
  );

  ctx.handle('store.data.reset', (c) =>
    withApiErrors(async () => {
      const name = named(c);
      if (typeof name !== 'string') return name;
      const answer = await send(api()['data-reset'].$post({ json: { name } }));
      return text(saidIn(answer));
    }),
  );

  ctx.handle('store.del', (c) =>
    withApiErrors(async () => {
      const name = c.args.name ?? '';
      const answer = await send(api().delete.$post({ json: { name } }));
      // A deleted store is removed from the active list.
      setActive(c, active(c).filter((n) => n !== name));
      return text(saidIn(answer));
    }),
  );

  /**
   * Active stores this user can no longer use (a group left, a store given away or deleted
   * elsewhere) leave the active list, with a line that says so.
   */
  const pruned = async (c: CommandContext): Promise<Output[]> => {
    const names = active(c);
    if (!names.length) return [];
    const l = await lists();
    const usable = new Set([...l.user_stores, ...l.group_stores, ...l.system_stores].map((s) => s.name));
    const gone = names.filter((n) => !usable.has(n));
    if (!gone.length) return [];
    setActive(c, names.filter((n) => usable.has(n)));
    return [text(c.t('msg.unusable', { names: gone.join(', ') }))];
  };

  ctx.handle('store.search', (c) =>
    withApiErrors(async () => {
      const note = await pruned(c);
      const names = active(c);
      if (!names.length) return [...note, error(MESSAGES.noStore)];
      const { result } = await send(api().search.$post({ json: { search: c.args.text ?? '', store: names.join(',') } }));
      const hits = result.hits;
      const errors = [...note, ...result.errors.map((e) => error(e))];
      if (!hits.length) return [...errors, text(c.t('msg.noResults'))];
      return [...errors, { kind: 'table', columns: [c.t('table.store'), c.t('table.source'), c.t('table.snippet')], rows: hits.map((h) => [h.store, h.source, h.snippet]) }];
    }),
  );
}
