// i18next with lazily loaded namespaces (DESIGN.md §5). Locale files are
// `locales/<lang>/<namespace>.json`; the namespace is a plugin id or `shell`. Each environment
// supplies the loader: dynamic imports in the browser, the file system in Node.
import i18next, { type i18n as I18nInstance } from 'i18next';
import type { Translate } from './contract.ts';
import { DEFAULT_LANGUAGE, isRtl } from './languages.ts';

export type LocaleLoader = (lang: string, ns: string) => Promise<Record<string, unknown> | undefined>;

/**
 * Locales with complete translations, one per UI language (spec part 9's 18); any other code
 * falls back through this table.
 */
export const TRANSLATED_LOCALES = [
  'en-US', 'ar-SA', 'bn-BD', 'de-DE', 'es-ES', 'fr-FR', 'hi-IN', 'id-ID', 'it-IT',
  'ja-JP', 'ko-KR', 'nl-NL', 'pl-PL', 'pt-BR', 'ru-RU', 'sv-SE', 'tr-TR', 'zh-CN',
] as const;

/** ar-EG → ar-SA → en-US; zh-TW → zh-CN → en-US; fr-CA → fr-FR → en-US; en-GB → en-US. */
export function fallbackChain(code: string): string[] {
  const chain: string[] = [];
  const base = code.split('-')[0];
  const sameLanguage = TRANSLATED_LOCALES.find((l) => l !== code && l.split('-')[0] === base);
  if (sameLanguage) chain.push(sameLanguage);
  if (code !== DEFAULT_LANGUAGE && sameLanguage !== DEFAULT_LANGUAGE) chain.push(DEFAULT_LANGUAGE);
  return chain;
}

export interface I18n {
  readonly instance: I18nInstance;
  language(): string;
  dir(): 'ltr' | 'rtl';
  t: Translate;
  tFor(ns: string): Translate;
  loadNamespaces(ns: string[]): Promise<void>;
  changeLanguage(code: string): Promise<void>;
  /** Settles once the last language change has loaded its translations (or failed to). */
  ready(): Promise<void>;
}

export async function createI18n(options: {
  lang: string;
  namespaces: string[];
  load: LocaleLoader;
}): Promise<I18n> {
  const instance = i18next.createInstance();
  await instance
    .use({
      type: 'backend',
      init() {},
      read(lang: string, ns: string, callback: (err: unknown, data: Record<string, unknown>) => void) {
        options.load(lang, ns).then(
          (data) => callback(null, data ?? {}),
          () => callback(null, {}),
        );
      },
    })
    .init({
      lng: options.lang || DEFAULT_LANGUAGE,
      fallbackLng: (code: string) => fallbackChain(code),
      load: 'currentOnly',
      ns: ['shell', ...options.namespaces.filter((n) => n !== 'shell')],
      defaultNS: 'shell',
      interpolation: { escapeValue: false },
      returnNull: false,
      initAsync: true,
    });
  // The last language change: a command run right after `:lang use` waits for its translations.
  let changing: Promise<void> = Promise.resolve();
  const tFor = (ns: string): Translate => {
    const fixed = instance.getFixedT(null, ns);
    return (key, vars) => fixed(key, vars as Record<string, string>) as string;
  };
  return {
    instance,
    language: () => instance.language,
    dir: () => (isRtl(instance.language) ? 'rtl' : 'ltr'),
    t: tFor('shell'),
    tFor,
    loadNamespaces: async (ns) => {
      await instance.loadNamespaces(ns);
    },
    changeLanguage: async (code) => {
      const change = instance.changeLanguage(code || DEFAULT_LANGUAGE);
      changing = change.then(
        () => undefined,
        () => undefined,
      );
      await change;
    },
    ready: () => changing,
  };
}
