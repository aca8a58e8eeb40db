// Accounts: users, their own groups and memberships, login tokens and e-mail tokens. Every
// rule about who may do what lives in ../policy.ts; this module only does what it is told.
import { isUniqueViolation } from '../db/uniqueViolation.ts';
import type { Kysely } from 'kysely';
import {
  formatRoleExpiry,
  GROUP_PASSWORD_KEY,
  type AccountsApi,
  type Database,
  type ProfileLine,
  type PublicUser,
  type RoleExpiryHook,
  type RoleName,
  type UserRow,
  type UserSettingRules,
  type UserSettings,
} from '../../core/index.ts';
import { groupPassword, hashPassword, randomAlphanumeric, verifyPassword } from '../auth/password.ts';
import { emailError, groupPasswordWeak, normalizeUsername, passwordError, usernameError } from './validation.ts';
import { issueEmailToken, peekEmailToken, useEmailToken } from './emailTokens.ts';
import type { Message } from '../../core/messages.ts';
import { AccountError } from './accountError.ts';
import { groupsOf, joinGroup, leaveGroup } from './groups.ts';
import { createLoginToken, revokeAllTokens, revokeToken, tokenUser } from './loginTokens.ts';
import { balanceCents, credit, creditIn, type LedgerKind } from './ledger.ts';
import { SERVER_MESSAGES } from '../../core/serverMessages.ts';

// Where it lived before the split: its importers keep their path.
export { AccountError };

export interface AccountsOptions {
  /** The server's clock (tests move it): role expiry is decided by it. */
  now?: () => number;
  /** What a new account's balance starts at, in cents (TRIAL_BALANCE). */
  trialCents?: number;
  /** The settings an account keeps: the installed manifests' (userSettingRules). */
  settings: UserSettingRules;
}

export class Accounts implements AccountsApi {
  private readonly db: Kysely<Database>;
  private readonly deleteHooks: ((userId: number) => Promise<void>)[] = [];
  private readonly expiryHooks: RoleExpiryHook[] = [];
  private readonly profileHooks: ((user: UserRow) => Promise<ProfileLine[]>)[] = [];
  private readonly now: () => number;
  private readonly trialCents: number;
  readonly settings: UserSettingRules;

  constructor(db: Kysely<Database>, options: AccountsOptions) {
    this.db = db;
    this.settings = options.settings;
    this.now = options.now ?? Date.now;
    this.trialCents = options.trialCents ?? 0;
  }

  /** Decides what an expired role becomes (a subscription's scheduled plan); the first answer wins, else `user`. */
  onRoleExpired(hook: RoleExpiryHook): void {
    this.expiryHooks.push(hook);
  }

  /**
   * The user as of now: a role whose expiry has passed gives way to what a hook says (a plan
   * bought for later), else to `user` with no expiry, written once and seen from this request on.
   */
  async current(user: UserRow): Promise<UserRow> {
    const now = this.now();
    if (user.role_expires_at === null || user.role_expires_at > now || user.role === 'root_user') return user;
    let next: { role: RoleName; expiresAt: number | null } = { role: 'user', expiresAt: null };
    for (const hook of this.expiryHooks) {
      const said = await hook(user, now);
      if (said) {
        next = said;
        break;
      }
    }
    // Only the row still expired is changed: two requests at once change it once.
    await this.db
      .updateTable('users')
      .set({ role: next.role, role_expires_at: next.expiresAt, updated_at: now })
      .where('id', '=', user.id)
      .where('role_expires_at', '=', user.role_expires_at)
      .execute();
    return (await this.byId(user.id)) ?? user;
  }

  creditIn(trx: Kysely<Database>, entry: { userId: number; cents: number; kind: LedgerKind; reference?: string }): Promise<void> {
    return creditIn(trx, { ...entry, at: this.now() });
  }

  /** Adds whole cents to a balance through the ledger; false when `reference` was credited before. */
  credit(userId: number, cents: number, kind: LedgerKind, reference?: string): Promise<boolean> {
    return credit(this.db, { userId, cents, kind, reference, at: this.now() });
  }

