// The 29 language codes of spec part 9 and the `:lang use` prefix rule of spec part 5.

export interface Language {
  code: string;
  name: string;
  nativeName: string;
}

export const LANGUAGES: readonly Language[] = [
  { code: 'ar-EG', name: 'Arabic (Egypt)', nativeName: 'العربية (مصر)' },
  { code: 'ar-IQ', name: 'Arabic (Iraq)', nativeName: 'العربية (العراق)' },
  { code: 'ar-MA', name: 'Arabic (Morocco)', nativeName: 'العربية (المغرب)' },
  { code: 'ar-SA', name: 'Arabic (Saudi Arabia)', nativeName: 'العربية (السعودية)' },
  { code: 'ar-SY', name: 'Arabic (Syria)', nativeName: 'العربية (سوريا)' },
  { code: 'bn-BD', name: 'Bengali (Bangladesh)', nativeName: 'বাংলা (বাংলাদেশ)' },
  { code: 'de-DE', name: 'German (Germany)', nativeName: 'Deutsch (Deutschland)' },
  { code: 'en-US', name: 'English (United States)', nativeName: 'English (United States)' },
  { code: 'en-GB', name: 'English (United Kingdom)', nativeName: 'English (United Kingdom)' },
  { code: 'es-ES', name: 'Spanish (Spain)', nativeName: 'Español (España)' },
  { code: 'fr-CA', name: 'French (Canada)', nativeName: 'Français (Canada)' },
  { code: 'fr-FR', name: 'French (France)', nativeName: 'Français (France)' },
  { code: 'hi-IN', name: 'Hindi (India)', nativeName: 'हिन्दी (भारत)' },
  { code: 'id-ID', name: 'Indonesian (Indonesia)', nativeName: 'Bahasa Indonesia (Indonesia)' },
  { code: 'it-IT', name: 'Italian (Italy)', nativeName: 'Italiano (Italia)' },
  { code: 'ja-JP', name: 'Japanese (Japan)', nativeName: '日本語 (日本)' },
  { code: 'ko-KR', name: 'Korean (South Korea)', nativeName: '한국어 (대한민국)' },
  { code: 'nl-BE', name: 'Dutch (Belgium)', nativeName: 'Nederlands (België)' },
  { code: 'nl-NL', name: 'Dutch (Netherlands)', nativeName: 'Nederlands (Nederland)' },
  { code: 'pl-PL', name: 'Polish (Poland)', nativeName: 'Polski (Polska)' },
  { code: 'pt-BR', name: 'Portuguese (Brazil)', nativeName: 'Português (Brasil)' },
  { code: 'pt-PT', name: 'Portuguese (Portugal)', nativeName: 'Português (Portugal)' },
  { code: 'ru-RU', name: 'Russian (Russia)', nativeName: 'Русский (Россия)' },
  { code: 'sv-FI', name: 'Swedish (Finland)', nativeName: 'Svenska (Finland)' },
  { code: 'sv-SE', name: 'Swedish (Sweden)', nativeName: 'Svenska (Sverige)' },
  { code: 'tr-TR', name: 'Turkish (Turkey)', nativeName: 'Türkçe (Türkiye)' },
  { code: 'zh-CN', name: 'Chinese (Simplified, China)', nativeName: '中文 (简体)' },
  { code: 'zh-HK', name: 'Chinese (Traditional, Hong Kong)', nativeName: '中文 (香港)' },
  { code: 'zh-TW', name: 'Chinese (Traditional, Taiwan)', nativeName: '中文 (繁體)' },
];

export const LANGUAGE_CODES: readonly string[] = LANGUAGES.map((l) => l.code);

/**
 * The Settings page offers 28 locales (spec part 9). The spec does not say which code is
 * missing; we leave out sv-FI, whose UI text is the same as sv-SE. `:lang use sv-FI` still works.
 */
export const SETTINGS_LOCALES: readonly string[] = LANGUAGE_CODES.filter((c) => c !== 'sv-FI');

/** Languages written right to left. */
export const RTL_LANGUAGES: readonly string[] = ['ar'];

export const DEFAULT_LANGUAGE = 'en-US';

export type LanguageMatch =
  | { kind: 'found'; language: Language }
  | { kind: 'multiple'; codes: string[] }
  | { kind: 'notFound' };

/**
 * Spec part 5: a code shorter than 5 characters matches by prefix; a unique match is accepted,
 * several give 'Multiple language codes found: ...', none gives 'Language code not found.'.
 * Matching ignores case so that `:lang use ZH-cn` and `:lang use ja` both work.
 */
export function matchLanguage(input: string): LanguageMatch {
  const wanted = input.trim().toLowerCase();
  if (!wanted) return { kind: 'notFound' };
  const exact = LANGUAGES.find((l) => l.code.toLowerCase() === wanted);
  if (exact) return { kind: 'found', language: exact };
  if (wanted.length >= 5) return { kind: 'notFound' };
  const matches = LANGUAGES.filter((l) => l.code.toLowerCase().startsWith(wanted));
  if (matches.length === 1) return { kind: 'found', language: matches[0]! };
  if (matches.length > 1) return { kind: 'multiple', codes: matches.map((l) => l.code) };
  return { kind: 'notFound' };
}

export function findLanguage(code: string): Language | undefined {
  return LANGUAGES.find((l) => l.code === code);
}

export function isRtl(code: string): boolean {
  return RTL_LANGUAGES.includes(code.split('-')[0] ?? '');
}

/** A language's name in another language (`:lang`, the Settings page), else its English name. */
export function languageName(code: string, inLanguage: string): string {
  try {
    return new Intl.DisplayNames([inLanguage || DEFAULT_LANGUAGE], { type: 'language' }).of(code) ?? code;
  } catch {
    return findLanguage(code)?.name ?? code;
  }
}
