// The balance ledger: every change of a balance is a row of whole cents (a trial credit, a
// top-up, an invitation reward, a plan's unused part, root's adjustment), and users.balance_cents
// is their sum, kept in the same transaction. A row with a reference (a payment's capture id,
// an invitation) is written once: the unique constraint makes a replay, a webhook after the
// browser's call, or a concurrent duplicate a no-op on every engine.
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../core/index.ts';

export type LedgerKind = 'opening' | 'trial' | 'topup' | 'reward' | 'admin' | 'prorate';

export interface Credit {
  userId: number;
  cents: number;
  kind: LedgerKind;
  /** Written once: a second credit with the same reference credits nothing. */
  reference?: string;
  at: number;
}

/** Writes a credit inside `trx` (the caller's transaction, so a role change or an order goes with it). */
export async function creditIn(trx: Transaction<Database> | Kysely<Database>, credit: Credit): Promise<void> {
  if (!Number.isSafeInteger(credit.cents)) throw new Error(`A credit is whole cents, not ${credit.cents}`);
  await trx
    .insertInto('balance_ledger')
    .values({ user_id: credit.userId, cents: credit.cents, kind: credit.kind, reference: credit.reference ?? null, created_at: credit.at })
    .execute();
  await trx
    .updateTable('users')
    .set((eb) => ({ balance_cents: eb('balance_cents', '+', credit.cents) }))
    .where('id', '=', credit.userId)
    .execute();
}

/** Has a credit with this reference been written? */
export async function credited(db: Kysely<Database>, reference: string): Promise<boolean> {
  return !!(await db.selectFrom('balance_ledger').select('id').where('reference', '=', reference).executeTakeFirst());
}

/**
 * Writes a credit in its own transaction; false when its reference was already credited (a
 * unique violation, which aborts the transaction on PostgreSQL, so it is told apart afterwards).
 */
export async function credit(db: Kysely<Database>, entry: Credit): Promise<boolean> {
  try {
    await db.transaction().execute((trx) => creditIn(trx, entry));
    return true;
  } catch (err) {
    if (entry.reference && (await credited(db, entry.reference))) return false;
    throw err;
  }
}

export async function balanceCents(db: Kysely<Database>, userId: number): Promise<number> {
  const row = await db.selectFrom('users').select('balance_cents').where('id', '=', userId).executeTakeFirst();
  return Number(row?.balance_cents ?? 0);
}
