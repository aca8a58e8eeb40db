// What the model commands share: the typed API, the server's lists and models, the default model,
// and the local model server (the browser passes it; see ../../client/ollama.ts).
import { ApiError, error, listingMustSay, OLLAMA_MESSAGES, PlatformRef, send, typedClient, type HandlerResult, type Output, type PluginContext, type PublicModel, type SettingsStore } from '../../../../src/core/index.ts';
import type { ModelRoutes } from '../../server/index.ts';

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

export interface ModelLists {
  user_models: PublicModel[];
  group_models: PublicModel[];
  system_models: PublicModel[];
}

/** No model set: the setting and its base URL. */
export function clearModel(settings: SettingsStore): void {
  settings.reset('model');
  settings.reset('baseUrl');
}

export function modelAccess(ctx: PluginContext, local: LocalModels) {
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

  return { api, local, serverLists, serverModel, defaultModel, activeIsLocal, localDetails, localModel };
}

export type ModelAccess = ReturnType<typeof modelAccess>;
