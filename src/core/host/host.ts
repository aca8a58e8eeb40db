// The plugin host: keeps the manifests, activates plugin code on first use, and runs a line
// of input through parse → resolve → gate → bind → handler. The same host runs in the
// browser, the CLI and the tests; only the loaders and the settings store differ.
import mitt, { type Emitter } from 'mitt';
import type {
  ChoiceGroup,
  ChoicesProvider,
  PageMount,
  CommandContext,
  CommandHandler,
  CompletionProvider,
  DocsContribution,
  Env,
  Identity,
  PluginEntry,
  PluginManifest,
  PluginModule,
  SettingSetter,
  Translate,
} from '../contract.ts';
import { PLUGIN_API } from '../contract.ts';
import type { ShellEvents } from '../events.ts';
import { parseLine, type ParsedLine } from '../line.ts';
import { translateMessage, type Message, type MessageData } from '../messages.ts';
import { loadDocsSources, type DocsSource } from './docs.ts';
import { outputsInLanguage } from './inLanguage.ts';
import { error, type BackPage, type Output, type Said } from '../output.ts';
import { bindArgs, CommandRegistry, formatUsage, usageOf, type RegisteredCommand } from '../registry.ts';
import { ServiceRegistry } from '../services.ts';
import type { SettingsStore } from '../settings.ts';
import { isSecretLine } from './secrets.ts';
import { failureSaid, lineErrorSaid, PluginLoadError, unknownCommandSaid } from './runFailure.ts';
import { stillHeld } from '../heldMarkers.ts';

export interface HostOptions {
  env: Env;
  plugins: readonly PluginEntry[];
  settings: SettingsStore;
  /** Translator for a namespace (a plugin id or `shell`). */
  translator: (ns: string) => Translate;
  /** Called before a plugin activates, to load its locale namespace. */
  loadNamespace?: (ns: string) => Promise<void>;
  /** Settles when the interface's language has its translations loaded (after a change of language). */
  languageReady?: () => Promise<void>;
  identity?: () => Identity;
  online?: () => boolean;
  events?: Emitter<ShellEvents>;
  /** Free text that is not a command: the chat plugin answers it (issue: chat). */
  onChat?: (parsed: Extract<ParsedLine, { kind: 'chat' }>, signal: AbortSignal) => Promise<Output[]>;
  onFunction?: (parsed: Extract<ParsedLine, { kind: 'function' }>) => Promise<Output[]>;
}

export interface RunResult {
  outputs: Output[];
  parsed: ParsedLine;
  command?: RegisteredCommand;
  /** The line may be kept in command history (it is a command or call and carries no secret). */
  remember: boolean;
}

interface Active {
  module: PluginModule;
  disposers: (() => void)[];
}

export class PluginHost {
  readonly env: Env;
  readonly events: Emitter<ShellEvents>;
  readonly services = new ServiceRegistry();
  private entries: PluginEntry[];
  private registryCache?: CommandRegistry;
  private readonly handlers = new Map<string, CommandHandler>();
  private readonly completions = new Map<string, CompletionProvider>();
  private readonly setters = new Map<string, SettingSetter>();
  private readonly choiceProviders = new Map<string, ChoicesProvider>();
  private readonly pages = new Map<BackPage, PageMount>();
  private readonly liveDocs = new Map<string, () => Promise<DocsContribution>>();
  private readonly attachedChecks = new Map<string, (markers: readonly string[]) => Promise<readonly string[]>>();
  private coreLoaded?: Promise<void>;
  private readonly active = new Map<string, Promise<Active>>();

  private readonly options: HostOptions;

  constructor(options: HostOptions) {
    this.options = options;
    this.env = options.env;
    this.events = options.events ?? mitt<ShellEvents>();
    this.entries = [...options.plugins];
    for (const entry of this.entries) this.checkApi(entry.manifest);
  }

  get manifests(): readonly PluginManifest[] {
    return this.entries.map((e) => e.manifest);
  }

  get registry(): CommandRegistry {
    this.registryCache ??= new CommandRegistry(this.manifests, this.env);
    return this.registryCache;
  }

  get settings(): SettingsStore {
    return this.options.settings;
  }

  t(ns = 'shell'): Translate {
    return this.options.translator(ns);
  }

  identity(): Identity {
    return this.options.identity?.() ?? { loggedIn: false };
  }

