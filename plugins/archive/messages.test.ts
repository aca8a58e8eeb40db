// The import's usage message names the command as its manifest does (the one source of its
// synopsis), in every translated locale, each in its own words.
import { describe, expect, it } from 'vitest';
import { createI18n, TRANSLATED_LOCALES } from '../../src/core/i18n.ts';
import { translateMessage } from '../../src/core/messages.ts';
import { loadLocale } from '../../tests/harness/shellTester.ts';
import { MESSAGES } from './common/messages.ts';

describe("the import's usage message", () => {
  it('names the manifest\'s synopsis, translated in every locale', async () => {
    expect(MESSAGES.noFile.text).toBe('Usage: :session import [<file>] (a .zip or a .json export).');
    for (const lang of TRANSLATED_LOCALES) {
      const i18n = await createI18n({ lang, namespaces: ['archive'], load: loadLocale });
      const said = translateMessage(MESSAGES.noFile, (ns) => i18n.tFor(ns));
      expect(said, lang).toContain(':session import [<file>]');
      if (lang !== 'en-US') expect(said, lang).not.toBe(MESSAGES.noFile.text);
    }
  });
});
