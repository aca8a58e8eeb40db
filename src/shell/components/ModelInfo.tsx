import type { Translate } from '../../core/index.ts';
import { modelInfoCopy } from '../copy.ts';
import { useShell, useShellState, useT } from '../context.tsx';

/** Shares the session (owner only) so that the copied command works for others; the server's error otherwise. */
const shareSession = (session: number, t: Translate): Promise<string | undefined> =>
  fetch('/api/session/share', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ session }) }).then(
    async (r) => (r.ok ? undefined : ((await r.json().catch(() => ({}))) as { error?: string }).error || t('msg.requestFailed', { status: r.status })),
    () => t('msg.offline'),
  );

/**
 * The model-info line under an answer. A click copies the raw result; with Ctrl or Cmd held
 * it shares the session and copies a `:session attach <id>` command.
 */
export function ModelInfo() {
  const info = useShellState((s) => s.modelInfo);
  const { controller } = useShell();
  const t = useT();
  if (!info) return <div className="model-info" data-testid="model-info" hidden />;
  const copy = async (e: React.MouseEvent) => {
    const { text, kind } = modelInfoCopy(info, e.ctrlKey || e.metaKey);
    const problem = kind === 'attach' ? await shareSession(info.session, t) : undefined;
    try {
      await navigator.clipboard.writeText(text);
      controller.notice(problem ?? t(kind === 'attach' ? 'ui.copiedAttach' : 'ui.copied'));
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
