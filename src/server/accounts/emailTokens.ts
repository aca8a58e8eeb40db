// One-use tokens sent by e-mail (an address to confirm, a password to reset): only their hash
// is stored, and a token works once, before it expires.
import type { Kysely } from 'kysely';
import type { Database } from '../../core/index.ts';
import { hashToken, newToken } from '../auth/tokens.ts';

const EMAIL_TOKEN_MS = 24 * 3_600_000;

export type EmailTokenKind = 'verify_email' | 'reset_password';

/** A new token for the user (and the address it confirms), valid for a day. */
export async function issueEmailToken(db: Kysely<Database>, userId: number, kind: EmailTokenKind, newEmail: string | null): Promise<string> {
  const token = newToken();
  await db
    .insertInto('email_tokens')
    .values({ token_hash: hashToken(token), user_id: userId, kind, new_email: newEmail, expires_at: Date.now() + EMAIL_TOKEN_MS })
    .execute();
  return token;
}

/** The token's row while it still works (unknown, used or expired: undefined), left unused. */
export async function peekEmailToken(db: Kysely<Database>, token: string, kind: EmailTokenKind) {
  const row = await db.selectFrom('email_tokens').selectAll().where('token_hash', '=', hashToken(token)).where('kind', '=', kind).executeTakeFirst();
  return !row || row.used_at !== null || row.expires_at <= Date.now() ? undefined : row;
}

/** The token's row, marked used; undefined when it is unknown, used or expired. */
export async function useEmailToken(db: Kysely<Database>, token: string, kind: EmailTokenKind) {
  const row = await peekEmailToken(db, token, kind);
  if (!row) return undefined;
  // Only the row still unused is marked: of two requests at once, one uses the token.
  const marked = await db.updateTable('email_tokens').set({ used_at: Date.now() }).where('token_hash', '=', row.token_hash).where('used_at', 'is', null).executeTakeFirst();
  return Number(marked.numUpdatedRows) === 1 ? row : undefined;
}
