// Handlers of the session commands and of session and log navigation, on top of the API
// client, one module per command in commands/. They run in the browser, the CLI and the tests;
// the server decides who may read what (see ../server/index.ts).
import type { PluginContext } from '../../../src/core/index.ts';
import { attachSession, shareSession } from './commands/attach.ts';
import { listSessions } from './commands/list.ts';
import { listLogs } from './commands/logs.ts';
import { followNavigation } from './commands/navigate.ts';
import { sessionAccess } from './commands/shared.ts';
import { showSession } from './commands/show.ts';

export type { PublicLog, SessionDetail, SessionSummary } from './api.ts';
export { applyAttach, checkSessionId, formatTime, preview, previewTable } from './views.ts';

export function activateSession(ctx: PluginContext): void {
  const sessions = sessionAccess(ctx);

  // Tab after `:session attach`: the ids of one's own sessions, newest first (a login's; an
  // anonymous visitor's sessions are not listed, as `:session ls` says).
  ctx.completion('session', async () => {
    const me = ctx.settings.get<string>('user');
    if (!me) return [];
    try {
      return (await sessions.sessionsOf(me)).map((s) => String(s.id));
    } catch {
      return [];
    }
  });

  ctx.handle('session', showSession(sessions));
  ctx.handle('session.ls', listSessions(sessions));
  ctx.handle('session.attach', attachSession(sessions));
  ctx.handle('session.share', shareSession(sessions));
  ctx.handle('log', listLogs(sessions));
  followNavigation(ctx, sessions);
}
