// `:session ls`: everybody's sessions for root, one's own for the others; the attached one starred.
import { ApiError, error, send, type CommandHandler } from '../../../../src/core/index.ts';
import type { SessionSummary } from '../api.ts';
import { guard } from '../views.ts';
import type { SessionAccess } from './shared.ts';

export const listSessions =
  ({ sessionApi, settings, sessionsOf, current }: SessionAccess): CommandHandler =>
  (c) =>
    guard(async () => {
      let all = true;
      let list: SessionSummary[];
      try {
        list = (await send(sessionApi.list.$get())).result.sessions;
      } catch (err) {
        // Only root lists everybody's sessions; the others get their own.
        if (!(err instanceof ApiError) || err.status !== 403) throw err;
        all = false;
        list = await sessionsOf(c.identity.username ?? settings.get<string>('user'));
      }
      if (!list.length) return [error(c.t('msg.noSessionFound'))];
      const here = current();
      const columns = [c.t('table.session'), ...(all ? [c.t('table.user')] : []), c.t('table.input'), c.t('table.logs')];
      const rows = list.map((s) => [
        `${s.id === here ? '*' : ''}${s.id}`,
        ...(all ? [s.user || c.t('table.anonymous')] : []),
        s.input,
        String(s.length),
      ]);
      return [{ kind: 'table', columns, rows }];
    });
