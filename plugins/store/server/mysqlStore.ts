// A mysql store: its connection (through the egress policy, the password opened from the
// server's secret box), `:store init` reading its schema, and a question answered by one
// guarded SELECT that a model writes from that schema (mysqlGuard.ts checks and runs it).
import { MessageError, type Message } from '../../../src/core/messages.ts';
import type { ServerPluginContext, UserRow } from '../../../src/core/index.ts';
import { MESSAGES } from '../common/messages.ts';
import { activeList, type StoreHit } from '../common/rules.ts';
import { connect, guardedQuery, readSchema, sqlFromAnswer, writeGrants } from './mysqlGuard.ts';
import { parseSettings, type StoreDb, type StoresTable } from './schema.ts';

/** The mysql connection of a store, through the egress policy; the caller destroys it. */
async function mysqlConnection(ctx: ServerPluginContext, row: StoresTable) {
  const s = parseSettings(row.settings);
  if (!s.host || !s.user || !s.database) throw new MessageError(MESSAGES.notInitialized);
  const port = Number(s.port || 3306);
  const address = await ctx.egressHost(s.host, port);
  const password = s.password ? ctx.secrets.open(s.password) : '';
  return { conn: await connect({ address, port, user: s.user, password, database: s.database }), settings: s };
}

/**
 * `:store init` of a mysql store: reads the schema of its tables (all, or the `table` list) and
 * keeps it with the settings; warns when the account may write. Throws with the reason.
 */
export async function initializeMysqlStore(ctx: ServerPluginContext, row: StoresTable): Promise<{ schema: string; said: Message }> {
  const db = ctx.db as unknown as StoreDb;
  const { conn, settings } = await mysqlConnection(ctx, row);
  try {
    const schema = await readSchema(conn, settings.database!, activeList(settings.table));
    const grants = await writeGrants(conn);
    const stored = { ...parseSettings(row.settings), schema };
    await db.updateTable('stores').set({ settings: JSON.stringify(stored), updated_at: Date.now() }).where('id', '=', row.id).execute();
    const said = grants.length ? MESSAGES.initializedWarning(row.name, grants.join(', ')) : MESSAGES.initialized(row.name);
    return { schema, said };
  } finally {
    conn.destroy();
  }
}

/** What the model is told to write a query over a store's schema. */
function sqlPrompt(settings: Record<string, string>): string {
  return [
    'You translate a question into one read-only MySQL SELECT statement over the schema below.',
    'Answer with JSON only: {"query": "<SQL>"}. Use at most 10 rows (LIMIT 10). No comments, no semicolons, no variables.',
    'If the question is unrelated to the data, answer {"query": ""}.',
    settings.description ? `Description: ${settings.description}` : '',
    `Schema:\n${settings.schema}`,
  ]
    .filter(Boolean)
    .join('\n');
}

/**
 * A question to a mysql store: a model writes the SELECT, the gate checks it and it runs with
 * at most 10 rows. Undefined when the model finds the question unrelated; throws with the reason.
 */
export async function askMysqlStore(ctx: ServerPluginContext, user: UserRow, row: StoresTable, question: string, signal: AbortSignal): Promise<StoreHit | undefined> {
  const settings = parseSettings(row.settings);
  if (!settings.schema) throw new MessageError(MESSAGES.notInitialized);
  const written = sqlFromAnswer(await ctx.generation.complete({ user, model: settings.model || undefined, system: sqlPrompt(settings), prompt: question, signal }));
  if (!written) return undefined;
  const { conn } = await mysqlConnection(ctx, row);
  try {
    const result = await guardedQuery(conn, written);
    return { store: row.name, source: `query: ${written}`, snippet: JSON.stringify(result.rows) + (result.truncated ? ' (truncated)' : '') };
  } finally {
    conn.destroy();
  }
}
