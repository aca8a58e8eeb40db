// One's nodes on the server: `:node add` (the new node becomes active), `:node del`, `:node set
// owner`, `:node set` (on the active node, its key and value checked here first).
import { error, saidIn, send, text, withApiErrors, type CommandHandler } from '../../../../src/core/index.ts';
import { MESSAGES } from '../messages.ts';
import { checkNodeName, checkNodeSetting } from '../rules.ts';
import type { NodeAccess } from './shared.ts';

export const addNode =
  ({ api }: NodeAccess): CommandHandler =>
  (c) =>
    withApiErrors(async () => {
      const name = c.args.name ?? '';
      const problem = checkNodeName(name);
      if (problem) return error(problem);
      const answer = await send(api.add.$post({ json: { name } }));
      // A node created by add becomes active.
      c.settings.set('node', name);
      return [text(saidIn(answer)), { kind: 'json', value: answer.result }];
    });

export const deleteNode =
  ({ api, active }: NodeAccess): CommandHandler =>
  (c) =>
    withApiErrors(async () => {
      const name = active(c.settings);
      if (!name) return error(MESSAGES.noneSelected);
      const answer = await send(api.delete.$post({ json: { name } }));
      c.settings.reset('node');
      return text(saidIn(answer));
    });

export const setNodeOwner =
  ({ api, active }: NodeAccess): CommandHandler =>
  (c) =>
    withApiErrors(async () => {
      const name = active(c.settings);
      if (!name) return error(MESSAGES.noneSelected);
      const answer = await send(api.update[':name'].owner.$post({ param: { name: encodeURIComponent(name) }, json: { owner: c.args.owner ?? '' } }));
      return text(saidIn(answer));
    });

export const setNodeKey =
  ({ api, active }: NodeAccess): CommandHandler =>
  (c) =>
    withApiErrors(async () => {
      const name = active(c.settings);
      if (!name) return error(MESSAGES.noneSelected);
      const key = (c.args.key ?? '').toLowerCase();
      const checked = checkNodeSetting(key, c.args.value ?? '');
      if (!checked.ok) return error(checked.error);
      const answer = await send(api.update[':name'].settings.$post({ param: { name: encodeURIComponent(name) }, json: { key, value: c.args.value ?? '' } }));
      return [text(saidIn(answer)), { kind: 'json', value: answer.result }];
    });
