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
  balance: number;
  /** JSON object of the synced settings (spec part 3, User). */
  settings: string;
  email_verified: number;
  email_subscription: number;
  created_at: number;
  updated_at: number;
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

export interface Database {
  users: UsersTable;
  groups: GroupsTable;
  group_members: GroupMembersTable;
  login_tokens: LoginTokensTable;
  email_tokens: EmailTokensTable;
}
