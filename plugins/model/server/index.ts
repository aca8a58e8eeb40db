// The model API of spec part 7: the lists and one model's details (anonymous visitors see the
// system models), and the user's own models, whose API keys are sealed at rest and only ever
// shown masked to their owner. An owner can share a model with their own group (`shared`):
// the members who joined it with its password then use it, without ever seeing its key. A
// user's base URL is checked against the egress policy when it is saved, and every call to it
// goes through the egress-safe fetch (src/server/turn/deps.ts).
import { Hono, type Context } from 'hono';
import type { Selectable } from 'kysely';
import { z } from 'zod';
import { saidBy, type AppEnv, type Message, type ServerPluginContext, type ServerPluginModule, type UserRow } from '../../../src/core/index.ts';
import { API_KEY_MAX, MAX_USER_MODELS, MODEL_PROVIDERS } from '../common/limits.ts';
import { MESSAGES } from '../common/messages.ts';
import { checkBaseUrlSyntax, checkModelName, checkModelSetting, DEFAULT_CAPABILITIES, type Capabilities, type ModelChange } from '../common/rules.ts';
import { modelsMigration, reachableModels, type ModelsDb, type ModelsTable } from './table.ts';

type C = Context<AppEnv>;
type ModelRow = Selectable<ModelsTable>;

const addBody = z.object({
  name: z.string().max(256),
  base_url: z.string().max(2048),
  api_key: z.string().max(API_KEY_MAX).optional(),
  provider: z.string().max(64).optional(),
  model: z.string().max(256).optional(),
});
const updateBody = z.object({ name: z.string().max(256), key: z.string().max(64), value: z.string().max(API_KEY_MAX) });
const deleteBody = z.object({ name: z.string().max(256) });

function parseCapabilities(json: string): Capabilities {
  try {
    const value = JSON.parse(json) as Partial<Capabilities> | null;
    return { ...DEFAULT_CAPABILITIES, ...(value && typeof value === 'object' ? value : {}) };
  } catch {
    return { ...DEFAULT_CAPABILITIES };
  }
}

/** The models a user manages, and the checks and writes on them, for the routes. */
function modelBook(ctx: ServerPluginContext) {
  const { models } = ctx;
  const db = ctx.db as ModelsDb;

  /** The group a user shares models with: their own, made at signup. */
  const ownGroup = async (user: UserRow) => (await db.selectFrom('groups').select('id').where('owner_id', '=', user.id).orderBy('id').executeTakeFirst())?.id;

  /**
   * The models a user manages: their own, and those they share with their own group. Names are
   * matched here, exactly, not by the engine's collation. Only the owner manages a shared
   * model: a member who could change its base URL could send the owner's key anywhere.
   */
  const own = async (user: UserRow) => {
    const group = await ownGroup(user);
    return db
      .selectFrom('models')
      .selectAll()
      .where((eb) =>
        eb.or([
          eb.and([eb('scope', '=', 'user'), eb('owner_id', '=', user.id)]),
          ...(group === undefined ? [] : [eb.and([eb('scope', '=', 'group'), eb('owner_id', '=', group)])]),
        ]),
      )
      .execute();
  };

  /** Where a base URL points: refused when private or loopback, unless EGRESS_ALLOW_HOSTS allows it. */
  const checkUrl = async (url: string): Promise<string | Message | undefined> => {
    const problem = checkBaseUrlSyntax(url);
    if (problem) return problem;
    try {
      await models.checkBaseUrl(url);
      return undefined;
    } catch (err) {
      return saidBy(err) || MESSAGES.invalidUrl;
    }
  };

  /** A new model of the user's from the add body, or why not (with its status). */
  async function add(user: UserRow, body: z.output<typeof addBody>): Promise<{ name: string } | { status: 400 | 409; problem: string | Message }> {
    const name = body.name.trim();
    const nameProblem = checkModelName(name);
    if (nameProblem) return { status: 400, problem: nameProblem };
    const provider = (body.provider ?? 'openai-compatible').toLowerCase();
    if (!(MODEL_PROVIDERS as readonly string[]).includes(provider)) return { status: 400, problem: MESSAGES.invalidProvider };
    const modelId = body.model?.trim() || name;
    const idCheck = checkModelSetting('model', modelId);
    if (!idCheck.ok) return { status: 400, problem: idCheck.error };
    const baseUrl = body.base_url.trim().replace(/\/+$/, '');
    const urlProblem = await checkUrl(baseUrl);
    if (urlProblem) return { status: 400, problem: urlProblem };

    const existing = await own(user);
    if (existing.some((m) => m.name.toLowerCase() === name.toLowerCase())) return { status: 409, problem: MESSAGES.exists(name) };
    if (existing.length >= MAX_USER_MODELS) return { status: 400, problem: MESSAGES.tooMany };
    const now = Date.now();
    try {
      await db
        .insertInto('models')
        .values({
          name,
          scope: 'user',
          owner_id: user.id,
          provider,
          model: modelId,
          base_url: baseUrl,
          api_key: models.sealKey(body.api_key ?? ''),
          price_input: 0,
          price_output: 0,
          capabilities: JSON.stringify(DEFAULT_CAPABILITIES),
          created_at: now,
          updated_at: now,
        })
        .execute();
    } catch {
      // The unique index (scope, owner, name): a concurrent add of the same name.
      return { status: 409, problem: MESSAGES.exists(name) };
    }
    return { name };
  }

  /** Writes one checked `:model set` change (not sharing) to a row; a problem when the new base URL is refused. */
  async function change(row: ModelRow, checked: Exclude<ModelChange, { ok: false } | { shared: boolean }>): Promise<string | Message | undefined> {
    const now = Date.now();
    if ('capability' in checked) {
      const capabilities = { ...parseCapabilities(row.capabilities), [checked.capability]: checked.value };
      await db.updateTable('models').set({ capabilities: JSON.stringify(capabilities), updated_at: now }).where('id', '=', row.id).execute();
    } else if (checked.column === 'price_input' || checked.column === 'price_output') {
      await db.updateTable('models').set({ [checked.column]: checked.value, updated_at: now }).where('id', '=', row.id).execute();
    } else {
      let stored = checked.value;
      if (checked.column === 'base_url') {
        const urlProblem = await checkUrl(checked.value);
        if (urlProblem) return urlProblem;
      }
      if (checked.column === 'api_key') stored = models.sealKey(checked.value);
      await db.updateTable('models').set({ [checked.column]: stored, updated_at: now }).where('id', '=', row.id).execute();
    }
    return undefined;
  }

  /** Moves a model to the user's own group (shared) or back to the user; false when they have no group. */
  async function share(user: UserRow, row: ModelRow, shared: boolean): Promise<boolean> {
    const group = shared ? await ownGroup(user) : undefined;
    if (shared && group === undefined) return false;
    await db
      .updateTable('models')
      .set({ scope: shared ? 'group' : 'user', owner_id: shared ? group! : user.id, updated_at: Date.now() })
      .where('id', '=', row.id)
      .execute();
    return true;
  }

  return { own, add, change, share };
}

