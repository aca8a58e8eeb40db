import type { SettingsStore } from './settings.ts';

/** Spec part 4: a session reset clears the head and history index and re-stamps session and time. */
export function resetSession(settings: SettingsStore, now = Date.now()): void {
  settings.set('session', now);
  settings.set('time', now);
  settings.set('head', 0);
  settings.set('historyIndex', -1);
}
