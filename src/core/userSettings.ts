// The settings a logged-in user keeps on the server (spec part 3, User): the manifests' settings
// with a `sync` field, their defaults and validation; the server checks every change with
// this, and `:set` uses it to report mistakes before a round trip.
import { MAX_ACTIVE_STORES, MEM_LENGTH_MAX } from './constants.ts';
import { matchLanguage } from './languages.ts';
import { defineMessages, type Message } from './messages.ts';
import type { SettingSpec } from './settings.ts';

/** The rules' messages, in the core's namespace (its `err.setting*` keys). */
export const USER_SETTING_MESSAGES = defineMessages('core', {
  settingUnknownKey: 'Unknown key. Key must be one of: {{keys}}',
  settingNotBoolean: 'Invalid value. Value must be true or false.',
  settingNotNumber: 'Invalid value. Value must be a number.',
  settingRange: 'Invalid value. Value must be a whole number from {{min}} to {{max}}.',
  settingInvalid: 'Invalid value.',
  settingOneOf: 'Invalid value. Value must be one of: {{values}}',
  settingLanguage: 'Language code not found.',
  settingLanguageMultiple: 'Multiple language codes found: {{codes}}',
  settingNames: 'Invalid value. Value must be a comma-separated list of names.',
  settingStores: 'You can only use {{max}} stores at the same time. Please unuse one of them first.',
  settingGroupPassword: 'Invalid value. A group password is 8 to 64 letters and digits.',
});

export type UserSettingValue = string | number | boolean;
export type UserSettings = Record<string, UserSettingValue>;

/** The account's group password: kept with its settings, set by the server, never a local setting. */
export const GROUP_PASSWORD_KEY = 'groupPassword';

export type UserSettingCheck = { ok: true; value: UserSettingValue } | { ok: false; error: Message };

const NAME_LIST = /^[A-Za-z0-9_.-]+(,[A-Za-z0-9_.-]+)*$/;

/** The settings a local change sends to the server (`sync: true`), in declaration order. */
export const pushedSettings = (specs: readonly SettingSpec[]): SettingSpec[] => specs.filter((s) => s.sync === true);

/** The settings the server keeps for an account (any `sync`), in declaration order. */
export const keptSettings = (specs: readonly SettingSpec[]): SettingSpec[] => specs.filter((s) => s.sync !== undefined);

/** The server's rules for a user's settings: the kept settings of the installed manifests, and the group password. */
export interface UserSettingRules {
  keys: readonly string[];
  defaults: Readonly<UserSettings>;
  isKey(key: string): boolean;
  check(key: string, raw: unknown): UserSettingCheck;
  /** Parses stored settings JSON; anything missing or invalid takes its default. */
  normalize(json: string | null | undefined): UserSettings;
}

export function userSettingRules(specs: readonly SettingSpec[]): UserSettingRules {
  const kept = keptSettings(specs);
  const defaults: UserSettings = Object.fromEntries(kept.map((s) => [s.key, s.default as UserSettingValue]));
  defaults[GROUP_PASSWORD_KEY] = '';
  const keys = Object.keys(defaults);
  const byKey = new Map(kept.map((s) => [s.key, s]));
  const isKey = (key: string) => keys.includes(key);
  const check = (key: string, raw: unknown): UserSettingCheck =>
    isKey(key)
      ? checkUserSetting(byKey.get(key) ?? { key, type: 'string', default: '', scope: 'device' }, raw)
      : { ok: false, error: USER_SETTING_MESSAGES.settingUnknownKey(keys.join(', ')) };
  return {
    keys,
    defaults,
    isKey,
    check,
    normalize(json) {
      const parsed = parseStored(json);
      const settings = { ...defaults };
      for (const key of keys) {
        if (key in parsed) {
          const checked = check(key, parsed[key]);
          if (checked.ok) settings[key] = checked.value;
        }
      }
      return settings;
    },
  };
}

function parseStored(json: string | null | undefined): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(json ?? '{}');
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // corrupt JSON: defaults
  }
  return {};
}

/** One stored text setting as its rule reads it (a reader's saved language), or ''. */
export function storedUserText(json: string | null | undefined, key: string): string {
  const parsed = parseStored(json);
  if (!(key in parsed)) return '';
  const checked = checkUserSetting({ key, type: 'string', default: '', scope: 'device' }, parsed[key]);
  return checked.ok ? String(checked.value) : '';
}

/**
 * Checks one value of a kept setting (as typed, or as stored) by its declared type, and by its
 * key where the server's rule says more (memLength, lang, the name lists, the group password);
 * errors are the messages the user sees.
 */
export function checkUserSetting(spec: SettingSpec, raw: unknown): UserSettingCheck {
  const key = spec.key;
  const text = typeof raw === 'string' ? raw.trim() : raw;
  if (spec.type === 'boolean') {
    if (text === true || text === 'true') return { ok: true, value: true };
    if (text === false || text === 'false') return { ok: true, value: false };
    return { ok: false, error: USER_SETTING_MESSAGES.settingNotBoolean };
  }
  if (spec.type === 'number') {
    const n = typeof text === 'number' ? text : /^-?\d+(\.\d+)?$/.test(String(text)) ? Number(text) : Number.NaN;
    if (Number.isNaN(n)) return { ok: false, error: USER_SETTING_MESSAGES.settingNotNumber };
    // memLength: the generation request's rule (api/generate.ts), a whole number from 0 to MEM_LENGTH_MAX.
    if (key === 'memLength' && (!Number.isInteger(n) || n < 0 || n > MEM_LENGTH_MAX)) return { ok: false, error: USER_SETTING_MESSAGES.settingRange(0, MEM_LENGTH_MAX) };
    return { ok: true, value: n };
  }
  if (typeof text !== 'string') return { ok: false, error: USER_SETTING_MESSAGES.settingInvalid };
  if (spec.type === 'enum') {
    const values = spec.values ?? [];
    return values.includes(text) ? { ok: true, value: text } : { ok: false, error: USER_SETTING_MESSAGES.settingOneOf(values.join(', ')) };
  }
  switch (key) {
    case 'lang': {
      // `:lang use`'s rule: a code shorter than 5 characters matches by prefix.
      if (text === '') return { ok: true, value: text };
      const match = matchLanguage(text);
      if (match.kind === 'multiple') return { ok: false, error: USER_SETTING_MESSAGES.settingLanguageMultiple(match.codes.join(', ')) };
      return match.kind === 'found' ? { ok: true, value: match.language.code } : { ok: false, error: USER_SETTING_MESSAGES.settingLanguage };
    }
    case 'functions':
      return text === '' || NAME_LIST.test(text) ? { ok: true, value: text } : { ok: false, error: USER_SETTING_MESSAGES.settingNames };
    case 'stores':
      if (text !== '' && !NAME_LIST.test(text.replace(/ /g, '_'))) return { ok: false, error: USER_SETTING_MESSAGES.settingNames };
      if (text.split(',').filter(Boolean).length > MAX_ACTIVE_STORES) {
        return { ok: false, error: USER_SETTING_MESSAGES.settingStores(MAX_ACTIVE_STORES) };
      }
      return { ok: true, value: text };
    case GROUP_PASSWORD_KEY:
      return /^[A-Za-z0-9]{8,64}$/.test(text) ? { ok: true, value: text } : { ok: false, error: USER_SETTING_MESSAGES.settingGroupPassword };
    default:
      // model, role, node: names checked by their plugins when used.
      return text.length <= 128 && !/[\u0000-\u001f]/.test(text) ? { ok: true, value: text } : { ok: false, error: USER_SETTING_MESSAGES.settingInvalid };
  }
}
