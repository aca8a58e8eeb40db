// Keys and swipes (spec part 2): the shell emits 'navigate' (between sessions only when logged
// in); the previous or next log of the attached session, or the previous or next session.
import { ApiError, effect, error, send, text, type Output, type PluginContext, type ShellEvents } from '../../../../src/core/index.ts';
import type { PublicLog, SessionDetail } from '../api.ts';
import { applyAttach, attachedOutputs, refusal, resultEffect } from '../views.ts';
import type { SessionAccess } from './shared.ts';

export function followNavigation(ctx: PluginContext, { sessionApi, logApi, settings, current }: SessionAccess): void {
  async function navigateLog(direction: 'previous' | 'next'): Promise<Output[]> {
    const t = ctx.t;
    const session = current();
    const time = settings.get<number>('time') || 0;
    if (!session) return [error(t('msg.noLogFound'))];
    let log: PublicLog;
    try {
      const query = { session: String(session), time: String(time) };
      log = (await send(direction === 'previous' ? logApi.prev.$get({ query }) : logApi.next.$get({ query }))).result.log;
    } catch (err) {
      // Nothing further that way: the log in view stays, with a line under it that says so
      // (it was replaced, and the next key then seemed to skip a log).
      if (err instanceof ApiError && err.status === 404) return [effect({ type: 'notice', text: t('msg.noLogFound') })];
      if (err instanceof ApiError) return [refusal(err)];
      throw err;
    }
    // Sending from here branches: the chat sends this time, older than the session's head.
    settings.set('time', log.time);
    return [text(log.input), { kind: 'markdown', text: log.output }, resultEffect(log, session)];
  }

  async function navigateSession(direction: 'previous' | 'next'): Promise<Output[]> {
    const t = ctx.t;
    let session: SessionDetail;
    try {
      const query = { session: String(current()) };
      session = (await send(direction === 'previous' ? sessionApi.prev.$get({ query }) : sessionApi.next.$get({ query }))).result;
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) return [error(t(direction === 'previous' ? 'msg.noPreviousSession' : 'msg.noNextSession'))];
      if (err instanceof ApiError) return [refusal(err)];
      throw err;
    }
    applyAttach(settings, session);
    return attachedOutputs(t, session);
  }

  // One navigation at a time, in the order the keys were pressed: each starts from the
  // session and time the previous one left.
  let queue: Promise<void> = Promise.resolve();
  const onNavigate = ({ target, direction }: ShellEvents['navigate']) => {
    queue = queue.then(async () => {
      let outputs: Output[];
      try {
        outputs = target === 'log' ? await navigateLog(direction) : await navigateSession(direction);
      } catch (err) {
        outputs = [error(err instanceof Error ? err.message : String(err))];
      }
      ctx.events.emit('output', outputs);
    });
  };
  ctx.events.on('navigate', onNavigate);
  ctx.onDispose(() => ctx.events.off('navigate', onNavigate));
}
