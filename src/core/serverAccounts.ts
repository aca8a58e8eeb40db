// The server's accounts as the plugin contract sees them (ServerPluginContext.accounts, .policy,
// .mail, .recipient): users, their public view, and the hooks that act on them. Type-only.
import type { Kysely, Selectable } from 'kysely';
import type { Message } from './messages.ts';
import type { Database, UsersTable } from './dbSchema.ts';
import type { RoleName } from './roles.ts';
import type { UserSettings } from './userSettings.ts';

export type UserRow = Selectable<UsersTable>;

export interface PublicUser {
  id: number;
  username: string;
  email: string;
  email_verified: boolean;
  email_subscription: boolean;
  role: string;
  role_expires_at: number | null;
  role_expires: string;
  balance: number;
  /** What the account's questions have cost so far, in dollars (the usage ledger's sum; /api/user/info). */
  usage?: number;
  settings: UserSettings;
  groups: string[];
  created_at: number;
  /** More lines about the account from plugins (AccountsApi.describe): a linked sign-on identity. */
  profile?: ProfileLine[];
}

/** One line a plugin adds to the account table (`:user`): its label's key in the plugin's namespace, and the value. */
export interface ProfileLine {
  ns: string;
  label: string;
  value: string;
}

/** Who may do what with users, groups and system objects (src/server/policy.ts). */
export type PolicyAction =
  | 'user.read'
  | 'user.update'
  | 'user.delete'
  | 'user.role.update'
  | 'user.balance.update'
  | 'group.join'
  | 'group.leave'
  | 'system.read'
  | 'session.list.all';

export interface Policy {
  /** `target` is the user acted upon, when there is one. */
  can(actor: UserRow | null, action: PolicyAction, target?: UserRow | null): boolean;
}

export interface Mail {
  readonly enabled: boolean;
  send(message: { to: string; subject: string; text: string }): Promise<void>;
}

export interface AccountsApi {
  onDelete(hook: (userId: number) => Promise<void>): void;
  /** Adds lines to what `toPublic` says of an account (`profile`), such as a linked identity. */
  describe(lines: (user: UserRow) => Promise<ProfileLine[]>): void;
  byUsername(username: string): Promise<UserRow | undefined>;
  /** The account of an e-mail address (in any case). */
  byEmail(email: string): Promise<UserRow | undefined>;
  /** The groups a user belongs to (their own included), by name: what their groups may see starts here. */
  groupsOf(userId: number): Promise<{ id: number; name: string; owner_id: number }[]>;
  toPublic(user: UserRow): Promise<PublicUser>;
  create(input: { username: string; email: string; password?: string; settings?: Record<string, unknown> }): Promise<{ user: UserRow; generatedPassword?: string }>;
  authenticate(username: string, password: string): Promise<UserRow | undefined>;
  createLoginToken(userId: number, ttlMs: number): Promise<{ token: string; expiresAt: number }>;
  revokeToken(token: string): Promise<void>;
  revokeAllTokens(userId: number, exceptToken?: string): Promise<void>;
  updateSetting(user: UserRow, key: string, value: unknown): Promise<UserSettings>;
  resetSetting(user: UserRow, key: string): Promise<UserSettings>;
  resetSettings(user: UserRow): Promise<UserSettings>;
  updatePassword(user: UserRow, password: string): Promise<void>;
  requestEmailChange(user: UserRow, email: string): Promise<string>;
  confirmEmailChange(token: string): Promise<UserRow | undefined>;
  requestPasswordReset(username: string, email: string): Promise<{ user: UserRow; token: string } | undefined>;
  /** The account a reset link is for while the link still works (nothing changes). */
  passwordResetFor(token: string): Promise<UserRow | undefined>;
  confirmPasswordReset(token: string): Promise<{ user: UserRow; password: string } | undefined>;
  setEmailSubscription(email: string, subscribed: boolean): Promise<number>;
  delete(user: UserRow): Promise<void>;
  joinGroup(user: UserRow, group: string, password: string): Promise<void>;
  leaveGroup(user: UserRow, group: string): Promise<void>;
  setRole(user: UserRow, role: RoleName, expiresAt: number | null): Promise<void>;
  /** Dollars, rounded to the cent, through the ledger; with `reference`, credited once. Returns the balance in dollars. */
  addBalance(user: UserRow, amount: number, reference?: string): Promise<number>;
  /**
   * Whole cents through the ledger inside the caller's transaction (a role change or an order
   * goes with it); a `reference` written before makes the transaction fail on its unique key.
   */
  creditIn(trx: Kysely<Database>, entry: { userId: number; cents: number; kind: 'topup' | 'prorate' | 'reward'; reference?: string }): Promise<void>;
  /** Whole cents through the ledger; false when `reference` was credited before. */
  credit(userId: number, cents: number, kind: 'trial' | 'topup' | 'reward' | 'admin' | 'prorate', reference?: string): Promise<boolean>;
  /** What an expired role becomes: the first hook that answers wins, else `user`. */
  onRoleExpired(hook: RoleExpiryHook): void;
  /** The user as of now (an expired role replaced). */
  current(user: UserRow): Promise<UserRow>;
}

/** A plan bought for later takes over an expired role: its role and expiry, or undefined. */
export type RoleExpiryHook = (user: UserRow, now: number) => Promise<{ role: RoleName; expiresAt: number | null } | undefined>;

/** Whom a store or a node may go to (src/server/recipients.ts), or why not. */
export type Recipient =
  | { kind: 'system' }
  | { kind: 'group'; id: number; name: string; ownerId: number }
  | { kind: 'user'; user: UserRow }
  | { kind: 'refused'; status: 403 | 404; error: Message };
