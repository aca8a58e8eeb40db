// Handlers of the node commands, on top of the API client. The server decides who may see or
// change a node and never sends a key unmasked (see ../server/index.ts).
import {
  ApiError,
  send,
  effect,
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
import { SERVER_MESSAGES } from '../../../src/core/serverMessages.ts';
import type { NodeRoutes } from '../server/index.ts';
import { NODE_SETTING_KEYS } from './limits.ts';
import { MESSAGES } from './messages.ts';
import { checkNodeName, checkNodeSetting, type NodeLists, type PublicNode } from './rules.ts';

export * from './limits.ts';
export * from './messages.ts';
export * from './rules.ts';

const EMPTY: NodeLists = { user_nodes: [], group_nodes: [], system_nodes: [] };

export function activateNode(ctx: PluginContext): void {
  const api = typedClient<NodeRoutes>(ctx.services.get(PlatformRef).api).api.node;
  const active = (settings: SettingsStore) => settings.get<string>('node');

  const lists = async (): Promise<NodeLists> => {
    try {
      return (await send(api.list.$get())).result;
    } catch {
      return EMPTY;
    }
  };

  /** One node as the server shows it, or undefined for 'Node not found.' (404). */
  const details = async (name: string): Promise<PublicNode | undefined> => {
    try {
      return (await send(api[':name'].$get({ param: { name: encodeURIComponent(name) } }))).result;
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) return undefined;
      throw err;
    }
  };

  ctx.completion('node', async () => {
    const all = await lists();
    return [...new Set([...all.user_nodes, ...all.group_nodes, ...all.system_nodes].map((n) => n.name))];
  });
  ctx.completion('nodeSettingKey', () => [...NODE_SETTING_KEYS]);

  ctx.handle('node', (c) =>
    withApiErrors(async () => {
      const name = c.args.name ?? active(c.settings);
      if (!name) return error(MESSAGES.noneSet);
      const found = await details(name);
      return found ? { kind: 'json', value: found } : error(MESSAGES.notFound);
    }),
  );

  ctx.handle('node.ls', (c) =>
    withApiErrors(async () => {
      const all = (await send(api.list.$get())).result;
      if (!all.user_nodes.length && !all.group_nodes.length && !all.system_nodes.length) return error(MESSAGES.noneAvailable);
      const current = active(c.settings);
      // The server resolves a name user → group → system: star where it resolves.
      const starIn = (['user_nodes', 'group_nodes', 'system_nodes'] as const).find((k) => all[k].some((n) => n.name === current));
      const section = (title: string, key: keyof NodeLists): Output => ({
        kind: 'list',
        title,
        items: all[key].map((n) => ({ text: n.name, active: starIn === key && n.name === current })),
        empty: c.t('msg.none'),
      });
      return [section(c.t('list.user'), 'user_nodes'), section(c.t('list.group'), 'group_nodes'), section(c.t('list.system'), 'system_nodes')];
    }),
  );

  const use = (c: CommandContext, name: string) =>
    withApiErrors(async () => {
      const found = await details(name);
      if (!found) return error(MESSAGES.notFound);
      c.settings.set('node', found.name);
      return text(c.t('msg.using', { name: found.name }));
    });
  ctx.handle('node.use', (c) => use(c, c.args.name ?? ''));
  // The Settings page picks a node as `:node use` does (an empty value unsets it).
  ctx.setter('node', (value, c) => {
    if (!c.identity.loggedIn) return error(SERVER_MESSAGES.pleaseLogin);
    const name = value.trim();
    if (name) return use(c, name);
    c.settings.reset('node');
    return text(c.t('msg.unused', { name: active(c.settings) }));
  });
  ctx.choices('node', async () => {
    const all = await lists();
    return [
      { title: ctx.t('list.user'), values: all.user_nodes.map((n) => n.name) },
      { title: ctx.t('list.group'), values: all.group_nodes.map((n) => n.name) },
      { title: ctx.t('list.system'), values: all.system_nodes.map((n) => n.name) },
    ];
  });

  ctx.handle('node.unuse', (c) => {
    const current = active(c.settings);
    if (!current) return error(MESSAGES.noneSelected);
    if (current !== c.args.name) return error(MESSAGES.notExists);
    c.settings.reset('node');
    return text(c.t('msg.unused', { name: current }));
  });

  ctx.handle('node.reset', (c) => {
    c.settings.reset('node');
    resetSession(c.settings);
    return text(c.t('msg.reset'));
  });

  ctx.handle('node.add', (c) =>
    withApiErrors(async () => {
      const name = c.args.name ?? '';
      const problem = checkNodeName(name);
      if (problem) return error(problem);
      const answer = await send(api.add.$post({ json: { name } }));
      // A node created by add becomes active.
      c.settings.set('node', name);
      return [text(saidIn(answer)), { kind: 'json', value: answer.result }];
    }),
  );

  ctx.handle('node.del', (c) =>
    withApiErrors(async () => {
      const name = active(c.settings);
      if (!name) return error(MESSAGES.noneSelected);
      const answer = await send(api.delete.$post({ json: { name } }));
      c.settings.reset('node');
      return text(saidIn(answer));
    }),
  );

  ctx.handle('node.set.owner', (c) =>
    withApiErrors(async () => {
      const name = active(c.settings);
      if (!name) return error(MESSAGES.noneSelected);
      const answer = await send(api.update[':name'].owner.$post({ param: { name: encodeURIComponent(name) }, json: { owner: c.args.owner ?? '' } }));
      return text(saidIn(answer));
    }),
  );

  ctx.handle('node.set', (c) =>
    withApiErrors(async () => {
      const name = active(c.settings);
      if (!name) return error(MESSAGES.noneSelected);
      const key = (c.args.key ?? '').toLowerCase();
      const checked = checkNodeSetting(key, c.args.value ?? '');
      if (!checked.ok) return error(checked.error);
      const answer = await send(api.update[':name'].settings.$post({ param: { name: encodeURIComponent(name) }, json: { key, value: c.args.value ?? '' } }));
      return [text(saidIn(answer)), { kind: 'json', value: answer.result }];
    }),
  );

  ctx.handle('generate', (c) =>
    withApiErrors(async () => {
      const node = active(c.settings);
      if (!node) return error(MESSAGES.noneSelected);
      const input = c.args.input ?? '';
      const out = (await send(api.generate.$post({ json: { input, node } }))).result;
      const outputs: Output[] = [];
      if (out.text) outputs.push({ kind: 'markdown', text: out.text });
      if (out.images.length) outputs.push(effect({ type: 'result', previews: out.images, info: null }));
      return outputs;
    }),
  );
}
