import { findLanguage, formatSettingValue, PlatformRef, settingIn, type PluginContext } from '../../../src/core/index.ts';

/** `:info`: connectivity, the server, the language, and every setting a manifest marks `info`. */
export function activateInfo(ctx: PluginContext): void {
  ctx.handle('info', (c) => {
    const platform = c.services.maybe(PlatformRef);
    const rows: string[][] = [];
    if (platform) {
      rows.push([c.t('info.status'), c.t(platform.online() ? 'info.online' : 'info.offline')]);
      if (platform.serverUrl()) rows.push([c.t('info.server'), platform.serverUrl()]);
      const model = platform.systemInfo().model;
      if (model) rows.push([c.t('info.model'), model]);
    }
    const lang = c.settings.get<string>('lang');
    rows.push([c.t('info.language'), lang ? `${findLanguage(lang)?.name ?? lang} (${lang})` : c.t('info.notSet')]);
    for (const spec of c.settings.specs()) {
      // Only what works here: the terminal's `:info` leaves out the theme, speech, location...
      if (!spec.info || spec.key === 'lang' || !settingIn(spec, c.env)) continue;
      const value = formatSettingValue(c.settings.get(spec.key));
      rows.push([spec.key, value === '' ? c.t('info.notSet') : value]);
    }
    return { kind: 'table', columns: [c.t('info.item'), c.t('info.value')], rows };
  });
}
