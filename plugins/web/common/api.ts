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
  pending: boolean;
  created_at: number;
}

export const QUERY_MAX = 400;
export const URL_MAX = 2048;
/** Reads `:web` lists. */
export const READS_LISTED = 20;
