import { useEffect, useRef } from 'react';
import { useShell, useShellState, useT } from '../context.tsx';
import { onSwipe } from '../gestures.ts';
import { isolated, OutputView } from './OutputView.tsx';

/**
 * The output area: the current result. Swipes move between logs (right: previous). A polite
 * live region, busy while an answer streams, so a screen reader reads the answer once it is
 * whole rather than every frame of it. A command that is taking a while shows a working line
 * (a status) in place of the last result, until its answer replaces it (shown.ts).
 */
export function OutputArea() {
  const outputs = useShellState((s) => s.outputs);
  const notice = useShellState((s) => s.notice);
  const runs = useShellState((s) => s.runs);
  const generating = useShellState((s) => s.generating);
  const working = useShellState((s) => s.working);
  const { controller } = useShell();
  const t = useT();
  const ref = useRef<HTMLDivElement>(null);
  useEffect(
    () =>
      ref.current
        ? onSwipe(ref.current, (swipe) => controller.navigate('log', swipe === 'right' ? 'previous' : 'next'))
        : undefined,
    [controller],
  );
  return (
    <div className="output" data-testid="output" data-runs={runs} ref={ref} aria-live="polite" aria-busy={generating} aria-label={t('ui.output')}>
      {working ? (
        <div className="out-working" role="status">
          {isolated(t('msg.running', { cmd: working }))}
        </div>
      ) : (
        <>
          {outputs.map((output, i) => (
            <OutputView key={i} output={output} />
          ))}
          {/* A hint may name a command (`:login <username> <password>`): left to right in any language. */}
          {notice && <div className="out-notice">{isolated(notice)}</div>}
        </>
      )}
    </div>
  );
}
