import { useShellState, useT } from '../context.tsx';

/** Image previews of the current input or answer. Only http(s) and blob URLs are shown. */
export function Previews() {
  const previews = useShellState((s) => s.previews);
  const t = useT();
  const safe = previews.filter((url) => /^(https?:|blob:)/i.test(url));
  return (
    <div className="previews" data-testid="previews" aria-label={t('ui.previews')} hidden={!safe.length}>
      {safe.map((url) => (
        <a key={url} href={url} target="_blank" rel="noopener noreferrer">
          <img src={url} alt="" loading="lazy" referrerPolicy="no-referrer" />
        </a>
      ))}
    </div>
  );
}
