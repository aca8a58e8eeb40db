import { useEffect, useState } from 'react';
import { send, createApiClient, typedClient, type TokenPair, type UsageRecord } from '../../core/index.ts';
import type { UserRoutes } from '../../../plugins/user/server/index.ts';
import { useSetting, useT } from '../context.tsx';

const WINDOWS = ['daily', 'weekly', 'monthly'] as const;

type Month = 'this_month' | 'last_month';

/** A table of models with a cell for this month and one for the last. */
function ByMonth<R extends { model: string }>({ testid, rows, cell }: { testid: string; rows: R[]; cell: (row: R, month: Month) => string }) {
  const t = useT();
  return (
    <table data-testid={testid}>
      <thead>
        <tr>
          <th>{t('usage.model')}</th>
          <th>{t('usage.thisMonth')}</th>
          <th>{t('usage.lastMonth')}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.model}>
            <td>{row.model}</td>
            <td>{cell(row, 'this_month')}</td>
            <td>{cell(row, 'last_month')}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The caller's usage record (`GET /api/user/usage`). */
const fetchUsage = async (): Promise<UsageRecord> => (await send(typedClient<UserRoutes>(createApiClient()).api.user.usage.$get())).result;

/**
 * The Usage page (spec part 2): questions answered this month and last, each use limit of the
 * role with a progress bar, 'The usage limitation has been reached.' once one is, and tokens
 * and fees per model; for super users and root, the whole service's by model too. Without a
 * login, the spec's not-logged-in message.
 */
export function UsagePage({ load = fetchUsage }: { load?: () => Promise<UsageRecord | undefined> } = {}) {
  const user = useSetting<string>('user');
  const t = useT();
  const [record, setRecord] = useState<UsageRecord | undefined>();
  const [failed, setFailed] = useState('');
  useEffect(() => {
    if (!user) return;
    let live = true;
    load()
      .then((result) => live && setRecord(result))
      .catch((err: Error & { key?: string }) => live && setFailed(err.key ? t(err.key) : err.message));
    return () => {
      live = false;
    };
  }, [user, t, load]);

  const number = (n: number) => n.toLocaleString();
  const money = (n: number) => `$${n.toFixed(n && n < 0.01 ? 5 : 2)}`;
  const tokens = (p: TokenPair) => t('usage.tokens', { input: number(p.input), output: number(p.output) });
  const frequencies = record?.use_count_frequencies;
  return (
    <section className="page usage" data-testid="page-usage">
      <h1>{t('usage.title')}</h1>
      {!user && <p>{t('usage.notLoggedIn')}</p>}
      {failed && <p className="out-error">{failed}</p>}
      {record && frequencies && (
        <>
          {frequencies.exceeded && <p className="out-error" data-testid="usage-exceeded">{t('usage.limitReached')}</p>}
          {record.balance !== undefined && (
            <p data-testid="usage-balance">{t('usage.feesAgainstBalance', { fees: money(record.fees_total ?? 0), balance: money(record.balance) })}</p>
          )}
          <h2>{t('usage.questions')}</h2>
          <table className="usage-summary">
            <tbody>
              <tr>
                <th scope="row">{t('usage.thisMonth')}</th>
                <td data-testid="usage-this-month">{number(record.use_count_monthly.this_month)}</td>
              </tr>
              <tr>
                <th scope="row">{t('usage.lastMonth')}</th>
                <td>{number(record.use_count_monthly.last_month)}</td>
              </tr>
            </tbody>
          </table>
          <h2>{t('usage.limits')}</h2>
          <table className="usage-summary">
            <tbody>
              {WINDOWS.map((w) => {
                const used = frequencies[w];
                const limit = frequencies[`${w}_limit`];
                return (
                  <tr key={w} data-testid={`usage-${w}`}>
                    <th scope="row">{t(`usage.${w}`)}</th>
                    <td>{limit === null ? t('usage.noLimit', { used: number(used) }) : t('usage.ofLimit', { used: number(used), limit: number(limit) })}</td>
                    <td>{limit !== null && <progress max={limit} value={Math.min(used, limit)} aria-label={t(`usage.${w}`)} />}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          <h2>{t('usage.models')}</h2>
          {record.model_usage.length === 0 ? (
            <p>{t('usage.none')}</p>
          ) : (
            <ByMonth testid="usage-models" rows={record.model_usage} cell={(m, month) => `${tokens(m.token[month])} · ${money(m.fee[month])}`} />
          )}
          {record.services_usage && (
            <>
              <h2>{t('usage.services')}</h2>
              <ByMonth
                testid="usage-services"
                rows={record.services_usage}
                cell={(m, month) => `${t('usage.serviceLine', { uses: number(m.uses[month]), tokens: tokens(m.token[month]) })} · ${money(m.fee[month])}`}
              />
            </>
          )}
        </>
      )}
    </section>
  );
}
