// The browser's settings store: the SettingsStore interface of src/core over two TinyBase
// stores, one persisted to localStorage (device scope) and one to sessionStorage (tab scope).
// Every value read back is checked against its spec, so corrupt or hand-edited storage falls
// back to the defaults instead of throwing.
import { createStore, type Store } from 'tinybase/store';
import { createLocalPersister, createSessionPersister } from 'tinybase/persisters/persister-browser';
import {
  coerceStored,
  SettingListeners,
  type SettingSpec,
  type SettingsStore,
  type SettingValue,
} from '../core/index.ts';

export const STORAGE_KEYS = { device: 'shellchat:device', tab: 'shellchat:tab' } as const;

/** TinyBase values are scalars; lists travel as JSON text. */
function encode(value: SettingValue): string | number | boolean {
  return Array.isArray(value) ? JSON.stringify(value) : value;
}

function decode(spec: SettingSpec, raw: unknown): SettingValue {
  if (spec.type === 'list' && typeof raw === 'string') {
    try {
      return coerceStored(spec, JSON.parse(raw));
    } catch {
      return spec.default;
    }
  }
  return coerceStored(spec, raw);
}

/** Drops a storage entry that is not the JSON TinyBase wrote, so the persister starts clean. */
function dropIfCorrupt(storage: Storage, key: string): void {
  try {
    const raw = storage.getItem(key);
    if (raw !== null) {
      const parsed: unknown = JSON.parse(raw);
      if (!Array.isArray(parsed)) storage.removeItem(key);
    }
  } catch {
    storage.removeItem(key);
  }
}

export async function createBrowserSettings(specs: readonly SettingSpec[]): Promise<SettingsStore> {
  const stores: Record<'device' | 'tab', Store> = { device: createStore(), tab: createStore() };
  const listeners = new SettingListeners();
  const specOf = (key: string) => {
    const spec = specs.find((s) => s.key === key);
    if (!spec) throw new Error(`Unknown setting ${key}`);
    return spec;
  };
  const storeOf = (spec: SettingSpec) => stores[spec.scope];

  for (const [scope, storage] of [
    ['device', globalThis.localStorage],
    ['tab', globalThis.sessionStorage],
  ] as const) {
    if (!storage) continue;
    dropIfCorrupt(storage, STORAGE_KEYS[scope]);
    const create = scope === 'device' ? createLocalPersister : createSessionPersister;
    const persister = create(stores[scope], STORAGE_KEYS[scope], () => {});
    try {
      // Auto-load also follows changes made in other tabs (device scope).
      await persister.startAutoLoad();
      await persister.startAutoSave();
    } catch {
      stores[scope].delValues();
    }
  }

  for (const scope of ['device', 'tab'] as const) {
    stores[scope].addValueListener(null, (_store, key) => {
      const spec = specs.find((s) => s.key === key);
      if (!spec) return;
      listeners.notify(key, decode(spec, stores[scope].getValue(key)));
    });
  }

  return {
    get: <T extends SettingValue>(key: string) => {
      const spec = specOf(key);
      const raw = storeOf(spec).getValue(key);
      return (raw === undefined ? spec.default : decode(spec, raw)) as T;
    },
    set(key, value) {
      const spec = specOf(key);
      storeOf(spec).setValue(key, encode(coerceStored(spec, value)));
    },
    reset(key) {
      const spec = specOf(key);
      storeOf(spec).setValue(key, encode(spec.default));
    },
    onChange: (key, fn) => listeners.add(key, fn),
    specs: () => specs,
  };
}
