// The keys themselves: made from 32 random bytes and shown once, kept as a SHA-256 hash, found by
// their shown prefix and compared in constant time, revoked at once for every instance (each
// request reads the row, a running call re-reads it: watch.ts), and their calls' tokens and fees counted from the usage ledger by tag.
import type { Context } from 'hono';
import type { AppEnv, ServerPluginContext, UserRow } from '../../../src/core/index.ts';
import type { PublicKey } from '../common/api.ts';
import { KEY_BYTES, KEY_PREFIX, SHOWN_PREFIX_LENGTH } from '../common/limits.ts';
import { MESSAGES } from '../common/messages.ts';
import type { KeysDb, KeysTable } from './table.ts';
import type { Selectable } from 'kysely';

export type KeyRow = Selectable<KeysTable>;

/** The key each request was authenticated with, for the /v1 routes' scope. */
export const keysOfRequests = new WeakMap<Request, KeyRow>();
export const keyOf = (c: Context<AppEnv>) => keysOfRequests.get(c.req.raw);

/** The ledger tag of a key's calls (ServerTurnInput.tag). */
export const tagOf = (keyId: number) => `key:${keyId}`;

/** Hex SHA-256 (Web Crypto: plugins use no node: modules). */
export async function sha256(text: string): Promise<string> {
  return Buffer.from(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text))).toString('hex');
}

/** Equal hex digests, compared in constant time: every character, whichever differ. */
function sameDigest(a: string, b: string): boolean {
  let diff = a.length ^ b.length;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i % b.length);
  return diff === 0;
}

/** A new key: its secret (shown once), the prefix kept to show, and the hash kept to check it. */
export async function newKey(): Promise<{ secret: string; prefix: string; hash: string }> {
  const secret = KEY_PREFIX + Buffer.from(crypto.getRandomValues(new Uint8Array(KEY_BYTES))).toString('base64url');
  return { secret, prefix: secret.slice(0, SHOWN_PREFIX_LENGTH), hash: await sha256(secret) };
}

/** Does the secret look like one of ours (so other bearer secrets are left to other authenticators)? */
export const looksLikeKey = (secret: string) => secret.startsWith(KEY_PREFIX) && secret.length > SHOWN_PREFIX_LENGTH && secret.length <= 128;

/** The row of a secret, revoked and expired ones included (the caller says why it is refused). */
export async function findKey(db: KeysDb, secret: string): Promise<KeyRow | undefined> {
  const wanted = await sha256(secret);
  const rows = await db.selectFrom('api_keys').selectAll().where('prefix', '=', secret.slice(0, SHOWN_PREFIX_LENGTH)).execute();
  // Every row of the prefix is compared, in constant time, whichever matches.
  let found: KeyRow | undefined;
  for (const row of rows) if (sameDigest(row.hash, wanted) && !found) found = row;
  return found;
}

/** Why a key is refused (its 401's wording), or undefined while it is live: revoked, expired, or gone with its user. */
export function refusalOf(row: Pick<KeyRow, 'revoked' | 'expires_at'> | undefined, ownerExists: boolean, now: number) {
  if (!row || !ownerExists) return MESSAGES.invalidKey;
  if (Number(row.revoked)) return MESSAGES.revoked;
  if (row.expires_at !== null && Number(row.expires_at) <= now) return MESSAGES.expired;
  return undefined;
}

/** A running call's re-check of its key: one read by primary key, with its owner. */
export async function keyStillLive(db: KeysDb, keyId: number, now: () => number) {
  const row = await db
    .selectFrom('api_keys')
    .leftJoin('users', 'users.id', 'api_keys.user_id')
    .select(['api_keys.revoked', 'api_keys.expires_at', 'users.id as owner'])
    .where('api_keys.id', '=', keyId)
    .executeTakeFirst();
  return refusalOf(row, row?.owner != null, now());
}

/** The first day of this month (UTC), from which `:key ls` counts tokens and fees. */
export function monthStart(now: number): number {
  const d = new Date(now);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
}

/** This month's tokens and fees of each key, by id. */
export async function monthUsage(ctx: ServerPluginContext, keyIds: number[]): Promise<Map<number, { tokens: number; fees: number }>> {
  const out = new Map<number, { tokens: number; fees: number }>();
  if (!keyIds.length) return out;
  const rows = await ctx.db
    .selectFrom('usage')
    .select((eb) => ['tag', eb.fn.sum<number>('input_tokens').as('input'), eb.fn.sum<number>('output_tokens').as('output'), eb.fn.sum<number>('cost').as('cost')])
    .where('tag', 'in', keyIds.map(tagOf))
    .where('created_at', '>=', monthStart(ctx.now()))
    .groupBy('tag')
    .execute();
  for (const row of rows) {
    const id = Number(String(row.tag).slice(4));
    out.set(id, { tokens: Number(row.input ?? 0) + Number(row.output ?? 0), fees: Math.round(Number(row.cost ?? 0) * 1e6) / 1e6 });
  }
  return out;
}

/** A key as the API shows it: never its hash. */
export function publicKey(row: KeyRow, usage: { tokens: number; fees: number } | undefined, owner?: UserRow | string): PublicKey {
  return {
    name: row.name,
    prefix: row.prefix,
    role: row.role,
    stores: row.stores,
    model: row.model,
    no_log: !!Number(row.no_log),
    expires_at: row.expires_at === null ? null : Number(row.expires_at),
    created_at: Number(row.created_at),
    last_used_at: row.last_used_at === null ? null : Number(row.last_used_at),
    month_tokens: usage?.tokens ?? 0,
    month_fees: usage?.fees ?? 0,
    ...(owner !== undefined ? { owner: typeof owner === 'string' ? owner : owner.username } : {}),
  };
}
