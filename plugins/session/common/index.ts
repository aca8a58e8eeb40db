// Handlers of the session commands and of session and log navigation, on top of the API
// client. They run in the browser, the CLI and the tests; the server decides who may read
// what (see ../server/index.ts).
import {
  ApiError,
  send,
  effect,
  error,
  PlatformRef,
  SESSION_ID_MAX,
  SESSION_ID_MIN,
  text,
  previewLine,
  typedClient,
  type Output,
  type PluginContext,
  type SettingsStore,
  type ShellEvents,
  type Translate,
} from '../../../src/core/index.ts';
import type { SessionRoutes } from '../server/index.ts';
import type { PublicLog, SessionDetail, SessionSummary } from './api.ts';

export type { PublicLog, SessionDetail, SessionSummary } from './api.ts';

/** Spec part 5: required, digits only, strictly inside the session id range. */
export function checkSessionId(raw: string | undefined): { id: number } | { error: 'sessionRequired' | 'sessionNotNumber' | 'timeTraveler' } {
  const value = (raw ?? '').trim();
  if (!value) return { error: 'sessionRequired' };
  if (!/^\d+$/.test(value)) return { error: 'sessionNotNumber' };
  const id = Number(value);
  if (!(id > SESSION_ID_MIN && id < SESSION_ID_MAX)) return { error: 'timeTraveler' };
  return { id };
}

const pad = (n: number) => String(n).padStart(2, '0');
/** A log time as local `YYYY-MM-DD HH:MM:SS`. */
export function formatTime(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** Spec part 3: previews keep 150 characters plus '...'; on one line, so tables stay readable. */
export const preview = (value: string) => previewLine(value);

export function previewTable(t: Translate, logs: readonly PublicLog[], withSession = false): Output {
  const columns = [...(withSession ? [t('table.session')] : []), t('table.time'), t('table.input'), t('table.output')];
  const rows = logs.map((log) => [...(withSession ? [String(log.session)] : []), formatTime(log.time), preview(log.input), preview(log.output)]);
  return { kind: 'table', columns, rows };
}

/** Attaching sets session, time (the latest log) and head (spec part 4). */
export function applyAttach(settings: SettingsStore, session: SessionDetail): void {
  const time = session.time ?? session.id;
  settings.set('session', session.id);
  settings.set('time', time);
  settings.set('head', time);
  settings.set('historyIndex', -1);
}

/** The model-info line and previews of a saved answer (a no-op outside the browser). */
function resultEffect(log: PublicLog | undefined, session: number): Output {
  return effect({ type: 'result', previews: log?.images ?? [], info: log ? { model: log.model, raw: log.output, session } : null });
}

function attachedOutputs(t: Translate, session: SessionDetail): Output[] {
  return [
    text(t('msg.attached', { id: session.id })),
    session.logs.length ? previewTable(t, session.logs) : text(t('msg.noLogFound')),
    resultEffect(session.logs.at(-1), session.id),
  ];
}

/** The server's refusal as an error line (by its code when it came with one, so it is translated). */
const refusal = (err: ApiError): Output => error(err.said ?? err.message);

/** Any failure the handlers do not expect becomes the server's error line. */
async function guard(run: () => Promise<Output[]>): Promise<Output[]> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof ApiError) return [refusal(err)];
    throw err;
  }
}

export function activateSession(ctx: PluginContext): void {
  const { session: sessionApi, log: logApi } = typedClient<SessionRoutes>(ctx.services.get(PlatformRef).api).api;
  /** One user's sessions (`/api/session/list/{user}`). */
  const sessionsOf = async (user: string): Promise<SessionSummary[]> =>
    (await send(sessionApi.list[':user'].$get({ param: { user: encodeURIComponent(user) } }))).result.sessions;
  const sessionById = async (id: number): Promise<SessionDetail> => (await send(sessionApi[':id'].$get({ param: { id: String(id) } }))).result;
  const { settings } = ctx;
  const current = () => settings.get<number>('session') || 0;

  // Tab after `:session attach`: the ids of one's own sessions, newest first (a login's; an
  // anonymous visitor's sessions are not listed, as `:session ls` says).
  ctx.completion('session', async () => {
    const me = settings.get<string>('user');
    if (!me) return [];
    try {
      return (await sessionsOf(me)).map((s) => String(s.id));
    } catch {
      return [];
    }
  });

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

  ctx.handle('session', (c) =>
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
    }),
  );

  ctx.handle('session.ls', (c) =>
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
    }),
  );

  ctx.handle('session.attach', async (c) => {
    const checked = checkSessionId(c.args.id);
    if ('error' in checked) return error(c.t(`msg.${checked.error}`));
    return attach(c.t, checked.id);
  });

  ctx.handle('session.share', (c) =>
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
    }),
  );

  ctx.handle('log', (c) =>
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
    }),
  );

  ctx.handle('search', (c) =>
    guard(async () => {
      const query = (c.args.text ?? '').trim();
      if (!query) return [error(c.t('msg.searchEmpty'))];
      const logs = (await send(logApi.search.$get({ query: { text: query } }))).result.logs;
      return logs.length ? [previewTable(c.t, logs, true)] : [error(c.t('msg.noLogFound'))];
    }),
  );

  // Keys and swipes (spec part 2): the shell emits 'navigate' (between sessions only when logged in).
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
