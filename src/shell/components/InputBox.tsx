import { useEffect, useLayoutEffect, useRef, useState, type DragEvent } from 'react';
import { INPUT_MIN_HEIGHT_PX, UPLOAD_EXTENSIONS } from '../../core/index.ts';
import { useSetting, useShell, useShellState, useT } from '../context.tsx';
import { onSwipe } from '../gestures.ts';
import { effectiveFullscreen, useIsPhone } from '../viewport.ts';

const ACCEPT = UPLOAD_EXTENSIONS.map((ext) => `.${ext}`).join(',');
const carriesFiles = (e: DragEvent) => e.dataTransfer.types.includes('Files');

/**
 * The multi-line input, its Attach button and its Send button (Stop while an answer streams).
 * Keys are handled by the shell's key map (App); here the box grows with its content, reacts
 * to swipes, and takes files pasted, dropped or picked (each becomes an upload marker).
 */
export function InputBox() {
  const input = useShellState((s) => s.input);
  const placeholder = useShellState((s) => s.placeholder);
  const generating = useShellState((s) => s.generating);
  // Enter while an answer streams sends nothing (spec part 4): say so, and how to stop it.
  const busy = useShellState((s) => s.generating && s.busyRefused);
  const { controller } = useShell();
  const t = useT();
  const ref = useRef<HTMLTextAreaElement>(null);
  const mirror = useRef<HTMLDivElement>(null);
  const picker = useRef<HTMLInputElement>(null);
  const [dropping, setDropping] = useState(false);
  useSetting<boolean>('passMask');
  // In the split layout Enter adds a line: say how to send (a phone has no split, Enter sends).
  const split = effectiveFullscreen(useSetting<string>('fullscreen'), useIsPhone()) === 'split';
  // Passwords are masked by drawing a masked copy over the (transparent) text; the textarea
  // keeps the real value, so editing, selection and the caret work as usual.
  const shown = controller.masked(input);
  const masking = shown !== input;

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = `${Math.max(INPUT_MIN_HEIGHT_PX, el.scrollHeight)}px`;
  }, [input]);

  useEffect(
    () =>
      ref.current
        ? onSwipe(ref.current, (swipe) => {
            if (swipe === 'left') controller.setInput('');
            else if (controller.state.get().input) void controller.complete();
            else controller.repeatLast();
          })
        : undefined,
    [controller],
  );

  return (
    <form
      className={dropping ? 'input-row dropping' : 'input-row'}
      onSubmit={(e) => {
        e.preventDefault();
        void controller.submit();
        ref.current?.focus();
      }}
      onDragOver={(e) => {
        if (!carriesFiles(e)) return;
        e.preventDefault();
        setDropping(true);
      }}
      onDragLeave={() => setDropping(false)}
      onDrop={(e) => {
        if (!carriesFiles(e)) return;
        e.preventDefault();
        setDropping(false);
        void controller.attach([...e.dataTransfer.files], ref.current?.selectionStart);
      }}
    >
      <div className={masking ? 'input-box masking' : 'input-box'}>
        <textarea
          ref={ref}
          data-testid="input"
          className="input"
          value={input}
          placeholder={placeholder}
          aria-label={t('ui.inputLabel')}
          aria-describedby={[split && 'send-hint', busy && 'busy-hint'].filter(Boolean).join(' ') || undefined}
          rows={1}
          spellCheck={false}
          autoComplete="off"
          autoCapitalize="off"
          autoFocus
          onChange={(e) => controller.setInput(e.target.value)}
          onPaste={(e) => {
            // Pasted files (a screenshot, a copied document) upload; pasted text stays text.
            if (!e.clipboardData.files.length) return;
            e.preventDefault();
            void controller.attach([...e.clipboardData.files], e.currentTarget.selectionStart);
          }}
          onScroll={(e) => {
            if (mirror.current) mirror.current.scrollTop = e.currentTarget.scrollTop;
          }}
        />
        {masking && (
          <div ref={mirror} className="input input-mirror" data-testid="input-mask" aria-hidden="true">
            {shown}
          </div>
        )}
        {split && (
          <p id="send-hint" className="input-hint" data-testid="send-hint">
            {t('ui.splitSendHint')}
          </p>
        )}
        {busy && (
          <p id="busy-hint" className="input-hint" data-testid="busy-hint" role="status">
            {t('ui.busyHint')}
          </p>
        )}
      </div>
      <input
        ref={picker}
        type="file"
        multiple
        accept={ACCEPT}
        hidden
        data-testid="attach-input"
        onChange={(e) => {
          const files = [...(e.currentTarget.files ?? [])];
          e.currentTarget.value = '';
          void controller.attach(files, ref.current?.selectionStart);
          ref.current?.focus();
        }}
      />
      <button type="button" data-testid="attach" className="submit attach" title={t('ui.attachFiles')} aria-label={t('ui.attachFiles')} onClick={() => picker.current?.click()}>
        <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
          <path d="M16.5 6.5v10a4.5 4.5 0 0 1-9 0V5a3 3 0 0 1 6 0v10.5a1.5 1.5 0 0 1-3 0V6.5" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
        </svg>
      </button>
      {/* While an answer streams, Send becomes Stop: input is ignored then (spec part 4), and
          stopping is the one thing to do. */}
      {generating ? (
        <button type="button" data-testid="stop" className="submit stop" onClick={() => controller.stop()}>
          {t('ui.stop')}
        </button>
      ) : (
        <button type="submit" data-testid="submit" className="submit">
          {t('ui.submit')}
        </button>
      )}
    </form>
  );
}
