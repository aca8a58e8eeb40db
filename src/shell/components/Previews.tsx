import { lazy, Suspense, type ReactElement } from 'react';
import { useShellState, useT } from '../context.tsx';
import { heldHost } from '../heldHost.ts';

// Another origin's image waits for a click (HeldImage.tsx): loaded only when a preview needs
// it, so that the first paint does not carry it.
const HeldImage = lazy(() => import('./HeldImage.tsx').then((m) => ({ default: m.HeldImage })));

/**
 * Image previews of the current input or answer. Only http(s) and blob URLs are shown; one
 * from another origin waits for a click, as a log's may be anyone's.
 */
export function Previews() {
  const previews = useShellState((s) => s.previews);
  const t = useT();
  const safe = previews.filter((url) => /^(https?:|blob:)/i.test(url));
  const linked = (url: string) => (img: ReactElement) => (
    <a key={url} href={url} target="_blank" rel="noopener noreferrer">
      {img}
    </a>
  );
  const image = { alt: '', loading: 'lazy', referrerPolicy: 'no-referrer' } as const;
  return (
    <div className="previews" data-testid="previews" aria-label={t('ui.previews')} hidden={!safe.length}>
      {safe.map((url) =>
        heldHost(url) ? (
          <Suspense key={url} fallback={null}>
            <HeldImage src={url} {...image} frame={linked(url)} />
          </Suspense>
        ) : (
          linked(url)(<img src={url} {...image} />)
        ),
      )}
    </div>
  );
}