  private checkApi(manifest: PluginManifest): void {
    if (manifest.api !== PLUGIN_API) {
      throw new Error(`Plugin ${manifest.id} targets plugin API ${String(manifest.api)}, this host speaks ${PLUGIN_API}.`);
    }
  }

  /** Adds a plugin at runtime (a Module Federation remote). Ids must stay unique. */
  addPlugin(entry: PluginEntry): void {
    this.checkApi(entry.manifest);
    if (this.entries.some((e) => e.manifest.id === entry.manifest.id)) {
      throw new Error(`Plugin ${entry.manifest.id} is already installed.`);
    }
    this.entries.push(entry);
    this.registryCache = undefined;
  }

  async loadNamespaces(ns: readonly string[]): Promise<void> {
    await Promise.all(ns.map((n) => this.options.loadNamespace?.(n)));
  }

  /** Every plugin's documentation contributions, loading the lazy ones. */
  docsSources(): Promise<DocsSource[]> {
    return loadDocsSources(this.entries, this.liveDocs);
  }

  /** After a reload: the markers the tab held (AttachedMarkers.held) that the plugins which made them say still hold. */
  stillHeld(text: string): Promise<string[]> {
    return stillHeld(text, this.manifests, async (pluginId, markers) => {
      await this.ensureActive(pluginId).catch(() => undefined);
      const good = (await this.attachedChecks.get(pluginId)?.(markers).catch(() => undefined)) ?? [];
      return markers.filter((m) => good.includes(m));
    });
  }

  isActive(pluginId: string): boolean {
    return this.active.has(pluginId);
  }

  /**
   * Loads every plugin's browser code and translations without activating it, so that its
   * commands still work if the server goes away later (`:help` and `:info` offline). Called
   * once the app is idle after the first paint; a load that fails is tried again on use.
   */
  async prefetch(): Promise<void> {
    await Promise.all(
      [this.coreMessages(), ...this.entries.map(async (e) => {
        await this.options.loadNamespace?.(e.manifest.id);
        await e.load();
      })].map((p) => p.catch(() => undefined)),
    );
  }

  /** A catalogue message in the interface's language, by its code (its namespace already loaded). */
  translate(said: Message | MessageData): string {
    return translateMessage(said, (ns) => this.t(ns));
  }

  /** What an output or an error says, in the interface's language (loading the namespaces it needs). */
  async say(said: Said): Promise<string> {
    const [out] = await this.inLanguage([error(said)]);
    return out!.kind === 'error' ? out!.text : '';
  }

  /** Outputs in the interface's language (inLanguage.ts). */
  inLanguage(outputs: Output[]): Promise<Output[]> {
    return outputsInLanguage(outputs, (ns) => this.t(ns), (ns) => this.loadNamespaces(ns));
  }

  /** The translations of the core's messages, loaded once (for the first command's outputs). */
  private coreMessages(): Promise<void> {
    this.coreLoaded ??= this.loadNamespaces(['core']).catch(() => undefined);
    return this.coreLoaded;
  }

  /** Activates every plugin whose manifest asks for it at startup. */
  async activateStartup(): Promise<void> {
    await Promise.all(
      this.entries.filter((e) => e.manifest.activation === 'startup').map((e) => this.ensureActive(e.manifest.id)),
    );
  }

  ensureActive(pluginId: string): Promise<Active> {
    const existing = this.active.get(pluginId);
    if (existing) return existing;
    const entry = this.entries.find((e) => e.manifest.id === pluginId);
    if (!entry) return Promise.reject(new Error(`Plugin ${pluginId} is not installed.`));
    const activation = this.activate(entry);
    this.active.set(pluginId, activation);
    activation.catch(() => this.active.delete(pluginId));
    return activation;
  }

