// What the session commands share: the typed session and log API, the attached session (the
// `session` setting), and attaching one.
import { ApiError, error, PlatformRef, send, typedClient, type Output, type PluginContext, type Translate } from '../../../../src/core/index.ts';
import type { SessionRoutes } from '../../server/index.ts';
import type { SessionDetail, SessionSummary } from '../api.ts';
import { applyAttach, attachedOutputs, refusal } from '../views.ts';

export function sessionAccess(ctx: PluginContext) {
  const { session: sessionApi, log: logApi } = typedClient<SessionRoutes>(ctx.services.get(PlatformRef).api).api;
  /** One user's sessions (`/api/session/list/{user}`). */
  const sessionsOf = async (user: string): Promise<SessionSummary[]> =>
    (await send(sessionApi.list[':user'].$get({ param: { user: encodeURIComponent(user) } }))).result.sessions;
  const sessionById = async (id: number): Promise<SessionDetail> => (await send(sessionApi[':id'].$get({ param: { id: String(id) } }))).result;
  const { settings } = ctx;
  const current = () => settings.get<number>('session') || 0;

  async function attach(t: Translate, id: number): Promise<Output[]> {
    let session: SessionDetail;
    try {
      session = await sessionById(id);
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) return [error(t('msg.noSessionFound'))];
      if (err instanceof ApiError && err.status === 400) return [refusal(err)];
      return [error(t('msg.attachError'))];
    }
    applyAttach(settings, session);
    return attachedOutputs(t, session);
  }

  return { sessionApi, logApi, settings, sessionsOf, sessionById, current, attach };
}

export type SessionAccess = ReturnType<typeof sessionAccess>;
