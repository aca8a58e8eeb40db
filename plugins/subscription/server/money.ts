// What a user has paid in and spent, in whole cents: the balance check before a question and
// the standing that `:subscription` and the page show read the same figures, so the amount a
// refusal names is the amount the person sees owed.
import type { Kysely } from 'kysely';
import type { Database } from '../../../src/core/index.ts';

export interface Money {
  balanceCents: number;
  /** The usage ledger's fees, rounded up to the cent. */
  feeCents: number;
}

export async function moneyOf(db: Kysely<Database>, userId: number): Promise<Money> {
  const fees = await db.selectFrom('usage').select((eb) => eb.fn.sum<number | string | null>('cost').as('fees')).where('user_id', '=', userId).executeTakeFirst();
  const row = await db.selectFrom('users').select('balance_cents').where('id', '=', userId).executeTakeFirst();
  // Costs are sums of doubles (1000 × $0.00009 is 0.09000000000000001): rounded to a millionth of a
  // cent first, so only a real fraction of a cent rounds up.
  const cents = Number((Number(fees?.fees ?? 0) * 100).toFixed(6));
  return { balanceCents: Number(row?.balance_cents ?? 0), feeCents: Math.ceil(cents) };
}
