// The subscription plugin's tables: the orders the server created with PayPal (who, what, at
// what price), the captures it credited (one row per capture id: the unique key that makes a
// second credit impossible), and the plans bought for later (a downgrade waiting for the end of
// the current plan).
import type { Kysely } from 'kysely';
import type { Database, MigrationFactory } from '../../../src/core/index.ts';

export interface PaymentOrdersTable {
  /** PayPal's order id. */
  id: string;
  /** Ours, sent as the order's custom_id: a capture must carry it back. */
  reference: string;
  user_id: number;
  kind: 'plan' | 'topup';
  /** The plan's role, or the top-up's amount in cents as text. */
  item: string;
  /** What PayPal is asked to charge (the fee included), whole cents. */
  amount_cents: number;
  /** created, pending (captured, PayPal still completing), completed, declined. */
  status: string;
  capture_id: string | null;
  created_at: number;
  updated_at: number;
}

export interface PaymentCapturesTable {
  capture_id: string;
  order_id: string;
  user_id: number;
  amount_cents: number;
  created_at: number;
}

export interface PlanSchedulesTable {
  user_id: number;
  role: string;
  months: number;
  created_at: number;
}

export type SubscriptionDb = Kysely<Database & { payment_orders: PaymentOrdersTable; payment_captures: PaymentCapturesTable; plan_schedules: PlanSchedulesTable }>;

export const subscriptionMigration: MigrationFactory = (_engine, c) => ({
  async up(db) {
    await db.schema
      .createTable('payment_orders')
      .addColumn('id', c.name, (col) => col.primaryKey())
      .addColumn('reference', c.name, (col) => col.notNull().unique())
      .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .addColumn('kind', c.name, (col) => col.notNull())
      .addColumn('item', c.name, (col) => col.notNull())
      .addColumn('amount_cents', c.bigint, (col) => col.notNull())
      .addColumn('status', c.name, (col) => col.notNull())
      .addColumn('capture_id', c.name)
      .addColumn('created_at', c.bigint, (col) => col.notNull())
      .addColumn('updated_at', c.bigint, (col) => col.notNull())
      .execute();
    await db.schema.createIndex('payment_orders_status').on('payment_orders').columns(['status', 'created_at']).execute();
    await db.schema
      .createTable('payment_captures')
      .addColumn('capture_id', c.name, (col) => col.primaryKey())
      .addColumn('order_id', c.name, (col) => col.notNull().unique())
      .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .addColumn('amount_cents', c.bigint, (col) => col.notNull())
      .addColumn('created_at', c.bigint, (col) => col.notNull())
      .execute();
    await db.schema
      .createTable('plan_schedules')
      .addColumn('user_id', 'integer', (col) => col.primaryKey().references('users.id').onDelete('cascade'))
      .addColumn('role', c.name, (col) => col.notNull())
      .addColumn('months', 'integer', (col) => col.notNull())
      .addColumn('created_at', c.bigint, (col) => col.notNull())
      .execute();
  },
  async down(db) {
    for (const table of ['plan_schedules', 'payment_captures', 'payment_orders']) await db.schema.dropTable(table).ifExists().execute();
  },
});
