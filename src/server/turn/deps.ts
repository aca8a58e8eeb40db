// What a turn runs on: the server's dependencies (app.ts gives them), the turn's own (its
// request, owner, events and stop, then its session and model), and which fetch a model's
// requests go through.
import type { Kysely } from 'kysely';
import type { AttachmentsApi, ContextProvider, Database, GenerateRequest, GenerationEvent, GenerationGuard, Message, ServerEventBus, ServerTool, ToolChoice, TurnMessage, UseLimit } from '../../core/index.ts';
import type { ModelRegistry } from '../models/registry.ts';
import type { ModelEntry } from '../models/systemModels.ts';
import type { AnswerCaps } from './answerCaps.ts';
import type { InFlight } from './inflight.ts';
import type { Owner } from './owner.ts';
import type { Use } from './uses.ts';

export interface GenerationDeps {
  db: Kysely<Database>;
  models: ModelRegistry;
  providers: ContextProvider[];
  /** Checks before a turn (a plan's gates): a message refuses it. */
  guards?: GenerationGuard[];
  /** Limits on questions (usage limits), counted when a question starts (uses.ts); none: uses are recorded with the log. */
  useLimits?: UseLimit[];
  tools: Map<string, ServerTool>;
  /** fetch for user-supplied URLs (files, user models). */
  egressFetch: typeof fetch;
  /** The files behind attachment URLs: this server's uploads, or the egress-safe fetch. */
  attachments: AttachmentsApi;
  settings: { roleContentSystem: string; temperature: number; topP: number; querying: string | Message; generating: string | Message; streamRelay: 'direct' | 'sdk'; publicUrl?: string };
  log: { error(obj: object, msg?: string): void };
  /** Generations under way (a shutdown stops them: inflight.ts). */
  inflight: InFlight;
  /** Caps on answers in flight per user, anonymous browser and address (answerCaps.ts). */
  caps: AnswerCaps;
  /** Where an answer's start, first token, end and provider errors are said (observation: src/server/events.ts). */
  events?: ServerEventBus;
}

/** May return a promise when the reader is behind: the stream waits for it (back-pressure). */
export type Emit = (event: GenerationEvent, endOfRead?: boolean) => void | Promise<void>;

/** What every step of a turn reads: the server's dependencies, the request and its owner, where events go, the stop. */
export interface Turn {
  deps: GenerationDeps;
  request: GenerateRequest;
  owner: Owner;
  emit: Emit;
  signal: AbortSignal;
  /** The question's use, recorded when it started (with usage limits on: uses.ts). */
  use?: Use;
  /** What a plugin's server turn adds (ctx.generation.run: serverTurn.ts); none for the page's. */
  extra?: TurnExtra;
}

/** A server turn's own: the caller's conversation, its tool choice, the ledger's tag, no log. */
export interface TurnExtra {
  conversation?: TurnMessage[];
  toolChoice?: ToolChoice;
  tag?: string;
  noLog?: boolean;
}

/** A turn once its session and its model are known. */
export interface ModelTurn extends Turn {
  session: number;
  entry: ModelEntry;
}

/** The fetch a model's requests go through: undefined for the operator's system models. */
export function modelFetch(entry: ModelEntry, deps: GenerationDeps): typeof fetch | undefined {
  // Operator-configured system models are trusted; user and group base URLs are not.
  return entry.scope === 'system' ? undefined : deps.egressFetch;
}
