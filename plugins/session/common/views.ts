// What the session commands show and keep: a session id checked, times and previews, a session
// attached (its settings and its outputs), and the server's refusals as error lines.
import { ApiError, effect, error, previewLine, SESSION_ID_MAX, SESSION_ID_MIN, text, type Output, type SettingsStore, type Translate } from '../../../src/core/index.ts';
import type { PublicLog, SessionDetail } from './api.ts';

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

export function previewTable(t: Translate, logs: readonly PublicLog[]): Output {
  const columns = [t('table.time'), t('table.input'), t('table.output')];
  const rows = logs.map((log) => [formatTime(log.time), preview(log.input), preview(log.output)]);
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
export function resultEffect(log: PublicLog | undefined, session: number): Output {
  return effect({ type: 'result', previews: log?.images ?? [], info: log ? { model: log.model, raw: log.output, session } : null });
}

export function attachedOutputs(t: Translate, session: SessionDetail): Output[] {
  return [
    text(t('msg.attached', { id: session.id })),
    session.logs.length ? previewTable(t, session.logs) : text(t('msg.noLogFound')),
    resultEffect(session.logs.at(-1), session.id),
  ];
}

/** The server's refusal as an error line (by its code when it came with one, so it is translated). */
export const refusal = (err: ApiError): Output => error(err.said ?? err.message);

/** Any failure the handlers do not expect becomes the server's error line. */
export async function guard(run: () => Promise<Output[]>): Promise<Output[]> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof ApiError) return [refusal(err)];
    throw err;
  }
}
