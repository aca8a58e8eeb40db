// Turns a model entry into an AI SDK language model. User and group models call their base
// URL through the egress-safe fetch and only ever with their own key.
import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModel } from 'ai';
import { createOllama } from 'ollama-ai-provider-v2';
import type { ModelEntry } from './systemModels.ts';

export function languageModel(entry: ModelEntry, fetchImpl?: typeof fetch): LanguageModel {
  // Without an apiKey the OpenAI, Anthropic and Google providers read OPENAI_API_KEY & co. from
  // the server's environment: a user or group model must never fall back to a system key.
  const apiKey = entry.scope === 'system' ? entry.apiKey || undefined : entry.apiKey;
  const common = { baseURL: entry.baseUrl, apiKey, ...(fetchImpl ? { fetch: fetchImpl } : {}) };
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
