// The markers `attach` effects put into the input (output.ts). A command cannot be typed around
// a marker, so a marker deleted to type one (`:login` after `:web open 2`) comes back after it;
// a question takes the markers it carries, and the ones deleted before it are gone for good.
export class AttachedMarkers {
  private markers: string[] = [];

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
