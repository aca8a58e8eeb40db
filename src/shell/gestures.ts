// Swipe detection (spec part 2): a mostly horizontal one-finger move of at least 50px.
// Swipes on code blocks or with a text selection are ignored, so code can be scrolled
// and text selected on a phone.

export type Swipe = 'left' | 'right';

export const SWIPE_MIN_PX = 50;

export function detectSwipe(dx: number, dy: number): Swipe | null {
  if (Math.abs(dx) < SWIPE_MIN_PX || Math.abs(dy) > Math.abs(dx) / 2) return null;
  return dx > 0 ? 'right' : 'left';
}

export function swipeAllowed(target: EventTarget | null): boolean {
  const selection = globalThis.getSelection?.();
  if (selection && selection.toString().length > 0) return false;
  return !(target instanceof Element && target.closest('pre, code'));
}

/** Attaches touch listeners to `element`; returns the detach function. */
export function onSwipe(element: HTMLElement, handler: (swipe: Swipe) => void): () => void {
  let start: { x: number; y: number; target: EventTarget | null } | undefined;
  const down = (e: TouchEvent) => {
    const t = e.touches[0];
    start = e.touches.length === 1 && t ? { x: t.clientX, y: t.clientY, target: e.target } : undefined;
  };
  const up = (e: TouchEvent) => {
    const t = e.changedTouches[0];
    if (!start || !t) return;
    const swipe = detectSwipe(t.clientX - start.x, t.clientY - start.y);
    const allowed = swipeAllowed(start.target);
    start = undefined;
    if (swipe && allowed) handler(swipe);
  };
  element.addEventListener('touchstart', down, { passive: true });
  element.addEventListener('touchend', up, { passive: true });
  return () => {
    element.removeEventListener('touchstart', down);
    element.removeEventListener('touchend', up);
  };
}
