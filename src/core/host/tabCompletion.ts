// Tab completion (spec part 2): command words first, then the argument under the cursor from
// the completion source its ArgSpec declares. Static sources live here; plugins serve others.
import { FULLSCREEN_MODES, THEMES } from '../constants.ts';
import type { ArgSpec, CompletionProvider } from '../contract.ts';
import { LANGUAGE_CODES } from '../languages.ts';
import { spellings, type CommandRegistry } from '../registry.ts';
import { isSeparator, tokenize } from '../tokenize.ts';

export interface Completion {
  /** The line up to where the completed token starts. */
  base: string;
  /** Full replacements for the token being completed, in order. */
  candidates: string[];
}

export interface CompletionSources {
  /** Settable setting keys, for `:set`. */
  settingKeys: () => string[];
  /** A plugin-served source (voices, roles, stores...), activating the plugin when needed. */
  provider: (source: string, pluginId: string) => Promise<CompletionProvider | undefined>;
}

const STATIC_SOURCES: Record<string, readonly string[]> = {
  theme: THEMES,
  fullscreen: FULLSCREEN_MODES,
  lang: LANGUAGE_CODES,
};

function matching(values: readonly string[], prefix: string): string[] {
  const lower = prefix.toLowerCase();
  return values.filter((v) => v.toLowerCase().startsWith(lower));
}

async function argumentCandidates(
  arg: ArgSpec,
  prefix: string,
  pluginId: string,
  registry: CommandRegistry,
  sources: CompletionSources,
): Promise<string[]> {
  prefix = prefix.replace(/^["\u201C]/, '');
  if (arg.values) return matching(arg.values, prefix);
  const source = arg.complete;
  if (!source) return [];
  let values: string[];
  if (source === 'command') {
    values = [...new Set(registry.commands.filter((c) => !c.spec.hidden).map((c) => c.spec.words.join(' ')))];
  } else if (source === 'settingKey') {
    values = sources.settingKeys();
  } else if (STATIC_SOURCES[source]) {
    values = [...STATIC_SOURCES[source]];
  } else {
    const provider = await sources.provider(source, pluginId);
    values = provider ? await provider(prefix) : [];
  }
  const found = matching(values, prefix);
  return arg.quoted ? found.map((v) => `"${v}"`) : found;
}

export async function completeLine(
  line: string,
  registry: CommandRegistry,
  sources: CompletionSources,
): Promise<Completion> {
  const none = { base: line, candidates: [] };
  if (!line.startsWith(':')) return none;
  const body = line.slice(1);
  const tokens = tokenize(body);
  const endsWithSeparator = body.length === 0 || isSeparator(body[body.length - 1]!);
  const partial = endsWithSeparator ? undefined : tokens[tokens.length - 1];
  const done = partial ? tokens.slice(0, -1) : tokens;
  const prefix = partial ? partial.value : '';
  const base = partial ? line.slice(0, 1 + partial.start) : line;

  // Command words: every spelling that extends the words typed so far.
  const wordCandidates = new Set<string>();
  for (const command of registry.commands) {
    if (command.spec.hidden) continue;
    for (const words of spellings(command.spec)) {
      if (words.length <= done.length) continue;
      if (!done.every((t, i) => !t.quoted && t.value.toLowerCase() === words[i])) continue;
      const next = words[done.length]!;
      if (next.startsWith(prefix.toLowerCase())) wordCandidates.add(next);
    }
  }

  // Arguments of the longest command that the finished tokens already name.
  const resolution = registry.resolve(done);
  let argCandidates: string[] = [];
  if (resolution.kind === 'found') {
    const args = resolution.command.spec.args ?? [];
    const index = resolution.argTokens.length;
    const restArg = args.find((a) => a.rest);
    const arg = args[index] ?? restArg;
    if (arg) argCandidates = await argumentCandidates(arg, prefix, resolution.command.pluginId, registry, sources);
  }
  const candidates = [...new Set([...wordCandidates, ...argCandidates])];
  return { base, candidates };
}
