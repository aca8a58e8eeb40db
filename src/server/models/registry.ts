// Every model a user can reach: their own and their groups' (from the plugin that keeps them,
// addSource), and the system's. A user model wins over a group model of the same name, which
// wins over a system model.
import type { PublicModel, StoredModel, UserRow } from '../../core/index.ts';
import { mask } from '../crypto/secretBox.ts';
import { capabilitiesSchema, PROVIDERS, type ModelEntry, type ProviderKind } from './systemModels.ts';

export interface SecretBox {
  seal(plain: string): string;
  open(sealed: string): string;
}

export class ModelRegistry {
  private readonly systemModels: ModelEntry[];
  private readonly box: SecretBox;
  private readonly sources: ((user: UserRow) => Promise<StoredModel[]>)[] = [];

  constructor(systemModels: ModelEntry[], box: SecretBox) {
    this.systemModels = systemModels;
    this.box = box;
  }

  system(): ModelEntry[] {
    return this.systemModels;
  }

  /** The default model: the first system model. */
  defaultModel(): ModelEntry | undefined {
    return this.systemModels[0];
  }

  private fromRow(row: StoredModel): ModelEntry {
    let apiKey = '';
    try {
      apiKey = row.api_key ? this.box.open(row.api_key) : '';
    } catch {
      // A key sealed with another secret cannot be used; the call will fail with the provider's 401.
      apiKey = '';
    }
    return {
      id: row.id,
      ownerId: row.owner_id,
      managerId: row.manager_id,
      name: row.name,
      scope: row.scope as 'user' | 'group',
      provider: (PROVIDERS as readonly string[]).includes(row.provider) ? (row.provider as ProviderKind) : 'openai-compatible',
      model: row.model,
      baseUrl: row.base_url,
      apiKey,
      priceInput: row.price_input,
      priceOutput: row.price_output,
      capabilities: capabilitiesSchema.parse(safeJson(row.capabilities)),
    };
  }

  /** The models users keep come from a plugin's table; the core has none of its own. */
  addSource(source: (user: UserRow) => Promise<StoredModel[]>): void {
    this.sources.push(source);
  }

  private async rows(user: UserRow): Promise<StoredModel[]> {
    return (await Promise.all(this.sources.map((source) => source(user)))).flat();
  }

  async list(user: UserRow | null): Promise<{ user_models: ModelEntry[]; group_models: ModelEntry[]; system_models: ModelEntry[] }> {
    const rows = user ? (await this.rows(user)).map((r) => this.fromRow(r)) : [];
    return {
      user_models: rows.filter((m) => m.scope === 'user'),
      group_models: rows.filter((m) => m.scope === 'group'),
      system_models: this.systemModels,
    };
  }

  async resolve(name: string, user: UserRow | null): Promise<ModelEntry | undefined> {
    const { user_models, group_models, system_models } = await this.list(user);
    return [...user_models, ...group_models, ...system_models].find((m) => m.name === name);
  }

  toPublic(entry: ModelEntry, viewer: UserRow | null): PublicModel {
    // The key, masked, and the base URL only for the one who manages the model: group members
    // only use it, and a system model's URL is the operator's (often an internal address).
    const own = entry.scope !== 'system' && viewer !== null && entry.managerId === viewer.id;
    return {
      name: entry.name,
      scope: entry.scope,
      provider: entry.provider,
      model: entry.model,
      ...(own ? { base_url: entry.baseUrl, api_key: mask(entry.apiKey) } : {}),
      price_input: entry.priceInput,
      price_output: entry.priceOutput,
      capabilities: entry.capabilities,
      ...(own ? { mine: true } : {}),
    };
  }

  sealKey(key: string): string {
    return key ? this.box.seal(key) : '';
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return {};
  }
}
