// `:search "words"` and `:search open <session> <time>`, in the browser and the terminal alike. Results are
// a list whose items carry their matched words as ranges (the page marks them as text, never
// as markup from the log) and the command that opens them (Enter or a click in the page).
import { effect, error, PlatformRef, send, text, typedClient, usageOf, withApiErrors, type ListItem, type Output, type PluginContext } from '../../../src/core/index.ts';
import type { SearchRoutes } from '../server/index.ts';
import { SEARCH_TEXT_MAX, type LogMatch } from './api.ts';

export { MESSAGES } from './messages.ts';

const pad = (n: number) => String(n).padStart(2, '0');
/** A log time as local `YYYY-MM-DD HH:MM`. */
export function formatTime(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A result as a list item: `n. session title · time · snippet`, the snippet's marks moved along. */
export function resultItem(match: LogMatch, n: number): ListItem {
  const head = `${n}. ${match.title || match.session} · ${formatTime(match.time)} · `;
  return {
    text: head + match.snippet,
    marks: match.marks.map(([start, end]) => [start + head.length, end + head.length]),
    run: `:search open ${match.session} ${match.time}`,
  };
}

export function activateSearch(ctx: PluginContext): void {
  const api = () => typedClient<SearchRoutes>(ctx.services.get(PlatformRef).api).api.log.search;
  ctx.handle('search', (c) =>
    withApiErrors(async (): Promise<Output | Output[]> => {
      const query = (c.args.text ?? '').trim();
      if (!query) return error(c.t('msg.searchEmpty'));
      if (query.length > SEARCH_TEXT_MAX) return error(c.t('msg.searchTooLong', { max: SEARCH_TEXT_MAX }));
      const found = (await send(api().$get({ query: { text: query } }))).result.logs;
      if (!found.length) return error(c.t('msg.noLogFound'));
      return [{ kind: 'list', title: c.t('title.results', { query }), items: found.map((m, i) => resultItem(m, i + 1)) }, text(c.t('msg.openHint'))];
    }),
  );

  ctx.handle('search.open', (c) =>
    withApiErrors(async (): Promise<Output | Output[]> => {
      const [session, time] = [c.args.session ?? '', c.args.time ?? ''].map((v) => v.trim());
      if (!/^\d{1,16}$/.test(session!) || !/^\d{1,16}$/.test(time!)) return error(c.t('msg.openUsage', { openUsage: usageOf(c.spec) }));
      const log = (await send(api().open.$get({ query: { session: session!, time: time! } }))).result;
      // Opened as the arrow keys open a log: attached at it, so Left and Right walk on from there
      // and a question sent here branches from it.
      ctx.settings.set('session', log.session);
      ctx.settings.set('head', log.head);
      ctx.settings.set('time', log.time);
      ctx.settings.set('historyIndex', -1);
      return [
        text(c.t('msg.opened', { session: log.session, time: formatTime(log.time) })),
        text(log.input),
        { kind: 'markdown', text: log.output },
        effect({ type: 'result', previews: log.images, info: { model: log.model, raw: log.output, session: log.session } }),
      ];
    }),
  );
}
