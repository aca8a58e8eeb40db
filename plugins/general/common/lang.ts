import { error, findLanguage, languageName, LANGUAGES, matchLanguage, text, type CommandHandler } from '../../../src/core/index.ts';
import { MESSAGES } from './messages.ts';

export const langCommands: Record<string, CommandHandler> = {
  lang: (ctx) => {
    const code = ctx.settings.get<string>('lang');
    const language = code ? findLanguage(code) : undefined;
    if (!language) return text(ctx.t('msg.langNotSet'));
    // Named in the interface's language (it was English in every language).
    return text(ctx.t('msg.lang', { name: languageName(language.code, code), native: language.nativeName, code: language.code }));
  },
  'lang.ls': (ctx) => {
    const current = ctx.settings.get<string>('lang');
    return {
      kind: 'list',
      title: ctx.t('msg.langList'),
      items: LANGUAGES.map((l) => ({ text: l.code, active: l.code === current })),
    };
  },
  'lang.use': (ctx) => {
    const match = matchLanguage(ctx.args.code ?? '');
    if (match.kind === 'multiple') return error(ctx.t('msg.langMultiple', { codes: match.codes.join(', ') }));
    if (match.kind === 'notFound') return error(ctx.t('msg.langNotFound'));
    ctx.settings.set('lang', match.language.code);
    // A code: the host says it once the chosen language is loaded, in that language.
    return text(MESSAGES.langSet(languageName(match.language.code, match.language.code), match.language.code));
  },
  'lang.reset': (ctx) => {
    ctx.settings.reset('lang');
    return text(MESSAGES.langReset);
  },
};
