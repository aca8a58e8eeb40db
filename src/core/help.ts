// `:help` and the documentation's command reference, generated from the manifests.
import type { CommandSpec, Translate } from './contract.ts';
import type { Output } from './output.ts';
import { spellings, usageOf, type CommandRegistry, type DeclaredHelpGroup, type RegisteredCommand } from './registry.ts';

export interface HelpEntry {
  usage: string;
  summary: string;
  aliases: string[];
  command: RegisteredCommand;
}

export function summaryKey(spec: CommandSpec): string {
  return `cmd.${spec.id}.summary`;
}

export function detailsKey(spec: CommandSpec): string {
  return `cmd.${spec.id}.details`;
}

/** The commands help describes: this environment's, and the terminal client's own everywhere (a browser user learns of them). */
const described = (registry: CommandRegistry) => [...registry.commands, ...registry.elsewhere.filter((c) => c.spec.group === 'cli')];

/** Each group's commands, the declared groups in their order (a group no installed plugin declares comes last). */
export function helpEntries(registry: CommandRegistry, tFor: (ns: string) => Translate): Map<string, HelpEntry[]> {
  const groups = new Map<string, HelpEntry[]>();
  for (const group of registry.helpGroups) groups.set(group.id, []);
  for (const command of described(registry)) {
    if (command.spec.hidden) continue;
    const t = tFor(command.pluginId);
    if (!groups.has(command.spec.group)) groups.set(command.spec.group, []);
    groups.get(command.spec.group)!.push({
      usage: usageOf(command.spec),
      summary: t(summaryKey(command.spec)),
      aliases: (command.spec.aliases ?? []).map((a) => `:${a.join(' ')}`),
      command,
    });
  }
  return groups;
}

/** A help group's title, from the locale files of the plugin that declares it (else its id). */
export function helpGroupTitle(groups: readonly DeclaredHelpGroup[], tFor: (ns: string) => Translate, id: string): string {
  const declared = groups.find((g) => g.id === id);
  return declared ? tFor(declared.pluginId)(`help.group.${id}`) : id;
}

/** The overview: one table per non-empty group, in the declared groups' order. */
export function helpOverview(registry: CommandRegistry, tFor: (ns: string) => Translate): Output[] {
  const t = tFor('shell');
  const outputs: Output[] = [];
  for (const [group, entries] of helpEntries(registry, tFor)) {
    if (!entries.length) continue;
    outputs.push({
      kind: 'table',
      title: helpGroupTitle(registry.helpGroups, tFor, group),
      columns: [t('help.column.usage'), t('help.column.summary')],
      rows: entries.map((e) => [e.usage, e.summary]),
    });
  }
  return outputs;
}

/** `:help lang` or `:help lang use`: every command whose words start with the query. */
export function helpFor(
  registry: CommandRegistry,
  tFor: (ns: string) => Translate,
  query: string,
): Output[] | undefined {
  const words = query.toLowerCase().replace(/^:/, '').split(/[\s,]+/).filter(Boolean);
  const matches = described(registry).filter(
    (c) => !c.spec.hidden && spellings(c.spec).some((s) => words.every((w, i) => s[i] === w)),
  );
  if (!matches.length) return undefined;
  const t = tFor('shell');
  return matches.map((c) => {
    const pt = tFor(c.pluginId);
    const lines = [usageOf(c.spec), pt(summaryKey(c.spec))];
    const details = pt(detailsKey(c.spec));
    if (details && details !== detailsKey(c.spec)) lines.push(details);
    const aliases = (c.spec.aliases ?? []).map((a) => `:${a.join(' ')}`);
    if (aliases.length) lines.push(`${t('help.aliases')} ${aliases.join(', ')}`);
    if (c.spec.needs?.includes('login')) lines.push(t('help.needsLogin'));
    return { kind: 'text', text: lines.join('\n') } satisfies Output;
  });
}
