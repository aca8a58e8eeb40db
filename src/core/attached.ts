// The markers `attach` effects put into the input (output.ts). A command cannot be typed around
// a marker, so a marker deleted to type one (`:login` after `:web open 2`) comes back after it;
// a question takes the markers it carries, and the ones deleted before it are gone for good.
/** The tab's storage (sessionStorage) as the markers use it. */
export type TabStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

const KEPT = 'shellchat.attached';
/** The markers the input holds now, for a reload of the tab (or a tab the browser restores). */
const HELD = 'shellchat.attached.held';
const MAX = 20;

/** sessionStorage where there is one (reading it can throw where storage is refused). */
export function tabStorage(): TabStorage | undefined {
  try {
    return globalThis.sessionStorage;
  } catch {
    return undefined;
  }
}

/** A marker, and the plugin that tells after a reload whether it still holds (PluginContext.attached). */
export interface Attached {
  marker: string;
  plugin?: string;
}

/** Stored markers (strings as `keep` wrote them before, or entries), at most MAX. */
function parsed(kept: string | null | undefined): Attached[] {
  if (!kept) return [];
  const value: unknown = JSON.parse(kept);
  if (!Array.isArray(value)) return [];
  return value
    .map((m: unknown): Attached | undefined => {
      if (typeof m === 'string') return { marker: m };
      const { marker, plugin } = (m ?? {}) as Record<string, unknown>;
      return typeof marker === 'string' ? { marker, ...(typeof plugin === 'string' ? { plugin } : {}) } : undefined;
    })
    .filter((m): m is Attached => m !== undefined)
    .slice(0, MAX);
}

export class AttachedMarkers {
  private markers: Attached[] = [];

  private readonly tab: TabStorage | undefined;

  /** `tab`: where the markers held are written at each change, for a reload to find. */
  constructor(tab?: TabStorage) {
    this.tab = tab;
  }

  /**
   * Kept in the tab while the page is left for another (a sign-on at a provider), so that they
   * come back when it returns, as they do after a command that stays on the page.
   */
  keep(tab: TabStorage | undefined): void {
    try {
      if (this.markers.length) tab?.setItem(KEPT, JSON.stringify(this.markers));
    } catch {
      // Storage full or refused: the markers are lost as before, nothing else.
    }
  }

  /** What `keep` left in the tab, taken once (a later reload finds nothing). */
  static taken(tab: TabStorage | undefined): Attached[] {
    try {
      const kept = tab?.getItem(KEPT);
      if (kept) tab!.removeItem(KEPT);
      return parsed(kept);
    } catch {
      return [];
    }
  }

  /**
   * The markers the input held when the tab was last left without `keep` (a reload): to be
   * checked by their plugins before they go back, since a question sent as the tab was left
   * may have taken them.
   */
  static held(tab: TabStorage | undefined): Attached[] {
    try {
      return parsed(tab?.getItem(HELD));
    } catch {
      return [];
    }
  }

  add(marker: string, plugin?: string): void {
    if (this.markers.some((m) => m.marker === marker)) return;
    this.markers.push({ marker, ...(plugin ? { plugin } : {}) });
    this.hold();
  }

  private hold(): void {
    try {
      const checked = this.markers.filter((m) => m.plugin);
      if (checked.length) this.tab?.setItem(HELD, JSON.stringify(checked));
      else this.tab?.removeItem(HELD);
    } catch {
      // Storage full or refused: a reload loses the markers, nothing else.
    }
  }

  /** After a line ran: the markers to put back into the input (none once a question was sent). */
  after(line: string, question: boolean): string[] {
    if (question) {
      this.markers = [];
      this.hold();
    }
    return this.markers.map((m) => m.marker).filter((m) => !line.includes(m));
  }

  /** `input` with `markers` added at its end, each once, a space between. */
  static into(input: string, markers: readonly string[]): string {
    const missing = markers.filter((m) => !input.includes(m));
    if (!missing.length) return input;
    const head = input.trimEnd();
    return `${head}${head ? ' ' : ''}${missing.join(' ')} `;
  }
}

/**
 * After a reload: the markers the input held (`held`) that their plugins, asked through
 * `check` (the host's stillAttached), say still hold; the host is loaded only when there are some.
 */
export async function stillHeld(tab: TabStorage | undefined, check: (plugin: string, markers: string[]) => Promise<string[]>): Promise<Attached[]> {
  const held = AttachedMarkers.held(tab).filter((m) => m.plugin);
  const plugins = [...new Set(held.map((m) => m.plugin!))];
  const good = (await Promise.all(plugins.map((p) => check(p, held.filter((m) => m.plugin === p).map((m) => m.marker))))).flat();
  return held.filter((m) => good.includes(m.marker));
}