  private async activate(entry: PluginEntry): Promise<Active> {
    const { manifest } = entry;
    let module: Awaited<ReturnType<PluginEntry['load']>>;
    try {
      await this.options.loadNamespace?.(manifest.id);
      module = await entry.load();
    } catch (err) {
      throw new PluginLoadError(err);
    }
    const disposers: (() => void)[] = [];
    // What a plugin registers is kept until it is deactivated.
    const keep = <K, V>(map: Map<K, V>, key: K, value: V) => {
      map.set(key, value);
      disposers.push(() => map.delete(key));
    };
    const refuse = (what: string) => {
      throw new Error(`Plugin ${manifest.id} does not declare ${what}.`);
    };
    const declares = (key: string) => (manifest.settings ?? []).some((s) => s.key === key) || refuse(`setting ${key}`);
    const declared = new Set((manifest.commands ?? []).map((c) => c.id));
    const provided = new Set((manifest.provides ?? []).map((r) => r.id));
    await module.activate({
      env: this.env,
      manifest,
      manifests: () => this.manifests,
      t: this.t(manifest.id),
      settings: this.options.settings,
      events: this.events,
      services: {
        get: (ref) => this.services.get(ref),
        maybe: (ref) => this.services.maybe(ref),
        provide: (ref, impl) => {
          if (!provided.has(ref.id)) refuse(`that it provides ${ref.id}`);
          disposers.push(this.services.provide(ref, impl));
        },
      },
      handle: (commandId, handler) => (declared.has(commandId) || refuse(`command ${commandId}`), keep(this.handlers, commandId, handler)),
      completion: (source, provider) => keep(this.completions, source, provider),
      setter: (key, setter) => (declares(key), keep(this.setters, key, setter)),
      choices: (key, provider) => (declares(key), keep(this.choiceProviders, key, provider)),
      page: (page, mount) => ((manifest.pages ?? []).includes(page) || refuse(`page ${page}`), keep(this.pages, page, mount)),
      docs: (provider) => keep(this.liveDocs, manifest.id, provider),
      attached: (check) => keep(this.attachedChecks, manifest.id, check),
      onDispose: (fn) => disposers.push(fn),
    });
    return { module, disposers };
  }

  /** Undoes everything the plugin registered; its commands stay declared and reactivate on use. */
  async deactivate(pluginId: string): Promise<void> {
    const activation = this.active.get(pluginId);
    if (!activation) return;
    this.active.delete(pluginId);
    const { module, disposers } = await activation;
    await module.deactivate?.();
    for (const dispose of disposers.reverse()) dispose();
  }

  async completionProvider(source: string, pluginId: string): Promise<CompletionProvider | undefined> {
    if (!this.completions.has(source)) await this.ensureActive(pluginId).catch(() => undefined);
    return this.completions.get(source);
  }

  /** Runs one line of input and returns what to show. Never throws for bad input. */
  async run(input: string, signal: AbortSignal = new AbortController().signal): Promise<RunResult> {
    const parsed = parseLine(input);
    // Right after `:lang use`, the new language's strings may still be loading: wait for them,
    // or the next answer would mix languages.
    await this.options.languageReady?.();
    await this.coreMessages();
    const t = this.t('shell');
    const remember = (parsed.kind === 'command' || parsed.kind === 'function') && !isSecretLine(parsed, this.registry);
    switch (parsed.kind) {
      case 'empty':
        return { outputs: [], parsed, remember: false };
      case 'error':
        return { outputs: lineErrorSaid(this.registry, parsed.error, input, t), parsed, remember: false };
      case 'chat':
        if (this.options.onChat) return { outputs: await this.options.onChat(parsed, signal), parsed, remember: false };
        return { outputs: [error(t('msg.chatUnavailable'))], parsed, remember: false };
      case 'function':
        if (!this.identity().loggedIn) return { outputs: [error(t('msg.pleaseLogin'))], parsed, remember };
        if (this.options.onFunction) return { outputs: await this.inLanguage(await this.options.onFunction(parsed)), parsed, remember };
        return { outputs: [error(t('msg.functionNotFound'))], parsed, remember };
      case 'command':
        return this.runCommand(parsed, signal, remember);
    }
  }

  private commandContext(pluginId: string, spec: CommandContext['spec'], args: CommandContext['args'], line: string, signal: AbortSignal): CommandContext {
    return {
      args,
      line,
      spec,
      env: this.env,
      t: this.t(pluginId),
      settings: this.options.settings,
      events: this.events,
      identity: this.identity(),
      manifests: this.manifests,
      services: { get: (ref) => this.services.get(ref), maybe: (ref) => this.services.maybe(ref) },
      signal,
      tFor: (ns) => this.t(ns),
      loadNamespaces: (ns) => this.loadNamespaces(ns),
      setThroughOwner: (key, value) => this.setThroughOwner(key, value, signal),
    };
  }

