import { evalColour } from '../../core/host/index.ts';
import { useShellState, useT } from '../context.tsx';

/** The self-evaluation score, coloured per spec part 9; '?' (grey) when the evaluator gave none, as in the stats. */
export function EvalBlock() {
  const evaluation = useShellState((s) => s.evaluation);
  const t = useT();
  return (
    <div
      className="eval"
      data-testid="eval"
      aria-label={t('ui.evaluation')}
      hidden={!evaluation}
      data-colour={evaluation ? evalColour(evaluation.score) : undefined}
    >
      {evaluation && (
        <>
          <span className="eval-score">{Number.isFinite(evaluation.score) ? evaluation.score : '?'}</span> {evaluation.reason}
        </>
      )}
    </div>
  );
}
