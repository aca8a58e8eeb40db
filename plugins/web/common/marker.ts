// The marker of a page read for the next question, `+page[url]`: `:web open` puts it into the
// input as an attached file's marker is; the question that carries it gets that page, and one
// sent without it (deleted) does not. A bracket of the URL (an IPv6 host's) is percent-encoded.

/** Markers of one question that count (more would be more pages than a question is given). */
export const MARKERS_MAX = 20;

const MARKER = /\+page\[([^\]\s]{1,2048})\]/g;

const inMarker = (url: string) => url.replace(/\[/g, '%5B').replace(/\]/g, '%5D');

export const pageMarker = (url: string): string => `+page[${inMarker(url)}]`;

/** The URLs a question's markers name, each once, in their order, at most MARKERS_MAX. */
export function markedUrls(input: string): string[] {
  const urls: string[] = [];
  for (const m of input.matchAll(MARKER)) {
    if (!urls.includes(m[1]!)) urls.push(m[1]!);
    if (urls.length >= MARKERS_MAX) break;
  }
  return urls;
}

/** Whether a stored read is the one a marker names. */
export const named = (url: string, marked: readonly string[]): boolean => marked.includes(inMarker(url));
