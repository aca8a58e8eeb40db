// The plugin contract (DESIGN.md §2). A plugin is a manifest of plain data plus, per
// environment, a module whose `activate` attaches handlers to the commands the manifest
// declares. Help, usage lines, completion, the documentation's command reference, the
// Settings page and `:set` validation are all derived from manifests.
import type { Output } from './output.ts';
import type { ServiceRef } from './services.ts';
import type { BackPage } from './output.ts';
import type { ToolSpec } from './functions.ts';
import type { SettingSpec, SettingsStore } from './settings.ts';
import type { ShellEvents } from './events.ts';
import type { Emitter } from 'mitt';

/** Bump on a breaking change; the host refuses plugins built against another version. */
export const PLUGIN_API = 1;

export type Env = 'browser' | 'cli' | 'server';

/** Which "must be quoted with double quotes" message of spec part 5 an argument uses. */
export type QuoteKind =
  | 'roleName'
  | 'prompt'
  | 'storeName'
  | 'settingValue'
  | 'word'
  | 'searchText'
  | 'name'
  | 'voiceName'
  | 'command';

/** Completion sources. Static ones are served by the core; others by a plugin's provider. */
export type CompletionSource = string;

export interface ArgSpec {
  /** Shown in usage lines as `<name>`, and the key of the bound value. */
  name: string;
  /** The value must be written in double quotes; the message names this kind. */
  quoted?: QuoteKind;
  optional?: boolean;
  /** A closed set of words; usage shows `[a|b]` and other words give the usage line. */
  values?: readonly string[];
  /** Masked while typed, never kept in history or logs. */
  secret?: boolean;
  /** Where Tab completion finds candidates (a source name, or `values`). */
  complete?: CompletionSource;
  /** Takes every remaining word (joined by single spaces). Only for the last argument. */
  rest?: boolean;
  /** How the usage line shows the argument, when `<name>` says too little (e.g. `[--save|-s [Nh|Nd]]`). */
  display?: string;
}

/** What a command needs before it may run; checked before its plugin code loads. */
export type CommandNeed = 'login' | 'server';

export interface CommandSpec {
  /** Stable forever: `<pluginId>.<verb>`, e.g. `lang.use`. */
  id: string;
  /** The words typed after the colon, e.g. ['lang', 'use']. */
  words: readonly string[];
  /** Other spellings, e.g. [['lang', 'list']] or the single-letter [['h']]. */
  aliases?: readonly (readonly string[])[];
  args?: readonly ArgSpec[];
  /** The help group it is listed in: declared by a manifest's `helpGroups` (its own or another plugin's). */
  group: string;
  /** 'server': refused offline; 'login': refused to anonymous visitors ('Please login.'). */
  needs?: readonly CommandNeed[];
  /** Environments where the command exists; all when absent. */
  envs?: readonly Env[];
  /** Left out of help and completion (kept for old spellings). */
  hidden?: boolean;
}

/** Documentation contributions; text is i18n keys in the plugin's namespace. */
export interface DocsContribution {
  introduction?: string[];
  quickStart?: { key: string; order: number }[];
  /** `vars`: values the text names that are known only at run time (what the server has configured). */
  features?: { key: string; order: number; more?: boolean; vars?: Record<string, string> }[];
  functions?: { name: string; params: string; key: string }[];
  shortcuts?: { keys: string; key: string }[];
  gestures?: { gesture: string; key: string }[];
  faqs?: { question: string; answer: string }[];
  feedback?: { label: string; href: string }[];
}

/** Mounts a plugin's page into `element`; returns what unmounts it. */
export type PageMount = (element: HTMLElement, options: { focus?: string }) => () => void;

export interface HelpGroupSpec {
  id: string;
  order: number;
}

export interface PluginManifest {
  api: typeof PLUGIN_API;
  /** Singular, kebab-case; the i18n namespace. */
  id: string;
  version: string;
  commands?: readonly CommandSpec[];
  /**
   * Help groups this plugin declares (spec part 2): `order` places the group in `:help` and the
   * documentation; its title is `help.group.<id>` in the plugin's own locale files.
   */
  helpGroups?: readonly HelpGroupSpec[];
  settings?: readonly SettingSpec[];
  /** Documentation inline (third-party plugins); built-ins keep theirs in a lazy docs.ts. */
  docs?: DocsContribution;
  /** Back-view pages the plugin renders (ctx.page); the page is shown while the plugin is installed. */
  pages?: readonly BackPage[];
  /**
   * System functions this plugin's server adds as tools (ctx.generation.addTool): off until
   * `:function use <name>`, and listed with the function plugin's own.
   */
  functions?: readonly ToolSpec[];
  provides?: readonly ServiceRef<unknown>[];
  requires?: readonly ServiceRef<unknown>[];
  optional?: readonly ServiceRef<unknown>[];
  /** Activate at startup instead of on first use (for plugins that react to events). */
  activation?: 'startup' | 'onDemand';
  /**
   * How the markers its `attach` effects put into the input begin (`+page[`): after a reload,
   * its `attached` check says which of them still hold.
   */
  markers?: readonly string[];
}

