// The generation request from local state (spec part 7 fields).
import type { GenerateRequest } from '../generation.ts';
import type { SettingsStore } from '../settings.ts';

export function buildRequest(settings: SettingsStore, input: { text: string; images: string[]; files: string[] }): GenerateRequest {
  const has = (key: string) => settings.specs().some((s) => s.key === key);
  const get = <T,>(key: string, fallback: T): T => (has(key) ? (settings.get(key) as T) : fallback);
  const list = (key: string) => {
    const value = get<string | string[]>(key, '');
    return Array.isArray(value) ? value.join(',') : value;
  };
  const time = settings.get<number>('time');
  return {
    user_input: input.text,
    images: input.images,
    files: input.files,
    session: settings.get<number>('session'),
    ...(time ? { time } : {}),
    ...(get('model', '') ? { model: get('model', '') } : {}),
    mem_length: get('memLength', 7),
    functions: list('functions'),
    role: get('role', ''),
    stores: list('stores'),
    node: get('node', ''),
    use_stats: get('useStats', false),
    use_eval: get('useEval', false),
    use_location: get('useLocation', false),
    location: get('location', ''),
    lang: get('lang', ''),
    use_system_role: get('useSystemRole', true),
  };
}
