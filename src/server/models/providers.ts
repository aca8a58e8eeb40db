// Turns a model entry into an AI SDK language model. User and group models call their base
// URL through the egress-safe fetch and only ever with their own key.
import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { ImageModel, LanguageModel } from 'ai';
import { createOllama } from 'ollama-ai-provider-v2';
import type { ModelEntry } from './systemModels.ts';

/** What every provider is made with: the entry's base URL and key, and the fetch to use. */
function settingsOf(entry: ModelEntry, fetchImpl?: typeof fetch) {
  // Without an apiKey the OpenAI, Anthropic and Google providers read OPENAI_API_KEY & co. from
  // the server's environment: a user or group model must never fall back to a system key.
  const apiKey = entry.scope === 'system' ? entry.apiKey || undefined : entry.apiKey;
  return { baseURL: entry.baseUrl, apiKey, ...(fetchImpl ? { fetch: fetchImpl } : {}) };
}

/**
 * The image model of an entry whose capabilities say `image` (gpt-image-1, dall-e, imagen...):
 * OpenAI's images API (generations, and edits when images are given), Google's Imagen.
 * Undefined for providers without an images API (Anthropic, Ollama).
 */
export function imageModel(entry: ModelEntry, fetchImpl?: typeof fetch): ImageModel | undefined {
  const common = settingsOf(entry, fetchImpl);
  switch (entry.provider) {
    case 'openai-compatible':
      return createOpenAICompatible({ ...common, name: 'openai-compatible' }).imageModel(entry.model);
    case 'openai':
      return createOpenAI(common).image(entry.model);
    case 'google':
      return createGoogleGenerativeAI(common).image(entry.model);
    default:
      return undefined;
  }
}

export function languageModel(entry: ModelEntry, fetchImpl?: typeof fetch): LanguageModel {
  const common = settingsOf(entry, fetchImpl);
  switch (entry.provider) {
    case 'openai-compatible':
      return createOpenAICompatible({ ...common, name: 'openai-compatible', includeUsage: true }).chatModel(entry.model);
    case 'openai':
      return createOpenAI(common).chat(entry.model);
    case 'anthropic':
      return createAnthropic(common)(entry.model);
    case 'google':
      return createGoogleGenerativeAI(common)(entry.model);
    case 'ollama':
      return createOllama({ baseURL: entry.baseUrl, ...(fetchImpl ? { fetch: fetchImpl } : {}) })(entry.model);
  }
}
