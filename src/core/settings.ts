// Settings declared by manifests (spec part 3 keys and defaults), their validation for `:set`,
// and an in-memory store used by the CLI and the tests. The browser store persists the same
// interface with TinyBase (src/shell/settingsStore.ts).
import type { Env } from './contract.ts';

export type SettingType = 'boolean' | 'number' | 'string' | 'enum' | 'list';
/** device: localStorage, kept across tabs; tab: sessionStorage, one browser tab. */
export type SettingScope = 'device' | 'tab';

export interface SettingSpec {
  /** The spec's own key names (spec part 3), e.g. `theme`, `useStats`, `memLength`. */
  key: string;
  type: SettingType;
  values?: readonly string[];
  default: SettingValue;
  scope: SettingScope;
  /**
   * Kept in the logged-in user's server settings (spec part 3, User), loaded at login: `true`
   * also sends every local change to the server; 'login' only loads it (`stores`, `node`: the
   * server's value changes through `:user set`). The server derives its list from these.
   */
  sync?: true | 'login';
  /** Sent with every question, in the generation request's field of the key in snake_case (spec part 7: `mem_length`). */
  turn?: boolean;
  /** `:set` may change it. Defaults to true. */
  settable?: boolean;
  /** Shown by `:info`. */
  info?: boolean;
  /**
   * Environments where the setting does something (`theme` only in the browser); all when
   * absent. Elsewhere `:set` says where it works and `:info` leaves it out, as for commands.
   */
  envs?: readonly Env[];
  /**
   * Rendered on the Settings page as buttons: `values`, or the groups of choices the declaring
   * plugin serves (ctx.choices). A pick goes through the plugin's setter when it has one
   * (ctx.setter), so the rules of its command apply (spec part 2's Settings page).
   */
  page?: {
    order?: number;
    /** Several may be picked: at most this many (0: any number). The value is a comma list. */
    multiple?: number;
    /** Shown only to a logged-in user (e-mail subscription). */
    login?: boolean;
  };
}

export type SettingValue = string | number | boolean | string[];

export interface SettingsStore {
  get<T extends SettingValue = SettingValue>(key: string): T;
  set(key: string, value: SettingValue): void;
  reset(key: string): void;
  /** Subscribe to one key, or '*' for all; returns the unsubscribe function. */
  onChange(key: string, fn: (key: string, value: SettingValue) => void): () => void;
  specs(): readonly SettingSpec[];
}

/** Does the setting do something in `env`? */
export function settingIn(spec: Pick<SettingSpec, 'envs'>, env: Env): boolean {
  return !spec.envs || spec.envs.includes(env);
}

export function findSetting(specs: readonly SettingSpec[], key: string): SettingSpec | undefined {
  const wanted = key.toLowerCase();
  return specs.find((s) => s.key.toLowerCase() === wanted);
}

export type ParsedSetting =
  | { ok: true; value: SettingValue }
  | { ok: false; message: 'number' | 'boolean' | 'oneOf'; values?: readonly string[] };

/** Turns typed text into a setting value, or says which rule it broke (spec part 5, `:set`). */
export function parseSettingInput(spec: SettingSpec, raw: string): ParsedSetting {
  switch (spec.type) {
    case 'number': {
      const trimmed = raw.trim();
      if (!/^-?\d+(\.\d+)?$/.test(trimmed)) return { ok: false, message: 'number' };
      return { ok: true, value: Number(trimmed) };
    }
    case 'boolean': {
      const lower = raw.trim().toLowerCase();
      if (lower === 'true') return { ok: true, value: true };
      if (lower === 'false') return { ok: true, value: false };
      return { ok: false, message: 'boolean' };
    }
    case 'enum': {
      const values = spec.values ?? [];
      const lower = raw.trim().toLowerCase();
      const match = values.find((v) => v.toLowerCase() === lower);
      return match !== undefined ? { ok: true, value: match } : { ok: false, message: 'oneOf', values };
    }
    case 'list':
      return { ok: true, value: raw.split(',').map((s) => s.trim()).filter(Boolean) };
    case 'string':
      return { ok: true, value: raw };
  }
}

/** Accepts a stored value only if it has the declared shape; anything else falls back to the default. */
export function coerceStored(spec: SettingSpec, value: unknown): SettingValue {
  switch (spec.type) {
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? value : spec.default;
    case 'boolean':
      return typeof value === 'boolean' ? value : spec.default;
    case 'enum':
      return typeof value === 'string' && (spec.values ?? []).includes(value) ? value : spec.default;
    case 'list':
      return Array.isArray(value) && value.every((v) => typeof v === 'string') ? [...value] : spec.default;
    case 'string':
      return typeof value === 'string' ? value : spec.default;
  }
}

export function formatSettingValue(value: SettingValue): string {
  return Array.isArray(value) ? value.join(',') : String(value);
}

type Listener = (key: string, value: SettingValue) => void;

/** Change listeners by key, '*' for all; shared by every SettingsStore implementation. */
export class SettingListeners {
  private readonly byKey = new Map<string, Set<Listener>>();

  add(key: string, fn: Listener): () => void {
    const set = this.byKey.get(key) ?? new Set();
    set.add(fn);
    this.byKey.set(key, set);
    return () => set.delete(fn);
  }

  notify(key: string, value: SettingValue): void {
    for (const fn of this.byKey.get(key) ?? []) fn(key, value);
    for (const fn of this.byKey.get('*') ?? []) fn(key, value);
  }
}

/** An in-memory settings store (CLI, tests, server-side command runs). */
export function createMemorySettings(
  specs: readonly SettingSpec[],
  initial: Record<string, unknown> = {},
): SettingsStore {
  const values = new Map<string, SettingValue>();
  const listeners = new SettingListeners();
  for (const spec of specs) values.set(spec.key, coerceStored(spec, initial[spec.key]));
  const notify = (key: string, value: SettingValue) => listeners.notify(key, value);
  const specOf = (key: string) => {
    const spec = specs.find((s) => s.key === key);
    if (!spec) throw new Error(`Unknown setting ${key}`);
    return spec;
  };
  return {
    get: <T extends SettingValue>(key: string) => {
      specOf(key);
      return values.get(key) as T;
    },
    set(key, value) {
      const spec = specOf(key);
      const next = coerceStored(spec, value);
      values.set(key, next);
      notify(key, next);
    },
    reset(key) {
      const spec = specOf(key);
      values.set(key, spec.default);
      notify(key, spec.default);
    },
    onChange: (key, fn) => listeners.add(key, fn),
    specs: () => specs,
  };
}
