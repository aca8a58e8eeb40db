import { modelInfoCopy } from '../copy.ts';
import { useShell, useShellState, useT } from '../context.tsx';

/**
 * The model-info line under an answer. A click copies the raw result; with Ctrl or Cmd held
 * it copies a `:session attach <id>` command that shares the session.
 */
export function ModelInfo() {
  const info = useShellState((s) => s.modelInfo);
  const { controller } = useShell();
  const t = useT();
  if (!info) return <div className="model-info" data-testid="model-info" hidden />;
  const copy = async (e: React.MouseEvent) => {
    const { text, kind } = modelInfoCopy(info, e.ctrlKey || e.metaKey);
    try {
      await navigator.clipboard.writeText(text);
      controller.notice(t(kind === 'attach' ? 'ui.copiedAttach' : 'ui.copied'));
    } catch {
      controller.notice(text);
    }
  };
  return (
    <button type="button" className="model-info" data-testid="model-info" onClick={copy}>
      {info.model}
    </button>
  );
}
