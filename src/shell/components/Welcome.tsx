import { useSetting, useShellState, useT } from '../context.tsx';

/** The operator's welcome message for anonymous visitors, and the demo label. Plain text only. */
export function Welcome() {
  const info = useShellState((s) => s.systemInfo);
  const hasOutput = useShellState((s) => s.outputs.length > 0);
  const user = useSetting<string>('user');
  const t = useT();
  return (
    <>
      {info.demo && <div className="demo-banner">{t('ui.demo')}</div>}
      {!user && !hasOutput && info.welcome_message && <div className="welcome">{info.welcome_message}</div>}
    </>
  );
}
