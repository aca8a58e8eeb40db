// The settings a logged-in user keeps on the server (spec part 3, User) with their defaults
// and validation; the server checks every change with this, and the client uses it to
// report mistakes before a round trip.
import { DEFAULT_MEM_LENGTH, FULLSCREEN_MODES, MAX_ACTIVE_STORES, MEM_LENGTH_MAX, THEMES } from './constants.ts';
import { matchLanguage } from './languages.ts';
import { defineMessages, type Message } from './messages.ts';

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
export type UserSettings = Record<UserSettingKey, UserSettingValue>;

export const USER_SETTING_DEFAULTS = {
  lang: '',
  theme: 'light',
  fullscreen: 'off',
  useSpeak: false,
  useEval: false,
  useSystemRole: true,
  model: '',
  functions: '',
  role: '',
  stores: '',
  node: '',
  memLength: DEFAULT_MEM_LENGTH,
  passMask: true,
  groupPassword: '',
} as const satisfies Record<string, UserSettingValue>;

export type UserSettingKey = keyof typeof USER_SETTING_DEFAULTS;
export const USER_SETTING_KEYS = Object.keys(USER_SETTING_DEFAULTS) as UserSettingKey[];

/** Settings that follow a logged-in user from browser to browser when changed locally. */
export const SYNCED_LOCAL_SETTINGS: readonly UserSettingKey[] = ['theme', 'lang', 'fullscreen', 'functions', 'useEval', 'useSpeak', 'memLength', 'passMask', 'useSystemRole', 'model', 'role'];

export type UserSettingCheck = { ok: true; value: UserSettingValue } | { ok: false; error: Message };

const BOOLEAN_KEYS = new Set(['useSpeak', 'useEval', 'useSystemRole', 'passMask']);
const NAME_LIST = /^[A-Za-z0-9_.-]+(,[A-Za-z0-9_.-]+)*$/;

export function isUserSettingKey(key: string): key is UserSettingKey {
  return (USER_SETTING_KEYS as string[]).includes(key);
}

/** Checks one value (as typed, or as stored); errors are the messages the user sees. */
export function checkUserSetting(key: string, raw: unknown): UserSettingCheck {
  if (!isUserSettingKey(key)) return { ok: false, error: USER_SETTING_MESSAGES.settingUnknownKey(USER_SETTING_KEYS.join(', ')) };
  const text = typeof raw === 'string' ? raw.trim() : raw;
  if (BOOLEAN_KEYS.has(key)) {
    if (text === true || text === 'true') return { ok: true, value: true };
    if (text === false || text === 'false') return { ok: true, value: false };
    return { ok: false, error: USER_SETTING_MESSAGES.settingNotBoolean };
  }
  if (key === 'memLength') {
    // The generation request's rule (api/generate.ts): a whole number from 0 to MEM_LENGTH_MAX.
    const n = typeof text === 'number' ? text : /^-?\d+(\.\d+)?$/.test(String(text)) ? Number(text) : Number.NaN;
    if (Number.isNaN(n)) return { ok: false, error: USER_SETTING_MESSAGES.settingNotNumber };
    if (!Number.isInteger(n) || n < 0 || n > MEM_LENGTH_MAX) return { ok: false, error: USER_SETTING_MESSAGES.settingRange(0, MEM_LENGTH_MAX) };
    return { ok: true, value: n };
  }
  if (typeof text !== 'string') return { ok: false, error: USER_SETTING_MESSAGES.settingInvalid };
  switch (key) {
    case 'theme':
      return (THEMES as readonly string[]).includes(text) ? { ok: true, value: text } : { ok: false, error: USER_SETTING_MESSAGES.settingOneOf(THEMES.join(', ')) };
    case 'fullscreen':
      return (FULLSCREEN_MODES as readonly string[]).includes(text) ? { ok: true, value: text } : { ok: false, error: USER_SETTING_MESSAGES.settingOneOf(FULLSCREEN_MODES.join(', ')) };
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
    case 'groupPassword':
      return /^[A-Za-z0-9]{8,64}$/.test(text) ? { ok: true, value: text } : { ok: false, error: USER_SETTING_MESSAGES.settingGroupPassword };
    default:
      // model, role, node: names checked by their plugins when used.
      return text.length <= 128 && !/[\u0000-\u001f]/.test(text) ? { ok: true, value: text } : { ok: false, error: USER_SETTING_MESSAGES.settingInvalid };
  }
}

/** Parses stored settings JSON; anything missing or invalid takes its default. */
export function normalizeUserSettings(json: string | null | undefined): UserSettings {
  let parsed: Record<string, unknown> = {};
  try {
    const value: unknown = JSON.parse(json ?? '{}');
    if (value && typeof value === 'object' && !Array.isArray(value)) parsed = value as Record<string, unknown>;
  } catch {
    // corrupt JSON: defaults
  }
  const settings = { ...USER_SETTING_DEFAULTS } as UserSettings;
  for (const key of USER_SETTING_KEYS) {
    if (key in parsed) {
      const checked = checkUserSetting(key, parsed[key]);
      if (checked.ok) settings[key] = checked.value;
    }
  }
  return settings;
}
