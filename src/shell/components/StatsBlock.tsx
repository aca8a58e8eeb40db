import { useSetting, useShellState, useT } from '../context.tsx';

/** The stats block (`:stats on`): temperature, top_p, token_ct, func, mem, role, stores, node, eval. */
export function StatsBlock() {
  const stats = useShellState((s) => s.stats);
  const on = useSetting<boolean>('useStats');
  const t = useT();
  return (
    <div className="stats" data-testid="stats" aria-label={t('ui.stats')} hidden={!on || !stats}>
      {stats &&
        Object.entries(stats).map(([key, value]) => (
          <span key={key} className="stat">
            {key}: {value}
          </span>
        ))}
    </div>
  );
}
