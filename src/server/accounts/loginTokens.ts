// Login tokens: only their hash is stored; a token is good until its expiry or its revocation.
import type { Kysely } from 'kysely';
import type { Database, UserRow } from '../../core/index.ts';
import { hashToken, newToken } from '../auth/tokens.ts';

export async function createLoginToken(db: Kysely<Database>, userId: number, ttlMs: number): Promise<{ token: string; expiresAt: number }> {
  const token = newToken();
  const now = Date.now();
  const expiresAt = now + ttlMs;
  await db.insertInto('login_tokens').values({ token_hash: hashToken(token), user_id: userId, created_at: now, expires_at: expiresAt }).execute();
  return { token, expiresAt };
}

/** The user a live token belongs to, as stored (its role's expiry not yet applied). */
export async function tokenUser(db: Kysely<Database>, token: string): Promise<UserRow | undefined> {
  const row = await db
    .selectFrom('login_tokens')
    .innerJoin('users', 'users.id', 'login_tokens.user_id')
    .selectAll('users')
    .select('login_tokens.expires_at')
    .where('login_tokens.token_hash', '=', hashToken(token))
    .executeTakeFirst();
  if (!row || row.expires_at <= Date.now()) return undefined;
  const { expires_at: _expires, ...user } = row;
  return user as UserRow;
}

export async function revokeToken(db: Kysely<Database>, token: string): Promise<void> {
  await db.deleteFrom('login_tokens').where('token_hash', '=', hashToken(token)).execute();
}

export async function revokeAllTokens(db: Kysely<Database>, userId: number, exceptToken?: string): Promise<void> {
  let query = db.deleteFrom('login_tokens').where('user_id', '=', userId);
  if (exceptToken) query = query.where('token_hash', '!=', hashToken(exceptToken));
  await query.execute();
}