  /** The installed plugin that renders a back-view page, if any. */
  pageOwner(page: BackPage): string | undefined {
    return this.entries.find((e) => (e.manifest.pages ?? []).includes(page))?.manifest.id;
  }

  /** How a plugin's page mounts (its plugin activated for it); undefined when no plugin renders it. */
  async pageMount(page: BackPage): Promise<PageMount | undefined> {
    const owner = this.pageOwner(page);
    if (!owner) return undefined;
    if (!this.pages.has(page)) await this.ensureActive(owner);
    return this.pages.get(page);
  }

  /** The plugin that declares a setting, if any plugin does (else the shell). */
  settingOwner(key: string): string | undefined {
    return this.entries.find((e) => (e.manifest.settings ?? []).some((s) => s.key === key))?.manifest.id;
  }

  /** The Settings page's choices for a setting, from the plugin that declares it (activated for it); undefined without a provider. */
  async choicesFor(key: string): Promise<ChoiceGroup[] | undefined> {
    const owner = this.settingOwner(key);
    if (!owner) return undefined;
    if (!this.choiceProviders.has(key)) await this.ensureActive(owner).catch(() => undefined);
    return this.choiceProviders.get(key)?.();
  }

  /**
   * Sets a setting the way the plugin that declares it does, when it registered a setter
   * (activating it first); its outputs in the interface's language. Undefined without one.
   */
  async setThroughOwner(key: string, value: string, signal: AbortSignal = new AbortController().signal): Promise<Output[] | undefined> {
    const owner = this.settingOwner(key);
    if (!owner) return undefined;
    if (!this.setters.has(key)) await this.ensureActive(owner).catch(() => undefined);
    const setter = this.setters.get(key);
    if (!setter) return undefined;
    const spec = { id: `set.${key}`, words: ['set'], group: 'general' } as CommandContext['spec'];
    const outputs = asOutputs(await setter(value, this.commandContext(owner, spec, { key, value }, `:set ${key} ${value}`, signal)));
    return this.inLanguage(outputs);
  }

  private async runCommand(
    parsed: Extract<ParsedLine, { kind: 'command' }>,
    signal: AbortSignal,
    remember: boolean,
  ): Promise<RunResult> {
    const t = this.t('shell');
    const resolution = this.registry.resolve(parsed.tokens);
    if (resolution.kind === 'unknown') return { outputs: unknownCommandSaid(this.registry, parsed.tokens, this.env, t), parsed, remember };
    const { command, argTokens } = resolution;
    const { spec, pluginId } = command;
    // Messages in the interface's language: the shell's own among the errors (offline, a bare
    // status) by their key, the catalogues' (a plugin's, its server's, the core's) by their code.
    // A command that changed the language (`:lang use`, a login) answers in the new one.
    const done = async (outputs: Output[]) => {
      await this.options.languageReady?.();
      return { outputs: await this.inLanguage(outputs), parsed, command, remember };
    };

    if (spec.needs?.includes('server') && this.options.online && !this.options.online()) {
      return done([error(t('msg.notAvailableOffline', { cmd: `:${spec.words[0]}` }))]);
    }
    if (spec.needs?.includes('login') && !this.identity().loggedIn) return done([error(t('msg.pleaseLogin'))]);

    const bound = bindArgs(spec, argTokens);
    if (!bound.ok) {
      if (bound.error === 'quote') return done([error(t(`quote.${bound.quote}`))]);
      const family = argTokens.length > (spec.args?.length ?? 0) && spec.words.length === 1
        ? this.registry.family(spec.words[0]!).map((c) => c.spec)
        : [spec];
      return done([error(formatUsage(t, family.map(usageOf)))]);
    }

    try {
      await this.ensureActive(pluginId);
      const handler = this.handlers.get(spec.id);
      if (!handler) return done([error(t('msg.unknownCommand'))]);
      const result = await handler(this.commandContext(pluginId, spec, bound.args, parsed.line, signal));
      return done(asOutputs(result));
    } catch (err) {
      // A failing plugin must not take the shell down; say what failed and keep the input.
      return done([error(failureSaid(err, spec.words[0]!, Boolean(this.options.online && !this.options.online()), t))]);
    }
  }
}

const asOutputs = (result: Output | Output[] | void): Output[] => (result === undefined ? [] : Array.isArray(result) ? result : [result]);
