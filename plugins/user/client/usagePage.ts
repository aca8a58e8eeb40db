// The Usage page (spec part 2), in plain DOM: questions answered this month and last, each use
// limit of the role with a progress bar, 'The usage limitation has been reached.' once one is,
// and tokens and fees per model; for super users and root, the whole service's by model too.
// Without a login, the spec's not-logged-in message. Drawn again when the login changes.
import { el, send, PlatformRef, typedClient, type PageMount, type PluginContext, type TokenPair, type UsageRecord } from '../../../src/core/index.ts';
import type { UserRoutes } from '../server/index.ts';

const WINDOWS = ['daily', 'weekly', 'monthly'] as const;
type Month = 'this_month' | 'last_month';

export function usagePage(ctx: PluginContext): PageMount {
  const t = ctx.t;
  const fetchUsage = async () => (await send(typedClient<UserRoutes>(ctx.services.get(PlatformRef).api).api.user.usage.$get())).result;
  const number = (n: number) => n.toLocaleString();
  const money = (n: number) => `$${n.toFixed(n && n < 0.01 ? 5 : 2)}`;
  const tokens = (p: TokenPair) => t('usage.tokens', { input: number(p.input), output: number(p.output) });

  /** A table of models with a cell for this month and one for the last. */
  function byMonth<R extends { model: string }>(testid: string, rows: R[], cell: (row: R, month: Month) => string) {
    const head = el('tr', {}, el('th', {}, t('usage.model')), el('th', {}, t('usage.thisMonth')), el('th', {}, t('usage.lastMonth')));
    const body = el('tbody', {}, ...rows.map((row) => el('tr', {}, el('td', {}, row.model), el('td', {}, cell(row, 'this_month')), el('td', {}, cell(row, 'last_month')))));
    return el('table', { testid }, el('thead', {}, head), body);
  }

  function record(r: UsageRecord): Node[] {
    const frequencies = r.use_count_frequencies;
    const nodes: Node[] = [];
    if (frequencies.exceeded) nodes.push(el('p', { className: 'out-error', testid: 'usage-exceeded' }, t('usage.limitReached')));
    if (r.balance !== undefined) nodes.push(el('p', { testid: 'usage-balance' }, t('usage.feesAgainstBalance', { fees: money(r.fees_total ?? 0), balance: money(r.balance) })));
    const month = (label: string, value: number, testid?: string) => el('tr', {}, el('th', { scope: 'row' }, label), el('td', testid ? { testid } : {}, number(value)));
    nodes.push(
      el('h2', {}, t('usage.questions')),
      el('table', { className: 'usage-summary' }, el('tbody', {}, month(t('usage.thisMonth'), r.use_count_monthly.this_month, 'usage-this-month'), month(t('usage.lastMonth'), r.use_count_monthly.last_month))),
      el('h2', {}, t('usage.limits')),
    );
    const limits = WINDOWS.map((w) => {
      const used = frequencies[w];
      const limit = frequencies[`${w}_limit`];
      const bar = el('td');
      if (limit !== null) bar.append(el('progress', { max: limit, value: Math.min(used, limit), ariaLabel: t(`usage.${w}`) }));
      const words = limit === null ? t('usage.noLimit', { used: number(used) }) : t('usage.ofLimit', { used: number(used), limit: number(limit) });
      return el('tr', { testid: `usage-${w}` }, el('th', { scope: 'row' }, t(`usage.${w}`)), el('td', {}, words), bar);
    });
    nodes.push(el('table', { className: 'usage-summary' }, el('tbody', {}, ...limits)), el('h2', {}, t('usage.models')));
    nodes.push(r.model_usage.length === 0 ? el('p', {}, t('usage.none')) : byMonth('usage-models', r.model_usage, (m, mo) => `${tokens(m.token[mo])} · ${money(m.fee[mo])}`));
    if (r.services_usage) {
      nodes.push(
        el('h2', {}, t('usage.services')),
        byMonth('usage-services', r.services_usage, (m, mo) => `${t('usage.serviceLine', { uses: number(m.uses[mo]), tokens: tokens(m.token[mo]) })} · ${money(m.fee[mo])}`),
      );
    }
    return nodes;
  }

  return (root) => {
    const section = el('section', { className: 'page usage' });
    root.replaceChildren(section);
    let drawn = 0;
    const draw = () => {
      const turn = ++drawn;
      section.replaceChildren(el('h1', {}, t('usage.title')));
      if (!ctx.settings.get<string>('user')) {
        section.append(el('p', {}, t('usage.notLoggedIn')));
        return;
      }
      fetchUsage()
        .then((r) => turn === drawn && section.append(...record(r)))
        .catch((err: Error & { key?: string }) => {
          // An API error's key is the shell's unless it names its namespace.
          const said = err.key ? t(err.key.includes(':') ? err.key : `shell:${err.key}`) : err.message;
          if (turn === drawn) section.append(el('p', { className: 'out-error' }, said));
        });
    };
    draw();
    const off = ctx.settings.onChange('user', draw);
    return () => {
      drawn++;
      off();
    };
  };
}
