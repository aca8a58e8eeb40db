// The role API of spec part 7: the lists, one role by name (the caller's own role first, then
// the system role of that name), and the caller's own roles (add, update, delete; login
// required, own roles only). The active role's prompt reaches the model as a system message
// through a generation context provider.
import { Hono, type Context } from 'hono';
import type { Generated, Kysely } from 'kysely';
import { z } from 'zod';
import type { AppEnv, Database, MigrationFactory, ServerPluginContext, ServerPluginModule, UserRow } from '../../../src/core/index.ts';
import { MAX_USER_ROLES, PROMPT_MAX, ROLE_NAME_MAX } from '../common/limits.ts';
import { MESSAGES } from '../common/messages.ts';
import { checkPrompt, checkRoleName, type PublicRole, type RoleLists } from '../common/rules.ts';
import shippedRoles from '../data/system-roles.json' with { type: 'json' };
import roleEnv from './env.ts';

type C = Context<AppEnv>;

interface RolesTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  prompt: string;
  created_at: number;
  updated_at: number;
}
type Db = Kysely<Database & { roles: RolesTable }>;

export const rolesMigration: MigrationFactory = (engine, c) => ({
  async up(db) {
    await db.schema
      .createTable('roles')
      .addColumn('id', c.id, (col) => (engine === 'postgres' ? col.primaryKey() : col.primaryKey().autoIncrement()))
      .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .addColumn('name', c.name, (col) => col.notNull())
      .addColumn('prompt', c.text, (col) => col.notNull())
      .addColumn('created_at', c.bigint, (col) => col.notNull())
      .addColumn('updated_at', c.bigint, (col) => col.notNull())
      .execute();
    await db.schema.createIndex('roles_owner').on('roles').columns(['user_id', 'name']).unique().execute();
  },
  async down(db) {
    await db.schema.dropTable('roles').ifExists().execute();
  },
});

// Lengths are checked in characters by the rules; these bounds only stop oversized bodies.
const nameField = z.string().max(ROLE_NAME_MAX * 4);
const promptField = z.string().max(PROMPT_MAX * 2);
const writeBody = z.object({ roleName: nameField, prompt: promptField });
const deleteBody = z.object({ roleName: nameField });

/** The roles a request may see: the shipped and operator's system roles, and a user's own. */
function roleBook(ctx: ServerPluginContext) {
  const db = ctx.db as unknown as Db;
  // The shipped roles, then the operator's (ROLES_FILE); an operator role replaces a shipped one of the same name.
  const byName = new Map<string, PublicRole>();
  for (const role of [...(shippedRoles as PublicRole[]), ...roleEnv.of(ctx).operatorRoles]) byName.set(role.name, { name: role.name, prompt: role.prompt });
  const system = [...byName.values()];
  const view = (r: { name: string; prompt: string }): PublicRole => ({ name: r.name, prompt: r.prompt });
  /** The user's own roles. Names are matched here, exactly, not by the engine's collation. */
  const own = (userId: number) => db.selectFrom('roles').selectAll().where('user_id', '=', userId).orderBy('id').execute();
  /** A name resolves to the user's own role first, then to the system role. */
  const resolve = async (name: string, user: UserRow | null): Promise<PublicRole | undefined> => {
    if (user) {
      const mine = (await own(user.id)).find((r) => r.name === name);
      if (mine) return view(mine);
    }
    const found = system.find((r) => r.name === name);
    return found ? view(found) : undefined;
  };
  return { db, system, view, own, resolve };
}

/** The role API's routes; the browser's client is typed from them (RoleRoutes). */
export function roleRoutes(ctx: ServerPluginContext) {
  const { validate, requireUser, answer, refuse } = ctx;
  const { db, system, view, own, resolve } = roleBook(ctx);
  const me = (c: C) => c.get('user') as UserRow;

  return new Hono<AppEnv>()
    .get('/api/role/list', async (c) => {
      const user = c.get('user');
      return answer(c, { system_roles: system.map(view), user_roles: user ? (await own(user.id)).map(view) : [] } satisfies RoleLists);
    })
    .get('/api/role/:name', async (c) => {
      const name = c.req.param('name');
      const found = await resolve(name, c.get('user'));
      return found ? answer(c, found) : refuse(c, 404, MESSAGES.notExist(name));
    })
    .post('/api/role/add', requireUser, validate('json', writeBody), async (c) => {
      const user = me(c);
      const { roleName: name, prompt } = c.req.valid('json');
      const problem = checkRoleName(name) ?? checkPrompt(prompt);
      if (problem) return refuse(c, 400, problem);
      const existing = await own(user.id);
      if (existing.some((r) => r.name.toLowerCase() === name.toLowerCase())) return refuse(c, 409, MESSAGES.exists(name));
      if (existing.length >= MAX_USER_ROLES) return refuse(c, 400, MESSAGES.tooMany);
      const now = Date.now();
      try {
        await db.insertInto('roles').values({ user_id: user.id, name, prompt, created_at: now, updated_at: now }).execute();
      } catch {
        // The unique index (user, name): a concurrent add of the same name.
        return refuse(c, 409, MESSAGES.exists(name));
      }
      ctx.log.info({ user: user.username, role: name }, 'role added');
      return answer(c, { name, prompt }, MESSAGES.added(name));
    })
    .post('/api/role/update', requireUser, validate('json', writeBody), async (c) => {
      const user = me(c);
      const { roleName: name, prompt } = c.req.valid('json');
      // Own roles only: a system role (or another user's) of that name does not exist here.
      const row = (await own(user.id)).find((r) => r.name === name);
      if (!row) return refuse(c, 404, MESSAGES.notExist(name));
      const problem = checkPrompt(prompt);
      if (problem) return refuse(c, 400, problem);
      await db.updateTable('roles').set({ prompt, updated_at: Date.now() }).where('id', '=', row.id).execute();
      ctx.log.info({ user: user.username, role: name }, 'role updated');
      return answer(c, { name, prompt }, MESSAGES.updated(name));
    })
    .post('/api/role/delete', requireUser, validate('json', deleteBody), async (c) => {
      const user = me(c);
      const { roleName: name } = c.req.valid('json');
      const row = (await own(user.id)).find((r) => r.name === name);
      if (!row) return refuse(c, 404, MESSAGES.notExist(name));
      await db.deleteFrom('roles').where('id', '=', row.id).execute();
      ctx.log.info({ user: user.username, role: name }, 'role deleted');
      return answer(c, undefined, MESSAGES.deleted(name));
    });
}

export type RoleRoutes = ReturnType<typeof roleRoutes>;

/** The active role's prompt reaches the model; an account's roles go with it. */
function registerRoles(ctx: ServerPluginContext): void {
  const { db, resolve } = roleBook(ctx);
  // The active role's prompt, as a system message before the conversation.
  ctx.generation.addContextProvider(async ({ request, user }) => {
    const name = typeof request.role === 'string' ? request.role : '';
    if (!name) return;
    const role = await resolve(name, user);
    return role ? { system: [role.prompt] } : undefined;
  });
  ctx.accounts.onDelete(async (userId) => {
    await db.deleteFrom('roles').where('user_id', '=', userId).execute();
  });
}

const plugin: ServerPluginModule = {
  migrations: { '0001_roles': rolesMigration },
  formerMigrationNames: { '0001_roles': '0200_role_roles' },
  routes: roleRoutes,
  register: registerRoles,
};

export default plugin;
