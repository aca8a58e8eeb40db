// The web commands, in the browser and the terminal alike: `:web "query"` lists numbered
// results, `:web open <n|url>` reads a page for the next question (its `+page[url]` marker goes
// into the input, as an attached file's does), `:web` lists the pages read. Everything shown
// of the web is plain text: tables and text lines, never markdown or markup a page chose.
import { effect, error, PlatformRef, send, text, typedClient, withApiErrors, type Output, type PluginContext } from '../../../src/core/index.ts';
import type { WebRoutes } from '../server/index.ts';
import type { SearchResult } from './api.ts';
import { MESSAGES } from './messages.ts';
import { pageMarker } from './marker.ts';

export { MESSAGES };

export function activateWeb(ctx: PluginContext): void {
  const api = () => typedClient<WebRoutes>(ctx.services.get(PlatformRef).api).api.web;
  // The last search's results, for `:web open <n>` (this tab's, or this terminal's).
  let last: SearchResult[] = [];

  // After a reload, a marker goes back into the input only while its read still waits on the
  // server for this person (a question sent as the tab was left took it).
  ctx.attached(async (markers) => {
    const { result } = await send(api().reads.$get());
    const waiting = result.reads.filter((r) => r.pending).map((r) => pageMarker(r.url));
    return markers.filter((m) => waiting.includes(m));
  });

  ctx.handle('web', (c) =>
    withApiErrors(async (): Promise<Output | Output[]> => {
      const query = c.args.query?.trim();
      if (query === undefined) {
        const { result } = await send(api().reads.$get());
        if (!result.reads.length) return text(c.t('msg.noReads'));
        return {
          kind: 'table',
          title: c.t('title.reads'),
          columns: [c.t('col.title'), c.t('col.url'), c.t('col.chars'), c.t('col.state')],
          rows: result.reads.map((r) => [r.title, r.url, c.t('cell.chars', { chars: r.chars }), r.pending ? c.t('state.pending') : c.t('state.read')]),
        };
      }
      if (!query) return error(MESSAGES.emptyQuery);
      // Said in the page while the backend answers (a slow network showed nothing until it had);
      // the terminal's stderr stays for errors.
      if (c.env === 'browser') c.events.emit('output', [text(MESSAGES.searching)]);
      const { result } = await send(api().search.$post({ json: { query } }));
      last = result.results;
      if (!last.length) return text(MESSAGES.noResults(query));
      return [
        { kind: 'table', title: c.t('title.results', { query }), columns: ['#', c.t('col.title'), c.t('col.site'), c.t('col.snippet')], rows: last.map((r) => [String(r.n), r.title, r.site, r.snippet]) },
        text(c.t('msg.openHint')),
      ];
    }),
  );

  ctx.handle('web.open', (c) =>
    withApiErrors(async () => {
      const target = c.args.target?.trim() ?? '';
      let url = target;
      if (/^\d+$/.test(target)) {
        const hit = last.find((r) => r.n === Number(target));
        if (!hit) return error(c.t('msg.noSuchResult', { n: target }));
        url = hit.url;
      } else if (!/^https?:\/\//i.test(target)) {
        return error(MESSAGES.badUrl);
      }
      if (c.env === 'browser') c.events.emit('output', [text(MESSAGES.reading(url))]);
      const { result } = await send(api().open.$post({ json: { url } }));
      const lines = [c.t('msg.attached', { title: result.title, url: result.url, chars: result.chars })];
      // Each cut in the interface's language (a server without codes says it in English).
      const cuts = result.cuts?.map((cut) => c.t(`cut.${cut.why}`, cut)).join('; ') || result.cut;
      if (cuts) lines.push(c.t('msg.cut', { what: cuts }));
      // The page goes with the question that carries its marker, as an attached file does.
      return [...lines.map((line) => text(line)), effect({ type: 'attach', marker: pageMarker(result.url) })];
    }),
  );
}
