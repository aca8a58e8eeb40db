import { useShell, useShellState, useT } from '../context.tsx';

/** The dot (front) / cross (back) button at the top that switches views. */
export function ViewToggle() {
  const view = useShellState((s) => s.view);
  const { controller } = useShell();
  const t = useT();
  const back = view === 'back';
  return (
    <button
      type="button"
      className="view-toggle"
      data-testid="view-toggle"
      data-state={back ? 'cross' : 'dot'}
      aria-label={t(back ? 'ui.toFront' : 'ui.toBack')}
      aria-expanded={back}
      onClick={() => controller.toggleView()}
    >
      {back ? '×' : '•'}
    </button>
  );
}
