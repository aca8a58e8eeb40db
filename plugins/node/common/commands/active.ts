// Which node answers (the `node` setting): `:node use`, the Settings page's pick, `:node unuse`,
// `:node reset`.
import { error, resetSession, text, withApiErrors, type CommandContext, type CommandHandler, type SettingSetter } from '../../../../src/core/index.ts';
import { SERVER_MESSAGES } from '../../../../src/core/serverMessages.ts';
import { MESSAGES } from '../messages.ts';
import type { NodeAccess } from './shared.ts';

const use = ({ details }: NodeAccess, c: CommandContext, name: string) =>
  withApiErrors(async () => {
    const found = await details(name);
    if (!found) return error(MESSAGES.notFound);
    c.settings.set('node', found.name);
    return text(c.t('msg.using', { name: found.name }));
  });

export const useNode =
  (nodes: NodeAccess): CommandHandler =>
  (c) =>
    use(nodes, c, c.args.name ?? '');

/** The Settings page picks a node as `:node use` does (an empty value unsets it). */
export const setNode =
  (nodes: NodeAccess): SettingSetter =>
  (value, c) => {
    if (!c.identity.loggedIn) return error(SERVER_MESSAGES.pleaseLogin);
    const name = value.trim();
    if (name) return use(nodes, c, name);
    c.settings.reset('node');
    return text(c.t('msg.unused', { name: nodes.active(c.settings) }));
  };

export const unuseNode =
  ({ active }: NodeAccess): CommandHandler =>
  (c) => {
    const current = active(c.settings);
    if (!current) return error(MESSAGES.noneSelected);
    if (current !== c.args.name) return error(MESSAGES.notExists);
    c.settings.reset('node');
    return text(c.t('msg.unused', { name: current }));
  };

export const resetNode: CommandHandler = (c) => {
  c.settings.reset('node');
  resetSession(c.settings);
  return text(c.t('msg.reset'));
};
