// The server side of the plugin contract, as a question's turn meets it (DESIGN.md §2):
// attachments, context providers, tools, sessions and logs, models, guards and use limits.
// Type-only, like serverPlugin.ts, which hands these to a plugin through its context.
import type { Context } from 'hono';
import type { Selectable, Transaction } from 'kysely';
import type { Message } from './messages.ts';
import type { Database } from './dbSchema.ts';
import type { GenerateRequest, GenerateResult, GenerationEvent, RedirectEvent, ToolCall } from './generation.ts';
import type { AppEnv } from './serverPlugin.ts';
import type { UserRow } from './serverAccounts.ts';

/** An attached file's bytes, with the name and type it goes by. */
export interface AttachedFile {
  name: string;
  contentType: string;
  data: Uint8Array;
}

export interface AttachmentsApi {
  /**
   * The file behind an attachment URL: one of this server's uploads read from the database
   * (the egress-safe fetch would rightly refuse the server's own address), any other URL
   * through the egress-safe fetch, at most 10 MB. Throws with a clear message.
   */
  fetch(url: string, signal: AbortSignal): Promise<AttachedFile>;
  /** The text of a document (txt, md, csv, json as UTF-8; PDF; DOCX); '' for images. */
  extractText(name: string, data: Uint8Array): Promise<string>;
}

/** An upload the server stored for someone: its id and the object URL it is served at. */
export interface StoredUpload {
  id: string;
  url: string;
}

/** Files the server stores as a user's uploads itself (an import's pictures), as a presigned PUT would. */
export interface UploadStoreApi {
  /**
   * Stores `data` as the user's upload named `name` (its extension decides its type), after the
   * PUT's checks, counted against the user's upload quota; the refusal's message otherwise.
   * `origin` is the object URL's (the request's, or PUBLIC_URL).
   */
  store(userId: number, file: { name: string; data: Uint8Array }, origin: string): Promise<StoredUpload | { refused: Message }>;
  /** Removes some of the user's uploads (what a failed write had stored). */
  remove(userId: number, ids: string[]): Promise<void>;
}

/** What a context provider sees of a generation (role prompt, store results, node output...). */
export interface GenerationContextInput {
  request: GenerateRequest;
  user: UserRow | null;
  /** Who asks: the user, or a visitor's browser and address (what a provider counts a use under). */
  owner?: SessionOwner;
  signal: AbortSignal;
  /** Shows a status line while the provider works (e.g. 'Searching...'). */
  status(text: string | Message): void;
}

/** A context provider adds system messages before the conversation (DESIGN.md §2). */
export type ContextProvider = (input: GenerationContextInput) => Promise<{ system?: string[]; images?: string[] } | void>;

/** A tool that runs on the server when a model calls it (or when a user calls it with `!`). */
export interface ServerTool {
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: Record<string, unknown>;
  /**
   * `signal` is the turn's own (one per question: a tool may count its calls per question by it);
   * `owner` is who asks, when a question's turn runs the tool (a direct `!` call has a user only).
   */
  execute(args: unknown, context: { user: UserRow | null; owner?: SessionOwner; signal: AbortSignal }): Promise<{ result: string; event?: RedirectEvent }>;
}

/** The owner of what a request creates or reads: a user, or an anonymous browser's device. */
export interface SessionOwner {
  user: UserRow | null;
  deviceId: string;
  root: boolean;
  /** A visitor's address key (an HMAC of the client's address), which a visitor's limits count under too; none for a user. */
  address?: string;
}

export type SessionRow = Selectable<Database['sessions']>;
export type LogRow = Selectable<Database['logs']>;

/** Sessions and logs (src/server/turn/sessions.ts): ownership and privacy rules in one place. */
export interface SessionsApi {
  /** The request's owner (sets the device cookie on a first visit); a visitor's carries its address key. */
  owner(c: Context<AppEnv>): SessionOwner;
  get(id: number): Promise<SessionRow | undefined>;
  owns(session: SessionRow, owner: SessionOwner): boolean;
  /** The owner, root, or anyone once the owner shared it. */
  canRead(session: SessionRow, owner: SessionOwner): boolean;
  /** The last `limit` logs before now, following the parent chain, oldest first. */
  memory(sessionId: number, limit: number): Promise<LogRow[]>;
  /** At login: this browser's anonymous sessions, logs and uploads become the user's. */
  adopt(c: Context<AppEnv>, user: UserRow): Promise<number>;
  /** What a plugin keeps per browser goes with them: `hook` runs in the adoption's transaction. */
  onAdopt(hook: AdoptHook): void;
  /**
   * A column of logs a plugin keeps (its migration adds it), computed by the server from each log's
   * text wherever a log is written: for what the database would compute too slowly itself.
   */
  addLogColumn(column: LogColumn): void;
  /** The plugins' columns of a log about to be written: a plugin that writes logs adds them to each row. */
  logColumns(log: LogText): Record<string, unknown>;
}

/** What a log column is computed from. */
export interface LogText {
  input: string;
  output: string;
}

/** A plugin's column of logs: its name, and its value for a log's text. */
export interface LogColumn {
  name: string;
  value(log: LogText): unknown;
}

/** Moves a plugin's rows of a browser (`deviceId`, no user) to the user who logged in there. */
export type AdoptHook = (db: Transaction<Database>, deviceId: string, userId: number) => Promise<void>;

