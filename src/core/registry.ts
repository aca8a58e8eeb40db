// The command registry: every command of every installed manifest, resolved by the longest
// run of leading words, with usage lines generated from the argument specs.
import type { ArgSpec, CommandContext, CommandSpec, Env, PluginManifest, QuoteKind, Translate } from './contract.ts';
import type { Token } from './tokenize.ts';

export interface RegisteredCommand {
  pluginId: string;
  spec: CommandSpec;
}

export type Resolution =
  | { kind: 'found'; command: RegisteredCommand; argTokens: Token[] }
  | { kind: 'unknown' };

export type BindResult =
  | { ok: true; args: Record<string, string | undefined> }
  | { ok: false; error: 'usage' }
  | { ok: false; error: 'quote'; quote: QuoteKind };

export function spellings(spec: CommandSpec): (readonly string[])[] {
  return [spec.words, ...(spec.aliases ?? [])];
}

export function availableIn(spec: CommandSpec, env: Env): boolean {
  return !spec.envs || spec.envs.includes(env);
}

export function formatArg(arg: ArgSpec): string {
  if (arg.display) return arg.display;
  const inner = arg.values ? arg.values.join('|') : `<${arg.name}>${arg.rest ? '...' : ''}`;
  const quoted = arg.quoted && !arg.values ? `"${inner}"` : inner;
  if (arg.values) return arg.optional ? `[${quoted}]` : `{${quoted}}`;
  return arg.optional ? `[${quoted}]` : quoted;
}

/** `:lang use <code>`, `:stats {on|off}`, `:role use "<name>"`, `:fullscreen [off|default|split]`. */
export function usageOf(spec: CommandSpec): string {
  const args = (spec.args ?? []).map(formatArg);
  return [`:${spec.words.join(' ')}`, ...args].join(' ');
}

/** The usage line of a manifest's command, by id: for a message that names the command's syntax. */
export function usageOfCommand(manifest: PluginManifest, id: string): string {
  const spec = manifest.commands?.find((c) => c.id === id);
  if (!spec) throw new Error(`${manifest.id} has no command ${id}`);
  return usageOf(spec);
}

/** A help group as a manifest declares it, with the plugin whose locale files title it. */
export interface DeclaredHelpGroup {
  id: string;
  order: number;
  pluginId: string;
}

/** The declared help groups in `:help`'s order; an id declared twice keeps its first declaration. */
export function helpGroupsOf(manifests: readonly PluginManifest[]): DeclaredHelpGroup[] {
  const byId = new Map<string, DeclaredHelpGroup>();
  for (const m of manifests) for (const g of m.helpGroups ?? []) if (!byId.has(g.id)) byId.set(g.id, { ...g, pluginId: m.id });
  return [...byId.values()].sort((a, b) => a.order - b.order);
}

export class CommandRegistry {
  readonly commands: RegisteredCommand[];
  /** Commands of the installed plugins that run in another environment (theme in the CLI). */
  readonly elsewhere: RegisteredCommand[];
  readonly env: Env;
  /** The help groups the manifests declare, in help's order. */
  readonly helpGroups: DeclaredHelpGroup[];

  constructor(manifests: readonly PluginManifest[], env: Env) {
    this.env = env;
    this.helpGroups = helpGroupsOf(manifests);
    const all = manifests.flatMap((m) => (m.commands ?? []).map((spec) => ({ pluginId: m.id, spec })));
    this.commands = all.filter((c) => availableIn(c.spec, env));
    this.elsewhere = all.filter((c) => !availableIn(c.spec, env));
  }

  byId(id: string): RegisteredCommand | undefined {
    return this.commands.find((c) => c.spec.id === id);
  }

  /** Commands sharing a first word: the family shown when a root gets words it does not take. */
  family(root: string): RegisteredCommand[] {
    const lower = root.toLowerCase();
    return this.commands.filter((c) => c.spec.words[0] === lower && !c.spec.hidden);
  }

  /** Longest match of leading unquoted tokens against each command's words and aliases. */
  resolve(tokens: readonly Token[], among: readonly RegisteredCommand[] = this.commands): Resolution {
    let best: { command: RegisteredCommand; length: number } | undefined;
    for (const command of among) {
      for (const words of spellings(command.spec)) {
        if (words.length > tokens.length) continue;
        const matches = words.every((w, i) => !tokens[i]!.quoted && tokens[i]!.value.toLowerCase() === w);
        if (matches && (!best || words.length > best.length)) best = { command, length: words.length };
      }
    }
    if (!best) return { kind: 'unknown' };
    return { kind: 'found', command: best.command, argTokens: tokens.slice(best.length) };
  }
}

/** Binds tokens to argument specs: missing, extra or off-list words give the usage line. */
export function bindArgs(spec: CommandSpec, tokens: readonly Token[]): BindResult {
  const args: Record<string, string | undefined> = {};
  const specs = spec.args ?? [];
  let i = 0;
  for (const arg of specs) {
    const token = tokens[i];
    if (!token) {
      if (arg.optional) continue;
      return { ok: false, error: 'usage' };
    }
    if (arg.values) {
      const match = arg.values.find((v) => v === token.value.toLowerCase());
      if (match === undefined || token.quoted) {
        if (arg.optional && specs.indexOf(arg) < specs.length - 1) continue;
        return { ok: false, error: 'usage' };
      }
      args[arg.name] = match;
    } else if (arg.rest) {
      const restTokens = tokens.slice(i);
      if (arg.quoted && restTokens.some((t) => !t.quoted)) return { ok: false, error: 'quote', quote: arg.quoted };
      args[arg.name] = restTokens.map((t) => t.value).join(' ');
      i = tokens.length;
      continue;
    } else {
      if (arg.quoted && !token.quoted) return { ok: false, error: 'quote', quote: arg.quoted };
      args[arg.name] = token.value;
    }
    i++;
  }
  if (i < tokens.length) return { ok: false, error: 'usage' };
  return { ok: true, args };
}

/** 'Usage:' (in the interface's language) and a command's usage lines, aligned under it. */
export function formatUsage(t: Translate, usages: string[]): string {
  const label = t('msg.usage');
  const pad = ' '.repeat(label.length + 1);
  return usages.map((u, i) => (i === 0 ? `${label} ${u}` : `${pad}${u}`)).join('\n');
}

/** What a handler says of words it cannot use: the line the shell gives when they do not bind. */
export function usageSaid(c: Pick<CommandContext, 'spec' | 'tFor'>): string {
  return formatUsage(c.tFor('shell'), [usageOf(c.spec)]);
}
