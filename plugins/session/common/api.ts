// The shapes of the session and log API (plugins/session/server) as the client reads them.

/** A log as the API shows it: never its owner's ids. */
export interface PublicLog {
  session: number;
  time: number;
  model: string;
  input: string;
  output: string;
  images: string[];
}

/** GET /api/session/{id}, and the session GET /api/session/{prev|next} finds. */
export interface SessionDetail {
  id: number;
  /** The session this one branched from, and the time of the log it branched at. */
  parent: number | null;
  branch_time: number | null;
  created_at: number;
  updated_at: number;
  shared: boolean;
  /** The owner's username: shown to the owner and root only ('' for an anonymous owner). */
  creator?: string;
  /** Number of logs of the session itself (not counting inherited ones). */
  length: number;
  /** Time of its latest log, or null when it has none. */
  time: number | null;
  /** Its logs, oldest first (at most SESSION_LOGS_MAX). */
  logs: PublicLog[];
}

/** A row of GET /api/session/list and /api/session/list/{user}. */
export interface SessionSummary {
  id: number;
  /** The owner's username, '' for an anonymous owner. */
  user: string;
  /** The first input of the session, cut at SUMMARY_INPUT_LENGTH characters. */
  input: string;
  length: number;
  created_at: number;
}

export const SESSION_LIST_MAX = 35;
export const SESSION_LOGS_MAX = 1000;
export const LOG_LIST_MAX = 50;
export const SUMMARY_INPUT_LENGTH = 50;