/** A model as the API shows it: never a key; the base URL and the key (masked) to its manager only. */
export interface PublicModel {
  name: string;
  scope: 'system' | 'group' | 'user';
  provider: string;
  model: string;
  base_url?: string;
  api_key?: string;
  price_input: number;
  price_output: number;
  capabilities: ModelCapabilities;
  /** The viewer manages it: their own model, or one they share with their group. */
  mine?: boolean;
}

/** What a model can do (operators and users declare it per model). */
export interface ModelCapabilities {
  vision: boolean;
  tools: boolean;
  image: boolean;
  reasoning: boolean;
  context_window: number | null;
}

/** A model a user keeps, as stored: its key sealed, its capabilities JSON; who manages it (the owner, or the owner of the group it is shared with). */
export interface StoredModel {
  id: number;
  name: string;
  /** 'user' or 'group' (system models come from configuration). */
  scope: string;
  /** The user id or the group id that owns it. */
  owner_id: number;
  manager_id: number;
  provider: string;
  /** The provider's own model id. */
  model: string;
  base_url: string;
  /** The API key, sealed with the server secret (AES-256-GCM). */
  api_key: string;
  price_input: number;
  price_output: number;
  /** JSON: {vision, tools, image, reasoning, context_window}. */
  capabilities: string;
}

export interface ModelsApi {
  /** Where the models a user keeps come from (the plugin that stores them), in the order listed; without one, only the system's. */
  addSource(source: (user: UserRow) => Promise<StoredModel[]>): void;
  list(user: UserRow | null): Promise<{ user_models: PublicModel[]; group_models: PublicModel[]; system_models: PublicModel[] }>;
  get(name: string, user: UserRow | null): Promise<PublicModel | undefined>;
  /** Seals an API key for storage in the models table. */
  sealKey(key: string): string;
  /** Checks a user-supplied base URL against the egress policy (throws with a clear message). */
  checkBaseUrl(url: string): Promise<void>;
}

/**
 * A check before a turn (usage limits): a message refuses the turn, before anything is written
 * or asked of a model; undefined lets it go on.
 */
export type GenerationGuard = (input: { request: GenerateRequest; owner: SessionOwner }) => Promise<string | Message | undefined>;

/**
 * A limit on questions (usage limits), checked when a question starts, inside a transaction
 * that holds the asker's locks (the user's; a visitor's browser and address), so that questions
 * sent at once are counted one after the other: it reads the uses through `db`, that
 * transaction, and never through the plugin's own handle (which would wait for a connection the
 * lock holders keep). A message refuses the question; otherwise the server records the use at
 * once, as a `chat` row of the usage ledger that the finished turn completes, or removes when
 * the model was never asked. Uses are counted by their rows: `kind` 'chat', the user's
 * `user_id`, or a visitor's `device_id` and `address` (with `user_id` null).
 */
export type UseLimit = (input: { db: Transaction<Database>; owner: SessionOwner; now: number }) => Promise<string | Message | UseRefusal | undefined>;

/** A refusal that knows when the asker may ask again (epoch ms), so an API can send Retry-After. */
export interface UseRefusal {
  said: string | Message;
  retryAt: number;
}

export interface GenerationRegistry {
  addContextProvider(provider: ContextProvider): void;
  addGuard(guard: GenerationGuard): void;
  addUseLimit(limit: UseLimit): void;
  addTool(name: string, tool: ServerTool): void;
  /** A tool a plugin added, by name (the function plugin's exec route runs every plugin's system functions). */
  tool(name: string): ServerTool | undefined;
  /**
   * A one-shot, non-streaming completion with a model the user may use (default: the system's
   * default model), for plugins that need one (a store writing SQL, a node summarizing).
   * Its tokens go into the usage ledger.
   */
  complete(input: { user: UserRow | null; model?: string; system: string; prompt: string; signal: AbortSignal }): Promise<string>;
  /**
   * One turn of the page's pipeline for a user, asked by a plugin on its own route (an API in
   * another wire format): the same caps, guards, use limits, context providers, model access,
   * usage ledger and log. Its events go to `emit` as the page's would; undefined when it failed
   * (the error event says why).
   */
  run(input: ServerTurnInput): Promise<GenerateResult | undefined>;
}

/** A message of a conversation a caller sends whole (in place of a session's memory and the input). */
export type TurnMessage =
  | { role: 'system' | 'user'; content: string; images?: string[] }
  | { role: 'assistant'; content: string; toolCalls?: ToolCall[] }
  | { role: 'tool'; toolCallId: string; name: string; content: string };

/** Which tool the model must call: the caller's choice, passed on to the provider. */
export type ToolChoice = 'auto' | 'none' | 'required' | { name: string };

export interface ServerTurnInput {
  user: UserRow;
  /** As the page sends it: model, role, stores; the caller's tools as `mcp_tools` (their calls end the turn). */
  request: GenerateRequest;
  /** The whole conversation, which replaces the session's memory and `user_input` in the model's context. */
  conversation?: TurnMessage[];
  toolChoice?: ToolChoice;
  /** A label kept on the turn's usage ledger rows, saying where the call came from ('key:12'). */
  tag?: string;
  /** Keep no log: the ledger still gets the turn's rows, and `request.session` is not used. */
  noLog?: boolean;
  /** The client's address, which the caps on answers in flight count. */
  address: string;
  emit(event: GenerationEvent): void | Promise<void>;
  signal: AbortSignal;
}
