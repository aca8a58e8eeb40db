// After a reload of the tab (or a tab the browser restores): the markers its input held, put
// back only where the plugin that declares them (its manifest's `markers`) says they still hold:
// a question sent as the tab was left may have taken them. With the host, not the first paint.
import type { PluginManifest } from './contract.ts';

/** The markers the tab held, as AttachedMarkers.held gives them (at most 20; what is not one is left out). */
export function held(text: string | null | undefined): string[] {
  try {
    const value: unknown = JSON.parse(text || '[]');
    return Array.isArray(value) ? value.filter((m): m is string => typeof m === 'string').slice(0, 20) : [];
  } catch {
    return [];
  }
}

/** Those of the markers held (`text`) that the plugins declaring them, asked through `check`, say still hold. */
export async function stillHeld(text: string | null | undefined, manifests: readonly PluginManifest[], check: (plugin: string, markers: string[]) => Promise<string[]>): Promise<string[]> {
  const markers = held(text);
  const good = await Promise.all(
    manifests.map((m) => {
      const theirs = markers.filter((marker) => m.markers?.some((prefix) => marker.startsWith(prefix)));
      return theirs.length ? check(m.id, theirs) : [];
    }),
  );
  return markers.filter((m) => good.flat().includes(m));
}
