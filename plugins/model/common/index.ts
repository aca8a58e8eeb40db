// Handlers of the model commands, on top of the API client and a source of local models (the
// browser passes the local model server; see ../client/ollama.ts). The server decides who may
// see or change a model and never sends a key (see ../server/index.ts).
import {
  ApiError,
  send,
  isOffline,
  listingMustSay,
  OLLAMA_MESSAGES,
  PlatformRef,
  resetSession,
  error,
  saidIn,
  text,
  typedClient,
  type CommandContext,
  type HandlerResult,
  type Output,
  type PluginContext,
  type PublicModel,
  type SettingsStore,
  withApiErrors,
} from '../../../src/core/index.ts';
import { SERVER_MESSAGES } from '../../../src/core/serverMessages.ts';
import type { ModelRoutes } from '../server/index.ts';
import { MODEL_SETTING_KEYS } from './limits.ts';
import { MESSAGES } from './messages.ts';
import { checkModelName, checkModelSetting } from './rules.ts';

export * from './limits.ts';
export * from './messages.ts';
export * from './rules.ts';

/** The local model server as the commands see it. */
export interface LocalModels {
  /** Its base URL: what `baseUrl` holds while one of its models is active. */
  baseUrl(): string;
  /** Whether it answers the health check. */
  healthy(): Promise<boolean>;
  /** Its model names, or undefined when it does not answer (nothing is reported then). */
  list(): Promise<string[] | undefined>;
  /** Is `baseUrl` the local model server's? */
  isLocal(baseUrl: string): boolean;
}

interface ModelLists {
  user_models: PublicModel[];
  group_models: PublicModel[];
  system_models: PublicModel[];
}

const NO_MODEL = MESSAGES.noneSet;
const NO_AVAILABLE = MESSAGES.noneAvailable;


function clearModel(settings: SettingsStore): void {
  settings.reset('model');
  settings.reset('baseUrl');
}

