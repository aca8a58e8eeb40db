// Fullscreen is forced off on screens narrower than 768px (spec part 2).
import { useSyncExternalStore } from 'react';
import { PHONE_BREAKPOINT_PX } from '../core/index.ts';

const query = `(max-width: ${PHONE_BREAKPOINT_PX - 0.02}px)`;

export function useIsPhone(): boolean {
  return useSyncExternalStore(
    (fn) => {
      const mql = globalThis.matchMedia?.(query);
      mql?.addEventListener('change', fn);
      return () => mql?.removeEventListener('change', fn);
    },
    () => globalThis.matchMedia?.(query).matches ?? false,
    () => false,
  );
}

export function effectiveFullscreen(setting: string, phone: boolean): string {
  return phone ? 'off' : setting;
}
