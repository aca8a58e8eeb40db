import { describe, expect, it } from 'vitest';
import { LANGUAGE_CODES, matchLanguage, SETTINGS_LOCALES, isRtl } from './languages.ts';
import { fallbackChain } from './i18n.ts';

describe('language codes (spec part 9)', () => {
  it('has the 29 codes, and 28 on the Settings page', () => {
    expect(LANGUAGE_CODES).toEqual([
      'ar-EG', 'ar-IQ', 'ar-MA', 'ar-SA', 'ar-SY', 'bn-BD', 'de-DE', 'en-US', 'en-GB', 'es-ES', 'fr-CA', 'fr-FR', 'hi-IN',
      'id-ID', 'it-IT', 'ja-JP', 'ko-KR', 'nl-BE', 'nl-NL', 'pl-PL', 'pt-BR', 'pt-PT', 'ru-RU', 'sv-FI', 'sv-SE', 'tr-TR',
      'zh-CN', 'zh-HK', 'zh-TW',
    ]);
    expect(SETTINGS_LOCALES).toHaveLength(28);
  });
});

describe('the prefix rule (spec part 5)', () => {
  it('accepts an exact code, in any case', () => {
    expect(matchLanguage('zh-CN')).toMatchObject({ kind: 'found', language: { code: 'zh-CN' } });
    expect(matchLanguage('ZH-cn')).toMatchObject({ kind: 'found', language: { code: 'zh-CN' } });
  });
  it('completes a unique prefix shorter than 5 characters', () => {
    expect(matchLanguage('ja')).toMatchObject({ kind: 'found', language: { code: 'ja-JP' } });
    expect(matchLanguage('de-')).toMatchObject({ kind: 'found', language: { code: 'de-DE' } });
  });
  it('lists several matches', () => {
    expect(matchLanguage('zh')).toEqual({ kind: 'multiple', codes: ['zh-CN', 'zh-HK', 'zh-TW'] });
    expect(matchLanguage('ar')).toEqual({ kind: 'multiple', codes: ['ar-EG', 'ar-IQ', 'ar-MA', 'ar-SA', 'ar-SY'] });
  });
  it('does not prefix-match 5 characters or more, nor unknown codes', () => {
    expect(matchLanguage('zh-CX')).toEqual({ kind: 'notFound' });
    expect(matchLanguage('xx')).toEqual({ kind: 'notFound' });
    expect(matchLanguage('')).toEqual({ kind: 'notFound' });
  });
});

describe('locale fallback and direction', () => {
  it('falls back within the language, then to en-US', () => {
    expect(fallbackChain('ar-EG')).toEqual(['ar-SA', 'en-US']);
    expect(fallbackChain('zh-TW')).toEqual(['zh-CN', 'en-US']);
    expect(fallbackChain('fr-FR')).toEqual(['en-US']);
    expect(fallbackChain('fr-CA')).toEqual(['fr-FR', 'en-US']);
    expect(fallbackChain('pt-PT')).toEqual(['pt-BR', 'en-US']);
    expect(fallbackChain('nl-BE')).toEqual(['nl-NL', 'en-US']);
    expect(fallbackChain('sv-FI')).toEqual(['sv-SE', 'en-US']);
    expect(fallbackChain('en-GB')).toEqual(['en-US']);
    expect(fallbackChain('en-US')).toEqual([]);
  });
  it('knows Arabic is right to left', () => {
    expect(isRtl('ar-SA')).toBe(true);
    expect(isRtl('zh-CN')).toBe(false);
  });
});
