// The model API of spec part 7: the lists and one model's details (anonymous visitors see the
// system models), and the user's own models, whose API keys are sealed at rest and only ever
// shown masked to their owner. An owner can share a model with their own group (`shared`):
// the members who joined it with its password then use it, without ever seeing its key. A
// user's base URL is checked against the egress policy when it is saved, and every call to it
// goes through the egress-safe fetch (src/server/turn/deps.ts).
import type { Context } from 'hono';
import { z } from 'zod';
import type { AppEnv, ServerPluginContext, ServerPluginModule, UserRow } from '../../../src/core/index.ts';
import {
  API_KEY_MAX,
  checkBaseUrlSyntax,
  checkModelName,
  checkModelSetting,
  DEFAULT_CAPABILITIES,
  MAX_USER_MODELS,
  MESSAGES,
  MODEL_PROVIDERS,
  type Capabilities,
} from '../common/rules.ts';

type C = Context<AppEnv>;

const answer = (c: C, result?: unknown, message?: string) =>
  c.json({ success: true, ...(message !== undefined ? { message } : {}), ...(result !== undefined ? { result } : {}) });
const refuse = (c: C, status: 400 | 404 | 409, error: string) => c.json({ success: false, error }, status);

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

export function registerModelRoutes(ctx: ServerPluginContext): void {
  const { app, db, models, validate, requireUser } = ctx;
  const me = (c: C) => c.get('user') as UserRow;

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
  const checkUrl = async (url: string): Promise<string | undefined> => {
    const problem = checkBaseUrlSyntax(url);
    if (problem) return problem;
    try {
      await models.checkBaseUrl(url);
      return undefined;
    } catch (err) {
      return err instanceof Error && err.message ? err.message : MESSAGES.invalidUrl;
    }
  };

  app.get('/api/model/list', async (c) => answer(c, await models.list(c.get('user'))));

  app.get('/api/model/:name', async (c) => {
    const found = await models.get(c.req.param('name'), c.get('user'));
    return found ? answer(c, found) : refuse(c, 404, MESSAGES.notFound);
  });

  app.post('/api/model/add', requireUser, validate('json', addBody), async (c) => {
    const user = me(c);
    const body = c.req.valid('json');
    const name = body.name.trim();
    const nameProblem = checkModelName(name);
    if (nameProblem) return refuse(c, 400, nameProblem);
    const provider = (body.provider ?? 'openai-compatible').toLowerCase();
    if (!(MODEL_PROVIDERS as readonly string[]).includes(provider)) return refuse(c, 400, MESSAGES.invalidProvider);
    const modelId = body.model?.trim() || name;
    const idCheck = checkModelSetting('model', modelId);
    if (!idCheck.ok) return refuse(c, 400, idCheck.error);
    const baseUrl = body.base_url.trim().replace(/\/+$/, '');
    const urlProblem = await checkUrl(baseUrl);
    if (urlProblem) return refuse(c, 400, urlProblem);

    const existing = await own(user);
    if (existing.some((m) => m.name.toLowerCase() === name.toLowerCase())) return refuse(c, 409, MESSAGES.exists(name));
    if (existing.length >= MAX_USER_MODELS) return refuse(c, 400, MESSAGES.tooMany);
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
      return refuse(c, 409, MESSAGES.exists(name));
    }
    ctx.log.info({ user: user.username, model: name }, 'model added');
    return answer(c, await models.get(name, user), MESSAGES.added(name));
  });

  app.post('/api/model/update', requireUser, validate('json', updateBody), async (c) => {
    const user = me(c);
    const { name, key, value } = c.req.valid('json');
    const row = (await own(user)).find((m) => m.name === name);
    if (!row) return refuse(c, 404, MESSAGES.notFound);
    const change = checkModelSetting(key, value);
    if (!change.ok) return refuse(c, 400, change.error);
    const now = Date.now();
    if ('shared' in change) {
      const group = change.shared ? await ownGroup(user) : undefined;
      if (change.shared && group === undefined) return refuse(c, 400, MESSAGES.noGroup);
      await db
        .updateTable('models')
        .set({ scope: change.shared ? 'group' : 'user', owner_id: change.shared ? group! : user.id, updated_at: now })
        .where('id', '=', row.id)
        .execute();
      ctx.log.info({ user: user.username, model: name, shared: change.shared }, 'model sharing changed');
      return answer(c, await models.get(name, user), change.shared ? MESSAGES.shared(name) : MESSAGES.unshared(name));
    }
    if ('capability' in change) {
      const capabilities = { ...parseCapabilities(row.capabilities), [change.capability]: change.value };
      await db.updateTable('models').set({ capabilities: JSON.stringify(capabilities), updated_at: now }).where('id', '=', row.id).execute();
    } else if (change.column === 'price_input' || change.column === 'price_output') {
      await db.updateTable('models').set({ [change.column]: change.value, updated_at: now }).where('id', '=', row.id).execute();
    } else {
      let stored = change.value;
      if (change.column === 'base_url') {
        const urlProblem = await checkUrl(change.value);
        if (urlProblem) return refuse(c, 400, urlProblem);
      }
      if (change.column === 'api_key') stored = models.sealKey(change.value);
      await db.updateTable('models').set({ [change.column]: stored, updated_at: now }).where('id', '=', row.id).execute();
    }
    ctx.log.info({ user: user.username, model: name, key: key.toLowerCase() }, 'model updated');
    return answer(c, await models.get(name, user), MESSAGES.updated(name));
  });

  app.post('/api/model/delete', requireUser, validate('json', deleteBody), async (c) => {
    const user = me(c);
    const { name } = c.req.valid('json');
    // Models the user manages only: another's group model or the system's is "not found" here.
    const row = (await own(user)).find((m) => m.name === name);
    if (!row) return refuse(c, 404, MESSAGES.notFound);
    await db.deleteFrom('models').where('id', '=', row.id).execute();
    ctx.log.info({ user: user.username, model: name }, 'model deleted');
    return answer(c, undefined, MESSAGES.deleted(name));
  });

  // An account's models go with it, and so do the models of the group it owns.
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
  register(ctx) {
    registerModelRoutes(ctx);
  },
};

export default plugin;
