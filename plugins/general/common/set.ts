import {
  error,
  findSetting,
  formatSettingValue,
  parseSettingInput,
  text,
  type CommandHandler,
  type SettingsStore,
} from '../../../src/core/index.ts';

export function settableKeys(settings: SettingsStore): string[] {
  return settings.specs().filter((s) => s.settable !== false).map((s) => s.key);
}

export const setCommands: Record<string, CommandHandler> = {
  set: (ctx) => {
    const keys = settableKeys(ctx.settings);
    const spec = findSetting(ctx.settings.specs(), ctx.args.key ?? '');
    if (!spec || spec.settable === false) return error(ctx.t('msg.unknownKey', { keys: keys.join(', ') }));
    const parsed = parseSettingInput(spec, ctx.args.value ?? '');
    if (!parsed.ok) {
      if (parsed.message === 'oneOf') return error(ctx.t('msg.invalidOneOf', { values: (parsed.values ?? []).join(', ') }));
      return error(ctx.t(parsed.message === 'number' ? 'msg.invalidNumber' : 'msg.invalidBoolean'));
    }
    ctx.settings.set(spec.key, parsed.value);
    return text(ctx.t('msg.setDone', { key: spec.key, value: formatSettingValue(ctx.settings.get(spec.key)) }));
  },
  'set.all': (ctx) => {
    const all: Record<string, unknown> = {};
    for (const spec of ctx.settings.specs()) {
      if (spec.settable !== false) all[spec.key] = ctx.settings.get(spec.key);
    }
    return { kind: 'json', value: all };
  },
};
