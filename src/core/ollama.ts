// The local model server (Ollama) as the browser reaches it directly (spec part 7, "Local model
// server"): a health check that must answer exactly 'Ollama is running' within 100 ms, and the
// OpenAI-compatible model list. Plain fetch, so the model plugin, the browser chat and the tests
// share one definition of "Ollama is up" and "this model exists".
import { OLLAMA_HEALTH_TIMEOUT_MS } from './constants.ts';
import { defineMessages } from './messages.ts';
import type { SystemInfo } from './platform.ts';

export const DEFAULT_OLLAMA_URL = 'http://localhost:11434';
export const OLLAMA_HEALTH_TEXT = 'Ollama is running';

export const OLLAMA_MESSAGES = defineMessages('core', {
  ollamaCannotConnect: 'Cannot connect to Ollama server.',
  ollamaModelNotFound: 'Ollama model not found.',
  /** Not a spec message: the stream broke, or ended without its [DONE], mid-answer. */
  ollamaCutShort: 'The Ollama server ended the stream early.',
});

export interface OllamaOptions {
  fetch?: typeof fetch;
  timeoutMs?: number;
}

/** The server's `ollama_url` (OLLAMA_BASE_URL), else http://localhost:11434; no trailing slash. */
export function ollamaUrl(info: SystemInfo | undefined): string {
  return (info?.ollama_url || DEFAULT_OLLAMA_URL).replace(/\/+$/, '');
}

/** Same origin and path, ignoring a trailing slash: is `baseUrl` the local model server? */
export function isOllamaUrl(baseUrl: string, ollama: string): boolean {
  return !!baseUrl && baseUrl.replace(/\/+$/, '') === ollama.replace(/\/+$/, '');
}

/** Ollama lists `name:latest`; people type `name`. */
export function ollamaModelName(id: string): string {
  return id.replace(/:latest$/, '');
}

/** GET / within the timeout, expecting exactly 'Ollama is running'. Never throws. */
export async function ollamaHealthy(base: string, options: OllamaOptions = {}): Promise<boolean> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), options.timeoutMs ?? OLLAMA_HEALTH_TIMEOUT_MS);
  try {
    const response = await (options.fetch ?? fetch)(`${base}/`, { signal: abort.signal, credentials: 'omit' });
    return response.ok && (await response.text()) === OLLAMA_HEALTH_TEXT;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/** The model names of GET /v1/models (`:latest` dropped), or undefined when Ollama is down. */
export async function ollamaModels(base: string, options: OllamaOptions = {}): Promise<string[] | undefined> {
  if (!(await ollamaHealthy(base, options))) return undefined;
  try {
    const response = await (options.fetch ?? fetch)(`${base}/v1/models`, { credentials: 'omit' });
    if (!response.ok) return undefined;
    const body = (await response.json()) as { data?: { id?: unknown }[] };
    const ids = (body.data ?? []).map((m) => m.id).filter((id): id is string => typeof id === 'string');
    return [...new Set(ids.map(ollamaModelName))];
  } catch {
    return undefined;
  }
}
