// Error boundaries for what loads after the first paint (the markdown renderer, the back view)
// and around the whole app. A lazy chunk that fails to load (the server went away, or a deploy
// replaced the hashed files this page refers to) took the whole app down to a blank page: React
// unmounts a tree whose error nothing catches. Now the part that failed shows its fallback and a
// line saying why, and the rest of the app goes on working. A browser keeps a module that failed
// to load as failed for the page's lifetime, so only a reload brings the part back.
import { Component, type ReactNode } from 'react';
import { useT } from '../context.tsx';

export class LoadBoundary extends Component<{ fallback: (error: Error) => ReactNode; children: ReactNode }, { error: Error | null }> {
  override state: { error: Error | null } = { error: null };

  static getDerivedStateFromError(error: Error): { error: Error } {
    return { error };
  }

  override render(): ReactNode {
    return this.state.error ? this.props.fallback(this.state.error) : this.props.children;
  }
}

/** The line a failed part shows, in the interface's language. */
export function LoadFailed() {
  const t = useT();
  return (
    <div className="out-notice" role="alert" data-testid="load-failed">
      {t('ui.loadFailed')}
    </div>
  );
}
