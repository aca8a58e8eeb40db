// `:session attach <id>` (the id checked here first) and `:session share`.
import { ApiError, error, send, text, type CommandHandler } from '../../../../src/core/index.ts';
import { checkSessionId, guard } from '../views.ts';
import type { SessionAccess } from './shared.ts';

export const attachSession =
  ({ attach }: SessionAccess): CommandHandler =>
  async (c) => {
    const checked = checkSessionId(c.args.id);
    if ('error' in checked) return error(c.t(`msg.${checked.error}`));
    return attach(c.t, checked.id);
  };

export const shareSession =
  ({ sessionApi, current }: SessionAccess): CommandHandler =>
  (c) =>
    guard(async () => {
      const id = current();
      if (!id) return [error(c.t('msg.noSessionAttached'))];
      try {
        await send(sessionApi.share.$post({ json: { session: id } }));
      } catch (err) {
        if (err instanceof ApiError && err.status === 404) return [error(c.t('msg.noSessionFound'))];
        if (err instanceof ApiError && err.status === 403) return [error(c.t('msg.shareOwnOnly'))];
        throw err;
      }
      return [text(c.t('msg.shared', { command: `:session attach ${id}` }))];
    });
