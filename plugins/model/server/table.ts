// The users' and groups' models (system models come from the operator's configuration): the
// table, its migration, and the rows a user may reach, which the plugin gives the core's model
// registry as its source (keys still sealed; the registry opens them).
import type { Generated, Kysely } from 'kysely';
import type { Database, MigrationFactory, ServerPluginContext, StoredModel, UserRow } from '../../../src/core/index.ts';

/** The stored model as the core's registry reads it, less who manages it (worked out from groups). */
export type ModelsTable = Omit<StoredModel, 'id' | 'manager_id'> & { id: Generated<number>; created_at: number; updated_at: number };

export type ModelsDb = Kysely<Database & { models: ModelsTable }>;

export const modelsMigration: MigrationFactory = (engine, c) => ({
  async up(db) {
    await db.schema
      .createTable('models')
      .addColumn('id', c.id, (col) => (engine === 'postgres' ? col.primaryKey() : col.primaryKey().autoIncrement()))
      .addColumn('name', c.name, (col) => col.notNull())
      .addColumn('scope', c.name, (col) => col.notNull())
      .addColumn('owner_id', 'integer', (col) => col.notNull())
      .addColumn('provider', c.name, (col) => col.notNull())
      .addColumn('model', c.name, (col) => col.notNull())
      .addColumn('base_url', c.name, (col) => col.notNull())
      .addColumn('api_key', c.text, (col) => col.notNull())
      .addColumn('price_input', c.double, (col) => col.notNull().defaultTo(0))
      .addColumn('price_output', c.double, (col) => col.notNull().defaultTo(0))
      .addColumn('capabilities', c.text, (col) => col.notNull())
      .addColumn('created_at', c.bigint, (col) => col.notNull())
      .addColumn('updated_at', c.bigint, (col) => col.notNull())
      .execute();
    await db.schema.createIndex('models_owner').on('models').columns(['scope', 'owner_id', 'name']).unique().execute();
  },
  async down(db) {
    await db.schema.dropTable('models').ifExists().execute();
  },
});

/** The user's own models and those of the groups they are in, by name, each with who manages it. */
export function reachableModels(ctx: ServerPluginContext): (user: UserRow) => Promise<StoredModel[]> {
  const db = ctx.db as ModelsDb;
  return async (user) => {
    const groups = await ctx.accounts.groupsOf(user.id);
    const groupIds = groups.map((g) => g.id);
    const groupOwner = new Map(groups.map((g) => [g.id, g.owner_id]));
    const rows = await db
      .selectFrom('models')
      .selectAll()
      .where((eb) =>
        eb.or([
          eb.and([eb('scope', '=', 'user'), eb('owner_id', '=', user.id)]),
          ...(groupIds.length ? [eb.and([eb('scope', '=', 'group'), eb('owner_id', 'in', groupIds)])] : []),
        ]),
      )
      .orderBy('name')
      .execute();
    return rows.map((row) => ({ ...row, manager_id: row.scope === 'user' ? row.owner_id : (groupOwner.get(row.owner_id) ?? -1) }));
  };
}
