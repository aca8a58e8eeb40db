// A rendered code block with a Copy button: the peers all have one, and a programmer copies
// code far more often than whole answers (the model-info line copies those). The button is the
// app's own element around the sanitized `<pre>`, never something from the model's text; it
// copies the code as written (the highlighted spans' text), without the fence.
import { useContext, useEffect, useRef, useState, type ComponentProps } from 'react';
import { ShellContext } from '../context.tsx';

/** How long the button says "Copied" (ms). */
const COPIED_MS = 1500;

export function CodeBlock(props: ComponentProps<'pre'>) {
  const services = useContext(ShellContext);
  const ref = useRef<HTMLPreElement>(null);
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  // Outside the shell (stories, the render benchmark) there is no translator: English.
  const t = (key: string, fallback: string) => services?.i18n.tFor('shell')(key) ?? fallback;
  const copy = async () => {
    const code = ref.current?.textContent ?? '';
    try {
      await navigator.clipboard.writeText(code);
      setCopied(true);
    } catch {
      // No clipboard permission (an insecure origin, say): select the code for Ctrl+C instead.
      const range = document.createRange();
      if (ref.current) range.selectNodeContents(ref.current);
      const selection = getSelection();
      selection?.removeAllRanges();
      selection?.addRange(range);
    }
  };
  return (
    <div className="md-code">
      <pre {...props} ref={ref} />
      <button type="button" className="md-copy" data-testid="code-copy" onClick={() => void copy()}>
        {copied ? t('ui.codeCopied', 'Copied') : t('ui.copyCode', 'Copy')}
      </button>
    </div>
  );
}
