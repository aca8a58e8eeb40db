// The browser's settings store: the SettingsStore interface of src/core over two TinyBase
// stores, one persisted to localStorage (device scope) and one to sessionStorage (tab scope).
// Every value read back is checked against its spec, so corrupt or hand-edited storage falls
// back to the defaults instead of throwing.
import { createStore, type Store } from 'tinybase/store';
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

type Scalar = string | number | boolean;

/** Reads the saved values; anything that is not the shape we write counts as nothing saved. */
function readSaved(storage: Storage, key: string): Record<string, Scalar> {
  try {
    const parsed: unknown = JSON.parse(storage.getItem(key) ?? '{}');
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
    return Object.fromEntries(
      Object.entries(parsed as Record<string, unknown>).filter(
        (entry): entry is [string, Scalar] => ['string', 'number', 'boolean'].includes(typeof entry[1]),
      ),
    );
  } catch {
    storage.removeItem(key);
    return {};
  }
}

/**
 * Keeps a TinyBase store's values in a Web Storage entry: loads them now, saves every change,
 * and (for localStorage) follows changes made in other tabs. Small on purpose: TinyBase's own
 * browser persister would add 2.4 KB gzip to the first paint.
 */
function persist(store: Store, storage: Storage, key: string): void {
  store.setValues(readSaved(storage, key));
  let saving = false;
  store.addValuesListener(() => {
    if (saving) return;
    saving = true;
    queueMicrotask(() => {
      saving = false;
      try {
        storage.setItem(key, JSON.stringify(store.getValues()));
      } catch {
        // Storage full or disabled: settings still work for this page.
      }
    });
  });
  globalThis.addEventListener?.('storage', (event: StorageEvent) => {
    if (event.key === key && event.storageArea === storage) store.setValues(readSaved(storage, key));
  });
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
    if (storage) persist(stores[scope], storage, STORAGE_KEYS[scope]);
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
