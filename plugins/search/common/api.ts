// The shapes and bounds of the log search API (plugins/search/server) as the client reads them.

/** Characters of a `:search` text the server takes; longer is refused (400). */
export const SEARCH_TEXT_MAX = 200;
/** Words of a search used at most (the rest are ignored): each one is an index lookup. */
export const SEARCH_TERMS_MAX = 8;
/** Results of one search at most, best first. */
export const SEARCH_RESULTS_MAX = 20;

/** A found log: where it is, and a snippet of it with the matched words' ranges. */
export interface LogMatch {
  session: number;
  time: number;
  /** The session's first question, shortened: what names a session in lists. */
  title: string;
  /** Whether the snippet is of the question or the answer. */
  field: 'input' | 'output';
  /** Plain text (never markup): the words matched are `marks`, [start, end) offsets into it. */
  snippet: string;
  marks: [number, number][];
}

/** A log opened from a result. */
export interface OpenedLog {
  session: number;
  time: number;
  model: string;
  input: string;
  output: string;
  images: string[];
  /** The session's newest log time: where a new question in it goes on from. */
  head: number;
}
