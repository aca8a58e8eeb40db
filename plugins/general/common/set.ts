import {
  checkUserSetting,
  error,
  findSetting,
  formatSettingValue,
  parseSettingInput,
  SESSION_ID_MAX,
  SESSION_ID_MIN,
  settingIn,
  text,
  type CommandContext,
  type CommandHandler,
  type SettingSpec,
  type SettingValue,
  type SettingsStore,
} from '../../../src/core/index.ts';
import type { Message } from '../../../src/core/messages.ts';
import { SERVER_MESSAGES } from '../../../src/core/serverMessages.ts';

export function settableKeys(settings: SettingsStore): string[] {
  return settings.specs().filter((s) => s.settable !== false).map((s) => s.key);
}

/** A setting that does nothing here (`theme` in the terminal) says where it works, as its command does. */
function elsewhere(ctx: CommandContext, spec: SettingSpec): string | undefined {
  if (settingIn(spec, ctx.env)) return undefined;
  const cmd = `:set ${spec.key}`;
  return spec.envs?.includes('browser') ? ctx.tFor('shell')('msg.browserOnly', { cmd }) : ctx.tFor('shell')('msg.terminalOnly', { cmd });
}

/**
 * The value `:set` may write, by the rule that reads it later (issue 27): the server's rule
 * for the settings a user keeps there (memLength, stores, functions...), the session id's
 * range, whole times; otherwise the declared type's.
 */
function checked(ctx: CommandContext, spec: SettingSpec, raw: string): { value: SettingValue } | { error: string | Message } {
  const parsed = parseSettingInput(spec, raw);
  if (!parsed.ok) {
    if (parsed.message === 'oneOf') return { error: ctx.t('msg.invalidOneOf', { values: (parsed.values ?? []).join(', ') }) };
    return { error: ctx.t(parsed.message === 'number' ? 'msg.invalidNumber' : 'msg.invalidBoolean') };
  }
  if (spec.sync) {
    const rule = checkUserSetting(spec, formatSettingValue(parsed.value));
    if (!rule.ok) return { error: rule.error };
    return { value: spec.type === 'list' ? parsed.value : rule.value };
  }
  if (spec.key === 'session' && !(Number.isInteger(parsed.value) && Number(parsed.value) > SESSION_ID_MIN && Number(parsed.value) < SESSION_ID_MAX)) {
    return { error: SERVER_MESSAGES.timeTraveler };
  }
  if ((spec.key === 'time' || spec.key === 'head') && !(Number.isInteger(parsed.value) && Number(parsed.value) >= 0)) {
    return { error: ctx.t('msg.invalidNumber') };
  }
  return { value: parsed.value };
}

export const setCommands: Record<string, CommandHandler> = {
  set: async (ctx) => {
    const keys = settableKeys(ctx.settings).filter((key) => settingIn(findSetting(ctx.settings.specs(), key)!, ctx.env));
    const spec = findSetting(ctx.settings.specs(), ctx.args.key ?? '');
    if (!spec || spec.settable === false) return error(ctx.t('msg.unknownKey', { keys: keys.join(', ') }));
    const notHere = elsewhere(ctx, spec);
    if (notHere) return error(notHere);
    const raw = ctx.args.value ?? '';
    // A plugin that owns how its setting is set (`model`, `role`, `stores`) applies its own rules.
    const owned = await ctx.setThroughOwner(spec.key, raw);
    if (owned) return owned;
    const result = checked(ctx, spec, raw);
    if ('error' in result) return error(result.error);
    ctx.settings.set(spec.key, result.value);
    return text(ctx.t('msg.setDone', { key: spec.key, value: formatSettingValue(ctx.settings.get(spec.key)) }));
  },
  'set.all': (ctx) => {
    const all: Record<string, unknown> = {};
    for (const spec of ctx.settings.specs()) {
      if (spec.settable !== false && settingIn(spec, ctx.env)) all[spec.key] = ctx.settings.get(spec.key);
    }
    return { kind: 'json', value: all };
  },
};
