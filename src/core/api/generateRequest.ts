// The generation request from local state (spec part 7 fields): the session and the log in
// view, and each declared setting with `turn`, in the field of its key in snake_case.
import type { GenerateRequest } from '../generation.ts';
import type { SettingsStore } from '../settings.ts';

export function buildRequest(settings: SettingsStore, input: { text: string; images: string[]; files: string[] }): GenerateRequest {
  const time = settings.get<number>('time');
  const request: GenerateRequest = {
    user_input: input.text,
    images: input.images,
    files: input.files,
    session: settings.get<number>('session'),
    ...(time ? { time } : {}),
  };
  for (const spec of settings.specs()) {
    if (!spec.turn) continue;
    const value = settings.get(spec.key);
    // The server reads an empty text as an absent field, and a setting not installed as its default.
    if (value === '') continue;
    (request as unknown as Record<string, unknown>)[turnField(spec.key)] = Array.isArray(value) ? value.join(',') : value;
  }
  return request;
}

/** The request field of a `turn` setting: `memLength` → `mem_length`. */
export const turnField = (key: string): string => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
