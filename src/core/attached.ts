// The markers `attach` effects put into the input (output.ts). A command cannot be typed around
// a marker, so a marker deleted to type one (`:login` after `:web open 2`) comes back after it;
// a question takes the markers it carries, and the ones deleted before it are gone for good.
// The tab holds the input's markers at each change: after a reload, or back from a page left for
// a sign-on, they go back once the plugins that declare them say they still hold (heldMarkers.ts,
// with the host: not the first paint), as a question sent as the tab was left may have taken them.
/** The tab's storage (sessionStorage) as the markers use it. */
export type TabStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

const HELD = 'shellchat.attached';

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
  readonly tab: TabStorage | undefined;

  /** `tab`: where the input's markers are held at each change, for a reload. */
  constructor(tab?: TabStorage) {
    this.tab = tab;
  }

  /** The markers the input held before a reload, as the tab keeps them (heldMarkers.ts reads them). */
  held(): string | null | undefined {
    return this.tab?.getItem(HELD);
  }

  add(marker: string): void {
    if (this.markers.includes(marker)) return;
    this.markers.push(marker);
    this.store();
  }

  /** The markers into the tab at each change: a reload, or a page left for a sign-on and come back to, finds them. */
  private store(): void {
    try {
      this.tab?.setItem(HELD, JSON.stringify(this.markers));
    } catch {
      // Storage full or refused: the markers are lost as before, nothing else.
    }
  }

  /** After a line ran: the markers to put back into the input (none once a question was sent). */
  after(line: string, question: boolean): string[] {
    if (question) {
      this.markers = [];
      this.store();
    }
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
