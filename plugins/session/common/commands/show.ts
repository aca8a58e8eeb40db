// `:session`: the attached session's details and its logs' previews.
import { ApiError, error, text, type CommandHandler } from '../../../../src/core/index.ts';
import type { SessionDetail } from '../api.ts';
import { formatTime, guard, previewTable } from '../views.ts';
import type { SessionAccess } from './shared.ts';

export const showSession =
  ({ current, sessionById }: SessionAccess): CommandHandler =>
  (c) =>
    guard(async () => {
      const id = current();
      if (!id) return [error(c.t('msg.noSessionAttached'))];
      let session: SessionDetail;
      try {
        session = await sessionById(id);
      } catch (err) {
        if (err instanceof ApiError && err.status === 404) return [error(c.t('msg.noSessionFound'))];
        throw err;
      }
      const rows: [string, string][] = [
        [c.t('table.session'), String(session.id)],
        [c.t('table.parent'), session.parent === null ? '-' : String(session.parent)],
        [c.t('table.created'), formatTime(session.created_at)],
        [c.t('table.logs'), String(session.length)],
        [c.t('table.shared'), session.shared ? c.t('table.yes') : c.t('table.no')],
      ];
      if (session.creator) rows.splice(1, 0, [c.t('table.creator'), session.creator]);
      return [
        { kind: 'table', columns: [c.t('table.item'), c.t('table.value')], rows },
        session.logs.length ? previewTable(c.t, session.logs) : text(c.t('msg.noLogFound')),
      ];
    });
