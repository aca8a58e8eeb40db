// Handlers of the role commands, on top of the API client. The server decides who may see or
// change a role, and resolves a name user role first, then system role (see ../server/index.ts).
import {
  ApiError,
  send,
  isOffline,
  listingMustSay,
  error,
  PlatformRef,
  resetSession,
  saidIn,
  text,
  withApiErrors,
  typedClient,
  type CommandContext,
  type HandlerResult,
  type Output,
  type PluginContext,
  type SettingsStore,
} from '../../../src/core/index.ts';
import type { RoleRoutes } from '../server/index.ts';
import { MESSAGES } from './messages.ts';
import { checkPrompt, checkRoleName, type PublicRole, type RoleLists } from './rules.ts';

export * from './limits.ts';
export * from './messages.ts';
export * from './rules.ts';


const EMPTY: RoleLists = { user_roles: [], system_roles: [] };


export function activateRole(ctx: PluginContext): void {
  const api = typedClient<RoleRoutes>(ctx.services.get(PlatformRef).api).api.role;

  /**
   * The server's lists; a failure gives empty lists, except for `:role ls` (`strict`) when the
   * server cannot be reached at all ('You are offline.' rather than 'No role found.') or refuses
   * (the plus plan's gate says why).
   */
  const lists = async (strict = false): Promise<RoleLists> => {
    try {
      return (await send(api.list.$get())).result;
    } catch (err) {
      if (strict && listingMustSay(err)) throw err;
      return EMPTY;
    }
  };

  /** One role (the user's own first, then the system's), or undefined when it does not exist. */
  const find = async (name: string): Promise<PublicRole | undefined> => {
    try {
      return (await send(api[':name'].$get({ param: { name: encodeURIComponent(name) } }))).result;
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) return undefined;
      throw err;
    }
  };

  /** Spec part 4: a role use or reset resets memory. */
  const activate = (settings: SettingsStore, name: string) => {
    settings.set('role', name);
    resetSession(settings);
  };

  const show = (c: { t: (key: string, vars?: Record<string, unknown>) => string }, role: PublicRole): Output[] => [
    text(c.t('msg.role', { name: role.name })),
    text(`${c.t('msg.prompt')} ${role.prompt}`),
  ];

  ctx.completion('role', async () => {
    const { user_roles, system_roles } = await lists();
    return [...new Set([...user_roles, ...system_roles].map((r) => r.name))];
  });
  ctx.completion('userRole', async () => (await lists()).user_roles.map((r) => r.name));
  // The Settings page: one's own roles, then the system's.
  ctx.choices('role', async () => {
    const { user_roles, system_roles } = await lists();
    return [
      { title: ctx.t('list.user'), values: user_roles.map((r) => r.name) },
      { title: ctx.t('list.system'), values: system_roles.map((r) => r.name) },
    ];
  });

  ctx.handle('role', (c) =>
    withApiErrors(async () => {
      const name = c.args.name ?? c.settings.get<string>('role');
      if (!name) return error(MESSAGES.noneSet);
      const found = await find(name);
      return found ? show(c, found) : error(MESSAGES.notExist(name));
    }),
  );

  ctx.handle('role.ls', (c) =>
    withApiErrors(async () => {
      const { user_roles, system_roles } = await lists(true);
      if (!user_roles.length && !system_roles.length) return error(MESSAGES.noneFound);
      const active = c.settings.get<string>('role');
      // A user role wins over a system role of the same name: star where the name resolves.
      const inUser = user_roles.some((r) => r.name === active);
      const out: Output[] = [];
      if (c.identity.loggedIn) {
        out.push({
          kind: 'list',
          title: c.t('list.user'),
          items: user_roles.map((r) => ({ text: r.name, active: r.name === active })),
          empty: c.t('msg.none'),
        });
      }
      out.push({
        kind: 'list',
        title: c.t('list.system'),
        items: system_roles.map((r) => ({ text: r.name, active: !inUser && r.name === active })),
        empty: c.t('msg.none'),
      });
      return out;
    }),
  );

  const use = (c: CommandContext, name: string) =>
    withApiErrors(async () => {
      const found = await find(name);
      if (!found) return error(MESSAGES.notExist(name));
      activate(c.settings, found.name);
      return text(c.t('msg.using', { name: found.name }));
    });
  ctx.handle('role.use', (c) => use(c, c.args.name ?? ''));
  // `:set role "x"` is `:role use "x"` (and an empty value `:role reset`): one rule.
  ctx.setter('role', (value, c) => {
    const name = value.trim();
    if (name) return use(c, name);
    c.settings.reset('role');
    resetSession(c.settings);
    return text(c.t('msg.reset'));
  });

  ctx.handle('role.reset', (c) => {
    c.settings.reset('role');
    resetSession(c.settings);
    return text(c.t('msg.reset'));
  });

  ctx.handle('role.add', (c) =>
    withApiErrors(async () => {
      const name = c.args.name ?? '';
      const prompt = c.args.prompt ?? '';
      const problem = checkRoleName(name) ?? checkPrompt(prompt);
      if (problem) return error(problem);
      const answer = await send(api.add.$post({ json: { roleName: name, prompt } }));
      // A new role becomes the active one (and memory resets, as with `:role use`).
      activate(c.settings, name);
      return [text(saidIn(answer) || MESSAGES.added(name)), text(c.t('msg.using', { name }))];
    }),
  );

  ctx.handle('role.set', (c) =>
    withApiErrors(async () => {
      const name = c.args.name ?? '';
      const prompt = c.args.prompt ?? '';
      const problem = checkRoleName(name) ?? checkPrompt(prompt);
      if (problem) return error(problem);
      const answer = await send(api.update.$post({ json: { roleName: name, prompt } }));
      return text(saidIn(answer) || MESSAGES.updated(name));
    }),
  );

  ctx.handle('role.del', (c) =>
    withApiErrors(async () => {
      const name = c.args.name ?? '';
      const answer = await send(api.delete.$post({ json: { roleName: name } }));
      // A deleted active role is no longer set (a system role of that name is not chosen instead).
      if (c.settings.get<string>('role') === name) c.settings.reset('role');
      return text(saidIn(answer) || MESSAGES.deleted(name));
    }),
  );
}
