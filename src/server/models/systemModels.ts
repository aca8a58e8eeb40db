// System models: the default model from MODEL / OPENAI_BASE_URL / OPENAI_API_KEY, and the
// operator's models file (MODELS_FILE, or models.json in DATA_DIR) or MODELS (JSON text).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { ModelCapabilities } from '../../core/index.ts';
import type { Env } from '../env.ts';
import { readOperatorFile, StartError } from '../startError.ts';

export const PROVIDERS = ['openai-compatible', 'openai', 'anthropic', 'google', 'ollama'] as const;
export type ProviderKind = (typeof PROVIDERS)[number];

/** What a model can do (the core's ModelCapabilities). */
export type Capabilities = ModelCapabilities;

export interface ModelEntry {
  name: string;
  scope: 'system' | 'group' | 'user';
  provider: ProviderKind;
  /** The provider's own model id. */
  model: string;
  baseUrl: string;
  apiKey: string;
  /** Dollars per token. */
  priceInput: number;
  priceOutput: number;
  capabilities: Capabilities;
  /** DB models: the row id and owner (user or group id). */
  id?: number;
  ownerId?: number;
  /** DB models: the user who manages it (the owner, or the owner of the group it is shared with). */
  managerId?: number;
}

export const capabilitiesSchema = z.object({
  vision: z.boolean().default(false),
  tools: z.boolean().default(true),
  image: z.boolean().default(false),
  reasoning: z.boolean().default(false),
  context_window: z.number().int().positive().nullable().default(null),
});

const modelFileEntry = z.object({
  name: z.string().min(1).max(64),
  provider: z.enum(PROVIDERS).default('openai-compatible'),
  model: z.string().min(1).optional(),
  base_url: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
  api_key: z.string().optional(),
  /** Read the key from this environment variable instead of writing it in the file. */
  api_key_env: z.string().optional(),
  price_input: z.number().min(0).default(0),
  price_output: z.number().min(0).default(0),
  capabilities: capabilitiesSchema.default(capabilitiesSchema.parse({})),
});

const DEFAULT_BASE_URLS: Record<ProviderKind, string> = {
  'openai-compatible': 'https://api.openai.com/v1',
  openai: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com/v1',
  google: 'https://generativelanguage.googleapis.com/v1beta',
  ollama: 'http://127.0.0.1:11434/api',
};

/**
 * The default model (MODEL...) and the operator's models (MODELS or MODELS_FILE); `raw` holds
 * the keys a file names by variable. A mistake throws a StartError that names the variable.
 */
export function loadSystemModels(env: Env, raw: NodeJS.ProcessEnv, dataDir: string, root = process.cwd()): ModelEntry[] {
  const models: ModelEntry[] = [];
  if (env.MODEL) {
    models.push({
      name: env.MODEL,
      scope: 'system',
      provider: 'openai-compatible',
      model: env.MODEL,
      baseUrl: (env.OPENAI_BASE_URL || DEFAULT_BASE_URLS['openai-compatible']).replace(/\/+$/, ''),
      apiKey: env.OPENAI_API_KEY,
      priceInput: env.MODEL_PRICE_INPUT,
      priceOutput: env.MODEL_PRICE_OUTPUT,
      capabilities: capabilitiesSchema.parse({ vision: env.MODEL_VISION }),
    });
  }
  const file = env.MODELS_FILE ? path.resolve(root, env.MODELS_FILE) : path.join(dataDir, 'models.json');
  // A file the operator named must exist (MODELS, when set, is read instead of any file).
  if (!env.MODELS && env.MODELS_FILE && !existsSync(file)) throw new StartError(`MODELS_FILE ${file} does not exist`);
  const where = env.MODELS ? 'MODELS' : `MODELS_FILE ${file}`;
  const listed = env.MODELS || (existsSync(file) ? readOperatorFile('MODELS_FILE', file) : '');
  if (listed.trim()) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(listed);
    } catch (err) {
      throw new StartError(`${where} is not valid JSON: ${(err as Error).message}`);
    }
    const list = z.array(modelFileEntry).safeParse(parsed);
    if (!list.success) throw new StartError(`${where}: ${list.error.issues[0]!.path.join('.')}: ${list.error.issues[0]!.message}`);
    for (const m of list.data) {
      if (models.some((existing) => existing.name === m.name)) throw new StartError(`${where}: the model ${m.name} is defined twice${m.name === env.MODEL ? ' (MODEL names it too)' : ''}`);
      models.push({
        name: m.name,
        scope: 'system',
        provider: m.provider,
        model: m.model ?? m.name,
        baseUrl: (m.base_url ?? DEFAULT_BASE_URLS[m.provider]).replace(/\/+$/, ''),
        apiKey: m.api_key ?? (m.api_key_env ? (raw[m.api_key_env] ?? '') : ''),
        priceInput: m.price_input,
        priceOutput: m.price_output,
        capabilities: m.capabilities,
      });
    }
  }
  return models;
}
