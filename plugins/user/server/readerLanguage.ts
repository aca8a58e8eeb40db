// The language to write e-mails and link pages in: the account's saved language when it has
// one, else the first of the browser's (Accept-Language) that the app speaks, else English.
import { DEFAULT_LANGUAGE, findLanguage, LANGUAGES, storedUserText, TRANSLATED_LOCALES, type UserRow } from '../../../src/core/index.ts';

export function readerLanguage(user: Pick<UserRow, 'settings'> | null | undefined, acceptLanguage: string | undefined): string {
  const saved = user ? storedUserText(user.settings, 'lang') : '';
  if (saved && findLanguage(saved)) return saved;
  for (const part of (acceptLanguage ?? '').split(',').slice(0, 20)) {
    const tag = part.split(';')[0]!.trim().toLowerCase();
    if (!tag) continue;
    const exact = LANGUAGES.find((l) => l.code.toLowerCase() === tag);
    if (exact) return exact.code;
    const same = TRANSLATED_LOCALES.find((l) => l.split('-')[0] === tag.split('-')[0]);
    if (same) return same;
  }
  return DEFAULT_LANGUAGE;
}
