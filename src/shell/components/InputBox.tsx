import { useEffect, useLayoutEffect, useRef } from 'react';
import { INPUT_MIN_HEIGHT_PX } from '../../core/index.ts';
import { useSetting, useShell, useShellState, useT } from '../context.tsx';
import { onSwipe } from '../gestures.ts';

/**
 * The multi-line input and its Send button (Stop while an answer streams). Keys are handled by
 * the shell's key map (App); here the box only grows with its content and reacts to swipes.
 */
export function InputBox() {
  const input = useShellState((s) => s.input);
  const placeholder = useShellState((s) => s.placeholder);
  const generating = useShellState((s) => s.generating);
  const { controller } = useShell();
  const t = useT();
  const ref = useRef<HTMLTextAreaElement>(null);
  const mirror = useRef<HTMLDivElement>(null);
  useSetting<boolean>('passMask');
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
      className="input-row"
      onSubmit={(e) => {
        e.preventDefault();
        void controller.submit();
        ref.current?.focus();
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
          rows={1}
          spellCheck={false}
          autoComplete="off"
          autoCapitalize="off"
          autoFocus
          onChange={(e) => controller.setInput(e.target.value)}
          onScroll={(e) => {
            if (mirror.current) mirror.current.scrollTop = e.currentTarget.scrollTop;
          }}
        />
        {masking && (
          <div ref={mirror} className="input input-mirror" data-testid="input-mask" aria-hidden="true">
            {shown}
          </div>
        )}
      </div>
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
