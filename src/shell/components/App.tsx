import { lazy, Suspense, useEffect } from 'react';
import { resetSession } from '../../core/index.ts';
import { useSetting, useShell, useShellState } from '../context.tsx';
import { keyAction, type KeyAction } from '../keymap.ts';
import { effectiveFullscreen, useIsPhone } from '../viewport.ts';
import { restOfEnglish } from '../shellStrings.ts';

import { LoadBoundary, LoadFailed } from './LoadBoundary.tsx';
import { FrontView } from './FrontView.tsx';
import { ViewToggle } from './ViewToggle.tsx';

// The back view (documentation, settings, privacy...) is not needed for the first paint.
// Its pages' strings are past the first paint's English (shellStrings.ts).
const BackView = lazy(() => Promise.all([import('./BackView.tsx'), restOfEnglish()]).then(([m]) => ({ default: m.BackView })));

const inputElement = () => document.querySelector<HTMLTextAreaElement>('[data-testid="input"]');

/** The shell's root: theme, layout and state attributes, and the key map. */
export function App() {
  const { controller, settings } = useShell();
  const view = useShellState((s) => s.view);
  const generating = useShellState((s) => s.generating);
  const theme = useSetting<string>('theme');
  const fullscreen = effectiveFullscreen(useSetting<string>('fullscreen'), useIsPhone());

  useEffect(() => {
    // Esc left the input (and nothing took the focus since): Tab goes on after it.
    let leftInput = false;
    const onFocus = () => (leftInput = false);
    document.addEventListener('focusin', onFocus);
    /** The control after the input (Attach), where Tab goes when it has nothing to complete or repeat. */
    const focusAfterInput = () => document.querySelector<HTMLElement>('[data-testid=attach]')?.focus();
    const run = (action: KeyAction) => {
      switch (action) {
        case 'interrupt':
          return controller.interrupt();
        case 'clear-output':
          return controller.clear();
        case 'reset-session':
          return void controller.shortcut(':reset', () => resetSession(settings));
        case 'toggle-fullscreen':
          return controller.toggleFullscreen('default');
        case 'toggle-split':
          return controller.toggleFullscreen('split');
        case 'clear-input':
          return controller.setInput('');
        case 'blur-input':
          inputElement()?.blur();
          leftInput = true;
          return;
        case 'to-front':
          return controller.setView('front');
        case 'focus-input':
          return inputElement()?.focus();
        case 'focus-after-input':
          return focusAfterInput();
        // Tab completes or repeats when it can; otherwise it moves on, as Tab does elsewhere.
        case 'repeat-last':
          return void (controller.repeatLast() || focusAfterInput());
        case 'complete':
          return void controller.complete().then((done) => done || focusAfterInput());
        case 'history-up':
          return controller.walkHistory('up');
        case 'history-down':
          return controller.walkHistory('down');
        case 'session-previous':
          return controller.navigate('session', 'previous');
        case 'session-next':
          return controller.navigate('session', 'next');
        case 'log-previous':
          return controller.navigate('log', 'previous');
        case 'log-next':
          return controller.navigate('log', 'next');
        case 'open-settings':
          return controller.setView('back', 'settings');
        case 'submit':
          return void controller.submit();
      }
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.isComposing) return;
      const target = e.target as HTMLElement | null;
      const isInput = target?.dataset?.testid === 'input';
      const isField = !isInput && !!target?.closest?.('input, textarea, select, [contenteditable="true"]');
      const isControl = !isInput && !isField && !!target && target !== document.body && target !== document.documentElement;
      const selection = globalThis.getSelection?.()?.toString() ?? '';
      const field = isInput ? (target as HTMLTextAreaElement) : null;
      const fieldSelection = field ? field.selectionEnd !== field.selectionStart : false;
      const action = keyAction(e, {
        target: isInput ? 'input' : isField ? 'other-field' : isControl ? 'control' : 'page',
        leftInput,
        walkingHistory: controller.walkingHistory,
        input: controller.state.get().input,
        view: controller.state.get().view,
        // The layout the person sees: split forced off on a phone sends with Enter again.
        fullscreen: effectiveFullscreen(settings.get<string>('fullscreen')),
        hasSelection: selection.length > 0 || fieldSelection,
      });
      if (!action) return;
      e.preventDefault();
      run(action);
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('focusin', onFocus);
    };
  }, [controller, settings]);

  // Anchors scroll to their section, then the hash is cleared (spec part 2).
  useEffect(() => {
    const onHash = () => {
      const id = decodeURIComponent(location.hash.slice(1));
      if (!id) return;
      document.getElementById(id)?.scrollIntoView();
      history.replaceState(null, '', location.pathname + location.search);
    };
    onHash();
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);

  return (
    <div
      className="shell"
      data-theme={theme}
      data-fullscreen={fullscreen}
      data-generating={String(generating)}
      data-view={view}
    >
      <ViewToggle />
      {view === 'front' ? (
        <FrontView />
      ) : (
        <LoadBoundary fallback={() => <LoadFailed />}>
          <Suspense fallback={null}>
            <BackView />
          </Suspense>
        </LoadBoundary>
      )}
    </div>
  );
}
