// The markers `attach` effects put into the input (output.ts). A command cannot be typed around
// a marker, so a marker deleted to type one (`:login` after `:web open 2`) comes back after it;
// a question takes the markers it carries, and the ones deleted before it are gone for good.
/** The tab's storage (sessionStorage) as the markers use it. */
export type TabStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

const KEPT = 'shellchat.attached';

/** sessionStorage where there is one (reading it can throw where storage is refused). */
export function tabStorage(): TabStorage | undefined {
  try {
    return globalThis.sessionStorage;
  } catch {
    return undefined;
  }
}

export class AttachedMarkers {
  private markers: string[] = [];

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
  static taken(tab: TabStorage | undefined): string[] {
    try {
      const kept = tab?.getItem(KEPT);
      if (!kept) return [];
      tab!.removeItem(KEPT);
      const markers: unknown = JSON.parse(kept);
      return Array.isArray(markers) ? markers.filter((m): m is string => typeof m === 'string').slice(0, 20) : [];
    } catch {
      return [];
    }
  }

  add(marker: string): void {
    if (!this.markers.includes(marker)) this.markers.push(marker);
  }

  /** After a line ran: the markers to put back into the input (none once a question was sent). */
  after(line: string, question: boolean): string[] {
    if (question) this.markers = [];
    return this.markers.filter((m) => !line.includes(m));
  }

  /** `input` with `markers` added at its end, each once, a space between. */
  static into(input: string, markers: readonly string[]): string {
    const missing = markers.filter((m) => !input.includes(m));
    if (!missing.length) return input;
    const head = input.trimEnd();
    return `${head}${head ? ' ' : ''}${missing.join(' ')} `;
  }
}
