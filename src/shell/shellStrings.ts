// The shell's English strings come in two parts. The first paint carries only what it shows
// (its lines and messages: `ui`, `msg`); the rest of the namespace (the pages', help's and the
// command parser's) loads right after, and what shows those strings waits for it (the command
// runtime, the back view's pages). Other languages load whole, after the first paint, as before.
// The first part is written into the build (scripts/appPluginsVite.ts: `firstPaintEnglish`).
import type { I18n } from '../core/host/index.ts';

let rest: Promise<void> = Promise.resolve();

/** Starts loading the rest of the English shell strings into `i18n`. */
export function loadRestOfEnglish(i18n: I18n, load: (lang: string, ns: string) => Promise<Record<string, unknown> | undefined>): void {
  rest = load('en-US', 'shell').then(
    (all) => void (all && i18n.instance.addResourceBundle('en-US', 'shell', all, true, false)),
    () => undefined,
  );
}

/** Resolves once every English shell string is there. */
export const restOfEnglish = (): Promise<void> => rest;