/** The model API's routes; the browser's client is typed from them (ModelRoutes). */
export function modelRoutes(ctx: ServerPluginContext) {
  const { models, validate, requireUser, answer, refuse } = ctx;
  const db = ctx.db as ModelsDb;
  const book = modelBook(ctx);
  const me = (c: C) => c.get('user') as UserRow;

  return new Hono<AppEnv>()
    .get('/api/model/list', async (c) => answer(c, await models.list(c.get('user'))))
    .get('/api/model/:name', async (c) => {
      const found = await models.get(c.req.param('name'), c.get('user'));
      return found ? answer(c, found) : refuse(c, 404, MESSAGES.notFound);
    })
    .post('/api/model/add', requireUser, validate('json', addBody), async (c) => {
      const user = me(c);
      const added = await book.add(user, c.req.valid('json'));
      if ('problem' in added) return refuse(c, added.status, added.problem);
      ctx.log.info({ user: user.username, model: added.name }, 'model added');
      return answer(c, await models.get(added.name, user), MESSAGES.added(added.name));
    })
    .post('/api/model/update', requireUser, validate('json', updateBody), async (c) => {
      const user = me(c);
      const { name, key, value } = c.req.valid('json');
      const row = (await book.own(user)).find((m) => m.name === name);
      if (!row) return refuse(c, 404, MESSAGES.notFound);
      const checked = checkModelSetting(key, value);
      if (!checked.ok) return refuse(c, 400, checked.error);
      if ('shared' in checked) {
        if (!(await book.share(user, row, checked.shared))) return refuse(c, 400, MESSAGES.noGroup);
        ctx.log.info({ user: user.username, model: name, shared: checked.shared }, 'model sharing changed');
        ctx.audit.record(c, { kind: 'model.shared', target: `model:${name}`, before: { shared: row.scope === 'group' }, after: { shared: checked.shared } });
        return answer(c, await models.get(name, user), checked.shared ? MESSAGES.shared(name) : MESSAGES.unshared(name));
      }
      const problem = await book.change(row, checked);
      if (problem) return refuse(c, 400, problem);
      ctx.log.info({ user: user.username, model: name, key: key.toLowerCase() }, 'model updated');
      return answer(c, await models.get(name, user), MESSAGES.updated(name));
    })
    .post('/api/model/delete', requireUser, validate('json', deleteBody), async (c) => {
      const user = me(c);
      const { name } = c.req.valid('json');
      // Models the user manages only: another's group model or the system's is "not found" here.
      const row = (await book.own(user)).find((m) => m.name === name);
      if (!row) return refuse(c, 404, MESSAGES.notFound);
      await db.deleteFrom('models').where('id', '=', row.id).execute();
      ctx.log.info({ user: user.username, model: name }, 'model deleted');
      return answer(c, undefined, MESSAGES.deleted(name));
    });
}

export type ModelRoutes = ReturnType<typeof modelRoutes>;

/** An account's models go with it, and so do the models of the group it owns. */
function registerModels(ctx: ServerPluginContext): void {
  const db = ctx.db as ModelsDb;
  ctx.models.addSource(reachableModels(ctx));
  ctx.accounts.onDelete(async (userId) => {
    const groups = await db.selectFrom('groups').select('id').where('owner_id', '=', userId).execute();
    await db.deleteFrom('models').where('scope', '=', 'user').where('owner_id', '=', userId).execute();
    if (groups.length) {
      await db
        .deleteFrom('models')
        .where('scope', '=', 'group')
        .where('owner_id', 'in', groups.map((g) => g.id))
        .execute();
    }
  });
}

const plugin: ServerPluginModule = {
  migrations: { '0001_models': modelsMigration },
  // The core's chat migration made this table when numbers were global.
  formerMigrationNames: { '0001_models': '0002_chat' },
  routes: modelRoutes,
  register: registerModels,
};

export default plugin;