export function activateModel(ctx: PluginContext, local: LocalModels): void {
  const platform = ctx.services.get(PlatformRef);
  const api = typedClient<ModelRoutes>(platform.api).api.model;

  /**
   * The server's lists; a failure gives empty lists (spec part 7: list failures are only
   * logged), except for `:model ls` (`strict`) when the server cannot be reached at all: it
   * says 'You are offline.' rather than 'No available model found.', or when it refuses.
   */
  const serverLists = async (strict = false): Promise<ModelLists> => {
    try {
      return (await send(api.list.$get())).result;
    } catch (err) {
      if (strict && listingMustSay(err)) throw err;
      return { user_models: [], group_models: [], system_models: [] };
    }
  };

  /** One model as the server shows it, or undefined for 'Model not found.' (404). */
  const serverModel = async (name: string): Promise<PublicModel | undefined> => {
    try {
      return (await send(api[':name'].$get({ param: { name: encodeURIComponent(name) } }))).result;
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) return undefined;
      throw err;
    }
  };

  /** The default model: the server's first system model (system info names it too). */
  const defaultModel = async (lists?: ModelLists): Promise<string> =>
    (lists ?? (await serverLists())).system_models[0]?.name ?? platform.systemInfo().model ?? '';

  const activeIsLocal = (settings: SettingsStore) => !!settings.get<string>('model') && local.isLocal(settings.get<string>('baseUrl'));

  const localDetails = (name: string): Output => ({
    kind: 'json',
    value: { name, scope: 'local', provider: 'ollama', model: name, base_url: local.baseUrl() },
  });

  /** Details of a model of the local model server, with the two Ollama errors of spec part 8. */
  const localModel = async (name: string): Promise<HandlerResult> => {
    const names = await local.list();
    if (!names) return error(OLLAMA_MESSAGES.ollamaCannotConnect);
    if (!names.includes(name)) return error(OLLAMA_MESSAGES.ollamaModelNotFound);
    return localDetails(name);
  };

  ctx.completion('model', async () => {
    const [lists, names] = await Promise.all([serverLists(), local.list()]);
    return [...new Set([...lists.user_models, ...lists.group_models, ...lists.system_models].map((m) => m.name).concat(names ?? []))];
  });
  // The Settings page: the models one may use, by where they come from.
  ctx.choices('model', async () => {
    const [lists, names] = await Promise.all([serverLists(), local.list()]);
    // With no model set, the default answers: the page shows it picked, as `:model ls` stars it.
    const fallback = await defaultModel(lists);
    return [
      { title: ctx.t('list.user'), values: lists.user_models.map((m) => m.name) },
      { title: ctx.t('list.group'), values: lists.group_models.map((m) => m.name) },
      { title: ctx.t('list.system'), values: lists.system_models.map((m) => m.name), byDefault: fallback },
      { title: ctx.t('list.local'), values: names ?? [] },
    ];
  });
  ctx.completion('userModel', async () => {
    const lists = await serverLists();
    return [...lists.user_models, ...lists.group_models.filter((m) => m.mine)].map((m) => m.name);
  });
  ctx.completion('modelSettingKey', () => [...MODEL_SETTING_KEYS]);

  ctx.handle('model', (c) =>
    withApiErrors(async () => {
      const requested = c.args.name;
      if (requested !== undefined) {
        const names = await local.list();
        if (names?.includes(requested)) return localDetails(requested);
        const found = await serverModel(requested);
        return found ? { kind: 'json', value: found } : error(MESSAGES.notFound);
      }
      const active = c.settings.get<string>('model');
      if (active && activeIsLocal(c.settings)) return localModel(active);
      if (active) {
        const found = await serverModel(active);
        return found ? { kind: 'json', value: found } : error(MESSAGES.notFound);
      }
      const name = await defaultModel();
      if (!name) return error(NO_MODEL);
      const found = await serverModel(name).catch(() => undefined);
      return [text(c.t('msg.default')), found ? { kind: 'json', value: found } : { kind: 'json', value: { name, scope: 'system' } }];
    }),
  );

  const listModels = async (c: CommandContext): Promise<HandlerResult> => {
    const [lists, names] = await Promise.all([serverLists(true), local.list()]);
    const active = c.settings.get<string>('model');
    const isLocal = activeIsLocal(c.settings);
    const current = active || (await defaultModel(lists));
    // The server resolves a name user → group → system: star where it resolves.
    const starIn = isLocal ? undefined : (['user_models', 'group_models', 'system_models'] as const).find((k) => lists[k].some((m) => m.name === current));
    const section = (title: string, key: keyof ModelLists): Output => ({
      kind: 'list',
      title,
      items: lists[key].map((m) => ({ text: m.name, active: starIn === key && m.name === current })),
      empty: c.t('msg.none'),
    });
    const localNames = names ?? [];
    if (![...lists.user_models, ...lists.group_models, ...lists.system_models].length && !localNames.length) return error(NO_AVAILABLE);
    return [
      section(c.t('list.user'), 'user_models'),
      section(c.t('list.group'), 'group_models'),
      section(c.t('list.system'), 'system_models'),
      {
        kind: 'list',
        title: c.t('list.local'),
        items: localNames.map((name) => ({ text: name, active: isLocal && name === active })),
        empty: c.t('msg.none'),
      },
    ];
  };
  ctx.handle('model.ls', (c) => withApiErrors(() => listModels(c)));

  const use = (c: CommandContext, name: string) =>
    withApiErrors(async () => {
      // The local model server first, then the server's models (user → group → system).
      const names = await local.list();
      if (names?.includes(name)) {
        c.settings.set('model', name);
        c.settings.set('baseUrl', local.baseUrl());
        return text(c.t('msg.using', { name }));
      }
      const found = await serverModel(name);
      if (!found) return error(MESSAGES.notFound);
      c.settings.set('model', found.name);
      c.settings.set('baseUrl', found.base_url ?? '');
      return text(c.t('msg.using', { name: found.name }));
    });
  ctx.handle('model.use', (c) => use(c, c.args.name ?? ''));
  // `:set model "x"` is `:model use "x"` (its base URL follows), and an empty value `:model unuse`.
  ctx.setter('model', async (value, c) => {
    if (!c.identity.loggedIn) return error(SERVER_MESSAGES.pleaseLogin);
    const name = value.trim();
    if (name) return use(c, name);
    clearModel(c.settings);
    return text(c.t('msg.unused'));
  });

  ctx.handle('model.unuse', async (c) => {
    if (!c.settings.get<string>('model')) return error(NO_MODEL);
    clearModel(c.settings);
    const name = await defaultModel();
    return text(name ? c.t('msg.unusedDefault', { name }) : c.t('msg.unused'));
  });

  ctx.handle('model.reset', (c: CommandContext) => {
    clearModel(c.settings);
    resetSession(c.settings);
    return text(c.t('msg.reset'));
  });

  ctx.handle('model.add', (c) =>
    withApiErrors(async () => {
      const name = c.args.name ?? '';
      const problem = checkModelName(name);
      if (problem) return error(problem);
      const answer = await send(api.add.$post({ json: { name, base_url: c.args.base_url ?? '', api_key: c.args.api_key ?? '' } }));
      return [text(saidIn(answer) || MESSAGES.added(name)), { kind: 'json', value: answer.result }];
    }),
  );

  ctx.handle('model.set', (c) =>
    withApiErrors(async () => {
      const name = c.args.name ?? '';
      const key = (c.args.key ?? '').toLowerCase();
      const checked = checkModelSetting(key, c.args.value ?? '');
      if (!checked.ok) return error(checked.error);
      const answer = await send(api.update.$post({ json: { name, key, value: c.args.value ?? '' } }));
      const model = answer.result!;
      // The active model's base URL follows the change (it is what `:info` shows).
      if (key === 'base_url' && c.settings.get<string>('model') === name && !activeIsLocal(c.settings)) c.settings.set('baseUrl', model.base_url ?? '');
      return [text(saidIn(answer) || MESSAGES.updated(name)), { kind: 'json', value: model }];
    }),
  );

  ctx.handle('model.del', (c) =>
    withApiErrors(async () => {
      const name = c.args.name ?? '';
      const answer = await send(api.delete.$post({ json: { name } }));
      if (c.settings.get<string>('model') === name && !activeIsLocal(c.settings)) clearModel(c.settings);
      return text(saidIn(answer) || MESSAGES.deleted(name));
    }),
  );
}
