import { useShellState, useT } from '../context.tsx';
import { HeldImage } from './HeldImage.tsx';

/**
 * Image previews of the current input or answer. Only http(s) and blob URLs are shown; one
 * from another origin waits for a click (HeldImage.tsx), as a log's may be anyone's.
 */
export function Previews() {
  const previews = useShellState((s) => s.previews);
  const t = useT();
  const safe = previews.filter((url) => /^(https?:|blob:)/i.test(url));
  return (
    <div className="previews" data-testid="previews" aria-label={t('ui.previews')} hidden={!safe.length}>
      {safe.map((url) => (
        <HeldImage
          key={url}
          src={url}
          alt=""
          loading="lazy"
          referrerPolicy="no-referrer"
          frame={(img) => (
            <a href={url} target="_blank" rel="noopener noreferrer">
              {img}
            </a>
          )}
        />
      ))}
    </div>
  );
}
