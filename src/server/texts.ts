// What the server writes to a person outside the app (e-mails, the pages behind their links)
// in that person's language: one shared i18next instance over the locale files on disk, each
// language and namespace loaded on first use, with the app's fallbacks (zh-TW reads zh-CN,
// then en-US).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createI18n, DEFAULT_LANGUAGE, fallbackChain, findLanguage, type I18n, type Translate } from '../core/index.ts';

const LOCALES = path.resolve(import.meta.dirname, '../../locales');
const NAMESPACE = /^[a-z][a-z0-9-]{0,63}$/;

let shared: Promise<I18n> | undefined;
// Only known language codes and plain namespace names reach the file system.
const i18n = () =>
  (shared ??= createI18n({
    lang: DEFAULT_LANGUAGE,
    namespaces: [],
    load: async (lang, ns) => (findLanguage(lang) && NAMESPACE.test(ns) ? JSON.parse(await readFile(path.join(LOCALES, lang, `${ns}.json`), 'utf8')) : undefined),
  }));

/** A namespace's strings in `lang` (an unknown code reads English). */
export async function textsIn(lang: string, ns: string): Promise<Translate> {
  const code = findLanguage(lang)?.code ?? DEFAULT_LANGUAGE;
  const { instance } = await i18n();
  await instance.loadNamespaces([ns]);
  await instance.loadLanguages([code, ...fallbackChain(code)]);
  const t = instance.getFixedT(code, ns);
  return (key, vars) => t(key, vars as Record<string, string>) as string;
}
