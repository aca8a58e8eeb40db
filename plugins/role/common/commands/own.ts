// One's own roles on the server: `:role add` (the new role becomes active), `:role set` (a new
// prompt), `:role del` (a deleted active role is no longer set).
import { error, saidIn, send, text, withApiErrors, type CommandHandler } from '../../../../src/core/index.ts';
import { MESSAGES } from '../messages.ts';
import { checkPrompt, checkRoleName } from '../rules.ts';
import { activate, type RoleAccess } from './shared.ts';

export const addRole =
  ({ api }: RoleAccess): CommandHandler =>
  (c) =>
    withApiErrors(async () => {
      const name = c.args.name ?? '';
      const prompt = c.args.prompt ?? '';
      const problem = checkRoleName(name) ?? checkPrompt(prompt);
      if (problem) return error(problem);
      const answer = await send(api.add.$post({ json: { roleName: name, prompt } }));
      // A new role becomes the active one (and memory resets, as with `:role use`).
      activate(c.settings, name);
      return [text(saidIn(answer) || MESSAGES.added(name)), text(c.t('msg.using', { name }))];
    });

export const setRolePrompt =
  ({ api }: RoleAccess): CommandHandler =>
  (c) =>
    withApiErrors(async () => {
      const name = c.args.name ?? '';
      const prompt = c.args.prompt ?? '';
      const problem = checkRoleName(name) ?? checkPrompt(prompt);
      if (problem) return error(problem);
      const answer = await send(api.update.$post({ json: { roleName: name, prompt } }));
      return text(saidIn(answer) || MESSAGES.updated(name));
    });

export const deleteRole =
  ({ api }: RoleAccess): CommandHandler =>
  (c) =>
    withApiErrors(async () => {
      const name = c.args.name ?? '';
      const answer = await send(api.delete.$post({ json: { roleName: name } }));
      // A deleted active role is no longer set (a system role of that name is not chosen instead).
      if (c.settings.get<string>('role') === name) c.settings.reset('role');
      return text(saidIn(answer) || MESSAGES.deleted(name));
    });
