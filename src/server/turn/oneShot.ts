// One non-streaming completion for plugins (ServerPluginContext.generation.complete): the
// user's model or the default, through the same providers, with its tokens in the ledger.
import { generateText } from 'ai';
import type { Kysely } from 'kysely';
import type { Database, UserRow } from '../../core/index.ts';
import type { ModelRegistry } from '../models/registry.ts';
import { languageModel } from '../models/providers.ts';

export async function completeOnce(
  db: Kysely<Database>,
  models: ModelRegistry,
  egressFetch: typeof fetch,
  input: { user: UserRow | null; model?: string; system: string; prompt: string; signal: AbortSignal },
): Promise<string> {
  const entry = input.model ? await models.resolve(input.model, input.user) : models.defaultModel();
  if (!entry) throw new Error(input.model ? 'Model not found.' : 'No available model found.');
  const result = await generateText({
    model: languageModel(entry, entry.scope === 'system' ? undefined : egressFetch),
    system: input.system,
    prompt: input.prompt,
    abortSignal: input.signal,
    maxRetries: 2,
  });
  const inputTokens = result.usage.inputTokens ?? 0;
  const outputTokens = result.usage.outputTokens ?? 0;
  await db
    .insertInto('usage')
    .values({
      user_id: input.user?.id ?? null,
      device_id: null,
      log_id: null,
      kind: 'plugin',
      model: entry.name,
      input_tokens: inputTokens,
      output_tokens: outputTokens,
      cost: inputTokens * entry.priceInput + outputTokens * entry.priceOutput,
      created_at: Date.now(),
    })
    .execute();
  return result.text;
}
