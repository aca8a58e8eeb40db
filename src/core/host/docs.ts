// The documentation page's content, assembled from every manifest's contributions (and the
// command reference from the commands themselves), in the spec's section order.
import type { DocsContribution } from '../contract.ts';

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
