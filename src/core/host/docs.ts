// The documentation page's content, assembled from every manifest's contributions (and the
// command reference from the commands themselves), in the spec's section order.
import type { DocsContribution, PluginEntry } from '../contract.ts';

export const DOC_SECTIONS = [
  'introduction',
  'quick-start',
  'features',
  'commands',
  'functions',
  'shortcuts',
  'api',
  'faqs',
  'feedback',
] as const;
export type DocSection = (typeof DOC_SECTIONS)[number];

/** Each contributed item keeps the namespace its i18n keys live in. */
export type Contributed<K extends keyof DocsContribution> = NonNullable<DocsContribution[K]>[number] & { ns: string };

/** Each plugin's documentation: a manifest with inline docs, or what its docs loader returned. */
export interface DocsSource {
  id: string;
  docs?: DocsContribution;
}

export function collectDocs<K extends keyof DocsContribution>(
  manifests: readonly DocsSource[],
  kind: K,
): Contributed<K>[] {
  const items = manifests.flatMap((m) =>
    ((m.docs?.[kind] ?? []) as NonNullable<DocsContribution[K]>[number][]).map((item) => {
      const base: object = typeof item === 'string' ? { key: item } : (item as object);
      return { ...base, ns: m.id } as Contributed<K>;
    }),
  );
  return items.sort((a, b) => ((a as { order?: number }).order ?? 0) - ((b as { order?: number }).order ?? 0));
}

/** Every plugin's documentation: its docs.ts (loaded now) and what it adds at run time (ctx.docs), each list after the other. */
export function loadDocsSources(entries: readonly PluginEntry[], live: ReadonlyMap<string, () => Promise<DocsContribution>>): Promise<DocsSource[]> {
  return Promise.all(
    entries.map(async (e) => {
      const docs = e.docs ? await e.docs().catch(() => e.manifest.docs) : e.manifest.docs;
      const added = await live.get(e.manifest.id)?.().catch(() => undefined);
      if (!added) return { id: e.manifest.id, docs };
      const merged: Record<string, unknown[]> = { ...(docs as Record<string, unknown[]>) };
      for (const [kind, items] of Object.entries(added)) merged[kind] = [...(merged[kind] ?? []), ...(items as unknown[])];
      return { id: e.manifest.id, docs: merged as DocsContribution };
    }),
  );
}
