// The database tables, as Kysely types (type-only: nothing here runs). Migrations in
// src/server/db and in plugins' server code create them; every engine stores the same shapes:
// times are millisecond timestamps, booleans are 0/1 integers, JSON is text.
import type { ColumnType, Generated } from 'kysely';

export interface UsersTable {
  id: Generated<number>;
  /** Lower-case, Unix-like: a letter, then letters, digits, _ or -. */
  username: string;
  email: string;
  password_hash: string;
  role: string;
  role_expires_at: number | null;
  /** Unused since the ledger (the core's 0004_ledger): the balance is balance_cents. */
  balance: number;
  /** The sum of the user's balance_ledger rows, in whole cents. */
  balance_cents: number;
  /** JSON object of the synced settings (spec part 3, User). */
  settings: string;
  email_verified: number;
  email_subscription: number;
  created_at: number;
  updated_at: number;
}

/** Every change of a balance, in whole cents (src/server/accounts/ledger.ts). */
export interface BalanceLedgerTable {
  id: Generated<number>;
  user_id: number;
  cents: number;
  kind: string;
  /** Unique when set: a payment's capture, an invitation: credited once. */
  reference: string | null;
  created_at: number;
}

export interface GroupsTable {
  id: Generated<number>;
  /** A user's own group carries the username. */
  name: string;
  owner_id: number;
  created_at: number;
}

export interface GroupMembersTable {
  group_id: number;
  user_id: number;
  created_at: number;
}

export interface LoginTokensTable {
  /** SHA-256 of the opaque token; the token itself lives only in the browser's cookie. */
  token_hash: string;
  user_id: number;
  created_at: number;
  expires_at: number;
}

export interface EmailTokensTable {
  token_hash: string;
  user_id: number;
  kind: 'verify_email' | 'reset_password';
  new_email: string | null;
  expires_at: number;
  used_at: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface SessionsTable {
  /** The session id: a millisecond timestamp (spec part 3). */
  id: number;
  /** The session this one branched from, and the time of the log it branched at. */
  parent_id: number | null;
  branch_time: number | null;
  /** The owner: a user, or an anonymous browser's device id. */
  user_id: number | null;
  device_id: string | null;
  /** 1 once the owner shared it (the Ctrl/Cmd-click copy of its attach command). */
  shared: number;
  created_at: number;
  updated_at: number;
}

export interface LogsTable {
  id: Generated<number>;
  session: number;
  /** A millisecond timestamp, unique within the session: the log's place in time. */
  time: number;
  user_id: number | null;
  device_id: string | null;
  model: string;
  input: string;
  output: string;
  /** JSON list of image URLs (input images and generated ones). */
  images: string;
  /** JSON list of the tool calls of this turn: {id, name, args, result}. */
  tools: string;
  input_tokens: number;
  output_tokens: number;
  created_at: number;
}

export interface UsageTable {
  id: Generated<number>;
  user_id: number | null;
  device_id: string | null;
  log_id: number | null;
  /** 'chat' or 'eval' (self-evaluation tokens are counted too). */
  kind: string;
  model: string;
  input_tokens: number;
  output_tokens: number;
  cost: number;
  created_at: number;
  /** A visitor's address key (an HMAC of the address: src/server/http/clientAddress.ts); null for a user. */
  address: ColumnType<string | null, string | null | undefined, string | null>;
  /**
   * A question counted when it started, waiting in this session for what completes it: a local
   * model's log (/api/log/add), or the browser's tool results. Null once settled.
   */
  awaiting: ColumnType<number | null, number | null | undefined, number | null>;
  /** How many times the browser's tool results went on with this question (at most MAX_TOOL_ROUNDS). */
  continued: ColumnType<number, number | undefined, number>;
  /** Where the call came from, when not the page or the CLI's login ('key:12': ServerTurnInput.tag). */
  tag: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface UploadsTable {
  /** A random UUID: the object URL's only secret (the user's file name never reaches a path). */
  id: string;
  /** The owner: a user, or an anonymous browser's device id. */
  user_id: number | null;
  device_id: string | null;
  /** The file's name as the person gave it (metadata only). */
  name: string;
  /** The content type the server serves it as, decided by the extension. */
  content_type: string;
  /** The content type the presigned PUT must carry. */
  put_type: string;
  size: number;
  /** 0 while waiting for the PUT, 1 once usable (its bytes are in upload_parts). */
  ready: number;
  created_at: number;
  /** Until when the presigned PUT is taken. */
  expires_at: number;
  /** A visitor's address key (as in the usage table); null for a user's upload. */
  address: ColumnType<string | null, string | null | undefined, string | null>;
}

/**
 * An upload's bytes, in parts of at most 256 KB: MySQL's client sends a blob escaped in the
 * query text, twice its size, and a query larger than max_allowed_packet (16 MB on MariaDB, as
 * little as 4 MB on older MySQL) drops the connection.
 */
export interface UploadPartsTable {
  upload_id: string;
  seq: number;
  data: Uint8Array;
}

export interface Database {
  users: UsersTable;
  groups: GroupsTable;
  group_members: GroupMembersTable;
  login_tokens: LoginTokensTable;
  email_tokens: EmailTokensTable;
  sessions: SessionsTable;
  logs: LogsTable;
  usage: UsageTable;
  uploads: UploadsTable;
  upload_parts: UploadPartsTable;
  balance_ledger: BalanceLedgerTable;
}
