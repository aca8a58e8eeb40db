// What the web routes answer (shared by the server, the browser and the terminal client).

/** One search result: its number in the list, and plain text only. */
export interface SearchResult {
  n: number;
  title: string;
  url: string;
  /** The host name, without www. */
  site: string;
  snippet: string;
}

/** A page read: what the next question gets (`pending`) or what a question already used. */
export interface PageRead {
  title: string;
  url: string;
  /** Characters of text kept for the model. */
  chars: number;
  /** What was cut, in words ('' when nothing was). */
  cut: string;
  /** The same, each cut as a code a person reads in their language (`:web open`'s answer). */
  cuts?: Cut[];
  pending: boolean;
  created_at: number;
}

/** Why a page's text is not all of it: the bytes cap, the time cap, the HTML parsed, the characters kept. */
export type Cut = { why: 'bytes'; max: number } | { why: 'time' } | { why: 'html'; chars: number } | { why: 'chars'; past: number; max: number };

const n = (x: number) => x.toLocaleString('en-US');

/** A cut in English words, as the model reads it (and as `cut` holds it). */
export function cutWords(cut: Cut): string {
  switch (cut.why) {
    case 'bytes':
      return `the page is longer than ${n(cut.max)} bytes; only that much was read`;
    case 'time':
      return 'the page took too long to arrive; only its beginning was read';
    case 'html':
      return `only the first ${n(cut.chars)} characters of its HTML were read for text`;
    case 'chars':
      return `${n(cut.past)} characters past ${n(cut.max)}`;
  }
}

export const QUERY_MAX = 400;
export const URL_MAX = 2048;
/** Reads `:web` lists. */
export const READS_LISTED = 20;
