// `--model` and `--role` for this run only: checked with the server as `:model use` and
// `:role use` check them (an unknown name fails, as a typed command would), then laid over
// the saved settings without changing them, so the next run uses what was saved before.
import { withApiErrors, type Output, type SettingsStore, type SettingValue } from '../core/host/index.ts';
import type { CliArgs } from './args.ts';

export interface RunOnlySettings extends SettingsStore {
  /** A value for this run only: not saved, not sent to the account, until a command sets the key. */
  runOnly(key: string, value: SettingValue): void;
}

/** `base` with values for this run laid over it; setting or resetting a key ends its run-only value. */
export function withRunOnly(base: SettingsStore): RunOnlySettings {
  const over = new Map<string, SettingValue>();
  return {
    get: <T extends SettingValue>(key: string) => (over.has(key) ? (over.get(key) as T) : base.get<T>(key)),
    set(key, value) {
      over.delete(key);
      base.set(key, value);
    },
    reset(key) {
      over.delete(key);
      base.reset(key);
    },
    onChange: (key, fn) => base.onChange(key, fn),
    specs: () => base.specs(),
    runOnly(key, value) {
      if (base.specs().some((s) => s.key === key)) over.set(key, value);
    },
  };
}

interface FlagSession {
  settings: RunOnlySettings;
  api: { get<T>(path: string): Promise<{ result?: T }> };
}

/** Applies the flags; resolves the error outputs of those the server refused (none: all applied). */
export async function applyFlags(session: FlagSession, args: Pick<CliArgs, 'model' | 'role' | 'stream'>): Promise<Output[]> {
  const { settings, api } = session;
  if (args.stream !== undefined) settings.runOnly('useStream', args.stream);
  const failed: Output[] = [];
  const check = async (path: string, apply: (found: { name: string; base_url?: string }) => void) => {
    const result = await withApiErrors(async () => (await api.get<{ name: string; base_url?: string }>(path)).result);
    if (result && 'kind' in result) failed.push(result);
    else if (result) apply(result);
  };
  if (args.model) {
    await check(`/api/model/${encodeURIComponent(args.model)}`, (m) => {
      settings.runOnly('model', m.name);
      settings.runOnly('baseUrl', m.base_url ?? '');
    });
  }
  if (args.role) await check(`/api/role/${encodeURIComponent(args.role)}`, (r) => settings.runOnly('role', r.name));
  return failed;
}
