// `:log`: the attached session's logs.
import { ApiError, error, send, type CommandHandler } from '../../../../src/core/index.ts';
import type { PublicLog } from '../api.ts';
import { guard, previewTable } from '../views.ts';
import type { SessionAccess } from './shared.ts';

export const listLogs =
  ({ logApi, current }: SessionAccess): CommandHandler =>
  (c) =>
    guard(async () => {
      const id = current();
      if (!id) return [error(c.t('msg.noSessionAttached'))];
      let logs: PublicLog[];
      try {
        logs = (await send(logApi.list.$get({ query: { session: String(id) } }))).result.logs;
      } catch (err) {
        if (err instanceof ApiError && err.status === 404) return [error(c.t('msg.noLogFound'))];
        throw err;
      }
      return logs.length ? [previewTable(c.t, logs)] : [error(c.t('msg.noLogFound'))];
    });