  /** Plugins register here to remove their data when an account is deleted. */
  onDelete(hook: (userId: number) => Promise<void>): void {
    this.deleteHooks.push(hook);
  }

  describe(lines: (user: UserRow) => Promise<ProfileLine[]>): void {
    this.profileHooks.push(lines);
  }

  async byUsername(username: string): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where('username', '=', normalizeUsername(username)).executeTakeFirst();
  }

  async byId(id: number): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async groupsOf(userId: number): Promise<{ id: number; name: string; owner_id: number }[]> {
    return groupsOf(this.db, userId);
  }

  async toPublic(user: UserRow): Promise<PublicUser> {
    return {
      id: user.id,
      username: user.username,
      email: user.email,
      email_verified: user.email_verified === 1,
      email_subscription: user.email_subscription === 1,
      role: user.role,
      role_expires_at: user.role_expires_at,
      role_expires: formatRoleExpiry(user.role_expires_at),
      balance: Number(user.balance_cents) / 100,
      settings: this.settings.normalize(user.settings),
      groups: (await this.groupsOf(user.id)).map((g) => g.name),
      created_at: user.created_at,
      ...(this.profileHooks.length ? { profile: (await Promise.all(this.profileHooks.map((hook) => hook(user)))).flat() } : {}),
    };
  }

  /** Signs a user up with an own group and a group password; generates a password if none is given. */
  async create(input: {
    username: string;
    email: string;
    password?: string;
    role?: RoleName;
    settings?: Record<string, unknown>;
  }): Promise<{ user: UserRow; generatedPassword?: string }> {
    const username = normalizeUsername(input.username);
    const email = input.email.trim();
    const bad = usernameError(username) ?? emailError(email) ?? (input.password !== undefined ? passwordError(input.password) : undefined);
    if (bad) throw new AccountError(bad);
    if (await this.byUsername(username)) throw new AccountError(SERVER_MESSAGES.usernameTaken, 409);
    if (await this.emailTaken(email)) throw new AccountError(SERVER_MESSAGES.emailTaken, 409);
    const generatedPassword = input.password === undefined ? randomAlphanumeric(16) : undefined;
    const settings: UserSettings = { ...this.settings.defaults };
    for (const [key, value] of Object.entries(input.settings ?? {})) {
      const checked = this.settings.check(key, value);
      if (checked.ok && key !== GROUP_PASSWORD_KEY) settings[key] = checked.value;
    }
    settings[GROUP_PASSWORD_KEY] = groupPassword();
    const now = Date.now();
    const passwordHash = await hashPassword(input.password ?? generatedPassword!);
    const user = await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('users')
        .values({
          username,
          email,
          password_hash: passwordHash,
          role: input.role ?? 'user',
          role_expires_at: null,
          balance: 0,
          balance_cents: 0,
          settings: JSON.stringify(settings),
          email_verified: 0,
          email_subscription: 1,
          created_at: now,
          updated_at: now,
        })
        .execute();
      const row = await trx.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirstOrThrow();
      await trx.insertInto('groups').values({ name: username, owner_id: row.id, created_at: now }).execute();
      const group = await trx.selectFrom('groups').select('id').where('name', '=', username).executeTakeFirstOrThrow();
      await trx.insertInto('group_members').values({ group_id: group.id, user_id: row.id, created_at: now }).execute();
      // The operator's trial balance, as the ledger's first row (root starts at nothing).
      if (this.trialCents > 0 && row.role !== 'root_user') await creditIn(trx, { userId: row.id, cents: this.trialCents, kind: 'trial', at: now });
      return trx.selectFrom('users').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow();
    }).catch((err: unknown) => {
      // The same name or address sent twice at once (or to two instances): the second is told so.
      if (!isUniqueViolation(err)) throw err;
      throw new AccountError(/email/i.test(String((err as Error).message)) ? SERVER_MESSAGES.emailTaken : SERVER_MESSAGES.usernameTaken, 409);
    });
    return { user, generatedPassword };
  }

  async authenticate(username: string, password: string): Promise<UserRow | undefined> {
    const user = await this.byUsername(username);
    // Hash even when the user does not exist, so timing does not reveal which usernames exist.
    const ok = await verifyPassword(password, user?.password_hash ?? DUMMY_HASH);
    return user && ok ? user : undefined;
  }

  createLoginToken(userId: number, ttlMs: number): Promise<{ token: string; expiresAt: number }> {
    return createLoginToken(this.db, userId, ttlMs);
  }

  async userForToken(token: string): Promise<UserRow | undefined> {
    const user = await tokenUser(this.db, token);
    return user && this.current(user);
  }

  revokeToken(token: string): Promise<void> {
    return revokeToken(this.db, token);
  }

  revokeAllTokens(userId: number, exceptToken?: string): Promise<void> {
    return revokeAllTokens(this.db, userId, exceptToken);
  }

  async setSettings(user: UserRow, settings: UserSettings): Promise<void> {
    await this.db.updateTable('users').set({ settings: JSON.stringify(settings), updated_at: Date.now() }).where('id', '=', user.id).execute();
  }

  async updateSetting(user: UserRow, key: string, value: unknown): Promise<UserSettings> {
    const checked = this.settings.check(key, value);
    if (!checked.ok) throw new AccountError(checked.error);
    if (key === GROUP_PASSWORD_KEY && groupPasswordWeak(String(checked.value))) throw new AccountError(SERVER_MESSAGES.groupPasswordWeak);
    const settings = this.settings.normalize(user.settings);
    (settings as Record<string, unknown>)[key] = checked.value;
    await this.setSettings(user, settings);
    return settings;
  }

  async resetSetting(user: UserRow, key: string): Promise<UserSettings> {
    const settings = this.settings.normalize(user.settings);
    if (!this.settings.isKey(key)) throw new AccountError(this.settings.check(key, '').ok ? SERVER_MESSAGES.invalidKey : (this.settings.check(key, '') as { error: Message }).error);
    settings[key] = key === GROUP_PASSWORD_KEY ? groupPassword() : this.settings.defaults[key]!;
    await this.setSettings(user, settings);
    return settings;
  }

  /** Every setting back to its default, with a new group password. */
  async resetSettings(user: UserRow): Promise<UserSettings> {
    const settings: UserSettings = { ...this.settings.defaults, [GROUP_PASSWORD_KEY]: groupPassword() };
    await this.setSettings(user, settings);
    return settings;
  }

  async updatePassword(user: UserRow, password: string): Promise<void> {
    const bad = passwordError(password);
    if (bad) throw new AccountError(bad);
    await this.db.updateTable('users').set({ password_hash: await hashPassword(password), updated_at: Date.now() }).where('id', '=', user.id).execute();
  }

  /**
   * One account per e-mail address (any case): a password reset names one account, an
   * unsubscribe link one person, and an invitation's reward is paid once per address.
   */
  private async emailTaken(email: string, exceptUserId?: number): Promise<boolean> {
    let query = this.db.selectFrom('users').select('id').where((eb) => eb(eb.fn('lower', ['email']), '=', email.trim().toLowerCase()));
    if (exceptUserId !== undefined) query = query.where('id', '!=', exceptUserId);
    return !!(await query.executeTakeFirst());
  }

  /** The e-mail changes only when the link sent to the new address is followed. */
  async requestEmailChange(user: UserRow, email: string): Promise<string> {
    const bad = emailError(email.trim());
    if (bad) throw new AccountError(bad);
    if (await this.emailTaken(email, user.id)) throw new AccountError(SERVER_MESSAGES.emailTaken, 409);
    return issueEmailToken(this.db, user.id, 'verify_email', email.trim());
  }

  async confirmEmailChange(token: string): Promise<UserRow | undefined> {
    const row = await useEmailToken(this.db, token, 'verify_email');
    if (!row?.new_email) return undefined;
    // Taken by another account since the link was sent: the link does nothing.
    if (await this.emailTaken(row.new_email, row.user_id)) return undefined;
    await this.db.updateTable('users').set({ email: row.new_email, email_verified: 1, updated_at: Date.now() }).where('id', '=', row.user_id).execute();
    return this.byId(row.user_id);
  }

  /** A reset link for the account when username and e-mail match; undefined otherwise. */
  async requestPasswordReset(username: string, email: string): Promise<{ user: UserRow; token: string } | undefined> {
    const user = await this.byUsername(username);
    if (!user || user.email.toLowerCase() !== email.trim().toLowerCase()) return undefined;
    return { user, token: await issueEmailToken(this.db, user.id, 'reset_password', null) };
  }

  /** The account a reset link is for while it still works; opening the link changes nothing. */
  async passwordResetFor(token: string): Promise<UserRow | undefined> {
    const row = await peekEmailToken(this.db, token, 'reset_password');
    return row ? this.byId(row.user_id) : undefined;
  }

  /** Confirming (the link page's button) sets a new random password and ends every login. */
  async confirmPasswordReset(token: string): Promise<{ user: UserRow; password: string } | undefined> {
    const row = await useEmailToken(this.db, token, 'reset_password');
    const user = row ? await this.byId(row.user_id) : undefined;
    if (!user) return undefined;
    const password = randomAlphanumeric(16);
    await this.updatePassword(user, password);
    await this.revokeAllTokens(user.id);
    return { user, password };
  }

  /** The account of an e-mail address (in any case). */
  async byEmail(email: string): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where((eb) => eb(eb.fn('lower', ['email']), '=', email.trim().toLowerCase())).executeTakeFirst();
  }

  async setEmailSubscription(email: string, subscribed: boolean): Promise<number> {
    const result = await this.db.updateTable('users').set({ email_subscription: subscribed ? 1 : 0, updated_at: Date.now() }).where('email', '=', email).executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /** Removes the user and everything they own (the privacy policy's promise). */
  async delete(user: UserRow): Promise<void> {
    for (const hook of this.deleteHooks) await hook(user.id);
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('email_tokens').where('user_id', '=', user.id).execute();
      await trx.deleteFrom('login_tokens').where('user_id', '=', user.id).execute();
      await trx.deleteFrom('group_members').where('user_id', '=', user.id).execute();
      const owned = await trx.selectFrom('groups').select('id').where('owner_id', '=', user.id).execute();
      for (const g of owned) await trx.deleteFrom('group_members').where('group_id', '=', g.id).execute();
      await trx.deleteFrom('groups').where('owner_id', '=', user.id).execute();
      await trx.deleteFrom('users').where('id', '=', user.id).execute();
    });
  }

  /** Joins another user's group with that user's group password. */
  async joinGroup(user: UserRow, groupName: string, password: string): Promise<void> {
    return joinGroup(this.db, this.settings, user, groupName, password);
  }

  async leaveGroup(user: UserRow, groupName: string): Promise<void> {
    return leaveGroup(this.db, user, groupName);
  }

  async setRole(user: UserRow, role: RoleName, expiresAt: number | null): Promise<void> {
    await this.db.updateTable('users').set({ role, role_expires_at: expiresAt, updated_at: Date.now() }).where('id', '=', user.id).execute();
  }

  /** Root's adjustment (or a reward) in dollars, rounded to the cent; the new balance in dollars. */
  async addBalance(user: UserRow, amount: number, reference?: string): Promise<number> {
    await this.credit(user.id, Math.round(amount * 100), reference ? 'reward' : 'admin', reference);
    return (await balanceCents(this.db, user.id)) / 100;
  }

  /** Creates `root` (root_user) on first start. Returns the password when it was generated. */
  async ensureRoot(password: string | undefined): Promise<string | undefined> {
    if (await this.byUsername('root')) return undefined;
    try {
      const { generatedPassword } = await this.create({ username: 'root', email: 'root@localhost', password, role: 'root_user' });
      return generatedPassword;
    } catch (err) {
      // Another instance, started at the same moment, made root first.
      if (err instanceof AccountError && err.status === 409 && (await this.byUsername('root'))) return undefined;
      throw err;
    }
  }
}

// A valid scrypt hash of a random password, used to spend the same time on unknown usernames.
const DUMMY_HASH = await hashPassword(randomAlphanumeric(24));