export type Translate = (key: string, vars?: Record<string, unknown>) => string;

/** What the shell knows about the person at the keyboard. */
export interface Identity {
  loggedIn: boolean;
  username?: string;
}

export interface CommandContext {
  /** Bound argument values (quotes removed), keyed by ArgSpec.name. */
  args: Record<string, string | undefined>;
  /** The whole line as typed, after full-width folding. */
  line: string;
  spec: CommandSpec;
  env: Env;
  t: Translate;
  settings: SettingsStore;
  events: Emitter<ShellEvents>;
  identity: Identity;
  /** Read-only view of every installed manifest, for help and `:set`. */
  manifests: readonly PluginManifest[];
  services: ServiceAccess;
  signal: AbortSignal;
  /** Translators of other namespaces, for help and documentation that span plugins. */
  tFor(ns: string): Translate;
  loadNamespaces(ns: readonly string[]): Promise<void>;
  /**
   * Sets a setting through the plugin that declares it, when that plugin owns how it is set
   * (ctx.setter: `model` and `role` do what `:model use` and `:role use` do); undefined
   * when it has no setter and the value is set as it is.
   */
  setThroughOwner(key: string, value: string): Promise<Output[] | undefined>;
}

export type HandlerResult = Output | Output[] | void;
/** Choices for a setting on the Settings page, in titled groups (User models, System models...). */
export interface ChoiceGroup {
  title: string;
  values: string[];
  /** The value in use while the setting holds its default (the server's default model): shown as picked. */
  byDefault?: string;
}
export type ChoicesProvider = () => Promise<ChoiceGroup[]> | ChoiceGroup[];

/** How a plugin sets one of its settings from text (`:set`, the Settings page): with its own rules. */
export type SettingSetter = (value: string, ctx: CommandContext) => HandlerResult | Promise<HandlerResult>;
export type CommandHandler = (ctx: CommandContext) => HandlerResult | Promise<HandlerResult>;
export type CompletionProvider = (prefix: string) => string[] | Promise<string[]>;

export interface ServiceAccess {
  get<T>(ref: ServiceRef<T>): T;
  maybe<T>(ref: ServiceRef<T>): T | undefined;
}

export interface PluginContext {
  env: Env;
  manifest: PluginManifest;
  /** Every installed plugin's manifest (what each declares: its commands, settings, system functions). */
  manifests(): readonly PluginManifest[];
  t: Translate;
  settings: SettingsStore;
  events: Emitter<ShellEvents>;
  services: ServiceAccess & { provide<T>(ref: ServiceRef<T>, impl: T): void };
  /** Attaches the handler of a command this plugin's manifest declares. */
  handle(commandId: string, handler: CommandHandler): void;
  /** Serves a completion source while the plugin is active. */
  completion(source: CompletionSource, provider: CompletionProvider): void;
  /** Owns how a setting this plugin's manifest declares is set (checks, and what else it changes). */
  setter(key: string, setter: SettingSetter): void;
  /** Serves the Settings page's choices for a setting this plugin's manifest puts on it. */
  choices(key: string, provider: ChoicesProvider): void;
  /**
   * Renders a back-view page its manifest declares into the element the shell gives, with plain
   * DOM (plugins do not depend on the shell's React); returns what undoes it. `focus` is the
   * view effect's (e.g. the Subscriptions page's `plan:plus_user`).
   */
  page(page: BackPage, mount: PageMount): void;
  /** Documentation known only at run time, asked when the Documentation page opens (with docs.ts's). */
  docs(provider: () => Promise<DocsContribution>): void;
  /**
   * Tells which of the markers this plugin's `attach` effects put into the input (its manifest's
   * `markers`) still hold, when a reloaded tab would put them back (what they name may be gone).
   */
  attached(check: (markers: readonly string[]) => Promise<readonly string[]>): void;
  /** Runs when the plugin deactivates; everything registered through ctx is undone too. */
  onDispose(fn: () => void): void;
}

export interface PluginModule {
  activate(ctx: PluginContext): void | Promise<void>;
  deactivate?(): void | Promise<void>;
}

/** A plugin as the host sees it: eager manifest, lazy code. */
export interface PluginEntry {
  manifest: PluginManifest;
  load: () => Promise<PluginModule>;
  /** The documentation contributions, loaded with the Documentation page (built-ins: docs.ts). */
  docs?: () => Promise<DocsContribution>;
  /**
   * Strings of the plugin's namespace by language code, for plugins that carry their own
   * (third-party remotes). Built-in plugins keep theirs in `locales/<lang>/<id>.json`.
   */
  locales?: Record<string, Record<string, unknown>>;
}

export function definePlugin(manifest: PluginManifest): PluginManifest {
  return manifest;
}

export function definePluginModule(module: PluginModule): PluginModule {
  return module;
}
