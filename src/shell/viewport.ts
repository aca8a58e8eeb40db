// Fullscreen is forced off on screens narrower than 768px (spec part 2).
import { useSyncExternalStore } from 'react';
import { PHONE_BREAKPOINT_PX } from '../core/index.ts';

const query = `(max-width: ${PHONE_BREAKPOINT_PX - 0.02}px)`;

/** The screen is narrower than the phone breakpoint now. */
export const isPhone = (): boolean => globalThis.matchMedia?.(query).matches ?? false;

export function useIsPhone(): boolean {
  return useSyncExternalStore(
    (fn) => {
      const mql = globalThis.matchMedia?.(query);
      mql?.addEventListener('change', fn);
      return () => mql?.removeEventListener('change', fn);
    },
    isPhone,
    () => false,
  );
}

/** The layout in force: the setting, except on a phone, where fullscreen is off (and Enter sends). */
export function effectiveFullscreen(setting: string, phone = isPhone()): string {
  return phone ? 'off' : setting;
}
