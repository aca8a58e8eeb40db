// The server side of the plugin contract (DESIGN.md §2). Type-only: a plugin's
// `server/index.ts` exports a ServerPluginModule, and the server hands it this context.
import type { Context, Hono, MiddlewareHandler, TypedResponse } from 'hono';
import type { ColumnDataType, Expression, Kysely, Transaction } from 'kysely';
import type { z, ZodType } from 'zod';
import type { MessageData, Message } from './messages.ts';
import type { Translate } from './contract.ts';
import type { Database } from './dbSchema.ts';
import type { GenerateRequest, RedirectEvent } from './generation.ts';
import type { UsageLimits } from './usage.ts';
import type { AuditApi } from './audit.ts';
import type { WorkerPool, WorkerPoolOptions } from './workers.ts';
import type { AccountsApi, Mail, Policy, Recipient, UserRow } from './serverAccounts.ts';
import type { AttachmentsApi, GenerationRegistry, ModelsApi, SessionOwner, SessionsApi, UploadStoreApi } from './serverTurn.ts';

export interface AppVariables {
  user: UserRow | null;
  /** The login token of this request, when there is one. */
  token: string | null;
  /**
   * What authenticated the request when not the login cookie: an authenticator's label
   * ('key:12'). Unset for a login. Routes that a key may not use (a password, payments) refuse it.
   */
  credential?: string;
}
export type AppEnv = { Variables: AppVariables };

/** A success answer (spec part 7) as the typed client sees it: `result` is what the route gives. */
export interface ApiSuccess<T> {
  success: true;
  result: T;
  message?: string;
  code?: string;
  params?: MessageData['params'];
}
/** A refusal: the error's English, and its code and values when it is a catalogue message. */
export interface ApiFailure {
  success: false;
  error: string;
  code?: string;
  params?: MessageData['params'];
}
export type RefusalStatus = 400 | 401 | 403 | 404 | 409 | 413 | 429 | 500 | 502 | 503;
export type Answered<T> = Response & TypedResponse<ApiSuccess<T>, 200, 'json'>;
export type Refused<S extends RefusalStatus> = Response & TypedResponse<ApiFailure, S, 'json'>;

/** What `ctx.validate(target, schema)` gives: zod-checked input, typed for the route and its client. */
export type Validated<Target extends 'json' | 'query', S extends ZodType> = MiddlewareHandler<
  AppEnv,
  string,
  { in: { [K in Target]: K extends 'query' ? Record<string, string | string[]> : z.input<S> }; out: { [K in Target]: z.output<S> } }
>;

/**
 * Turns a request's `Authorization: Bearer <secret>` into its user (ctx.addAuthenticator): the
 * user and a label for `c.var.credential`, or undefined when the secret is not this one's.
 * A response refuses the request (a revoked or expired secret).
 */
export type Authenticator = (secret: string, c: Context<AppEnv>) => Promise<{ user: UserRow; credential: string } | Response | undefined>;

/** Where a streamed answer's text goes (ctx.streamResponse). */
export interface StreamSink {
  write(text: string): void;
  /** The client is behind: wait for `ready()` before writing more (back-pressure). */
  full(): boolean;
  ready(): Promise<void>;
  /** Ends the answer, after `last` when given. */
  end(last?: string): void;
}

/** A check before every API route: a response refuses the request, undefined lets it through. */
export type Gate = (c: Context<AppEnv>) => Promise<Response | undefined> | Response | undefined;

export interface ServerPluginContext {
  /** The whole application (body limits, a plugin's pages); a plugin's API routes are its `routes`. */
  app: Hono<AppEnv>;
  db: Kysely<Database>;
  engine: 'sqlite' | 'postgres' | 'mysql';
  log: { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void; error(obj: object, msg?: string): void };
  accounts: AccountsApi;
  policy: Policy;
  mail: Mail;
  /** This plugin's own configuration, made from its own variables at start (PluginEnv.of, src/core/envVars.ts). */
  ownConfig: unknown;
  /** Operator settings the server and several plugins read. */
  config: {
    /** USE_NODE_AI: node output goes into chat context. */
    useNodeAi: boolean;
    /** Uses per role and window (USAGE_LIMITS); a role not listed, and root, have none. */
    usageLimits: Record<string, UsageLimits>;
    /** How many visitors' worth of the `anonymous` limits one address gets (VISITORS_PER_ADDRESS). */
    visitorsPerAddress: number;
    /** The subscription plugin's settings: plans, trial balance, PayPal (USE_SUBSCRIPTIONS turns them on). */
    subscriptions: {
      on: boolean;
      plansFile: string;
      plans: string;
      trialCents: number;
      paypal: { clientId: string; clientSecret: string; apiUrl: string; sdkUrl: string; webhookId: string };
    };
    /** The status texts of system info ('Querying...', 'Searching...'...), as the operator set them. */
    texts: { querying: string | Message; generating: string | Message; searching: string | Message; waiting: string | Message };
  };
  /**
   * A namespace's strings in a language (with the app's fallbacks), for what the server writes
   * to a person outside the app: e-mails and the pages behind their links.
   */
  texts(lang: string, ns: string): Promise<Translate>;
  /** The server's public base URL (PUBLIC_URL) for links in e-mails; '' when unset: use the request's origin. */
  publicUrl: string;
  /** Signs and checks link parameters (HMAC with the server secret). */
  sign(...parts: string[]): string;
  verify(signature: string, ...parts: string[]): boolean;
  /** Validates a request part with zod; answers 400 with a clear error otherwise. */
  validate<Target extends 'json' | 'query', S extends ZodType>(target: Target, schema: S): Validated<Target, S>;
  /** A success answer: `result`, and a message (the spec's English, with its code when it is one of a catalogue's). */
  answer<T = undefined>(c: Context, result?: T, message?: string | Message): Answered<T>;
  /** A refusal with its status and error. */
  refuse<S extends RefusalStatus>(c: Context, status: S, error: string | Message): Refused<S>;
  /** Requires a logged-in user; answers 401 'Please login.' otherwise. */
  requireUser: MiddlewareHandler<AppEnv>;
  /** Sets or clears the login cookie on a response. */
  setLoginCookie(c: Context<AppEnv>, token: string, expiresAt: number): void;
  clearLoginCookie(c: Context<AppEnv>): void;
  /**
   * Whether another site's page made the browser send this request (a link, a form, an <img>):
   * for a route that decides part of its answer by it. Every method but GET/HEAD is refused
   * so before any route runs.
   */
  crossSite(c: Context<AppEnv>): boolean;
  /** For a GET that spends or writes: refuses it, 403 'Cross-origin request refused.', when another site's page sent it. */
  sameSiteOnly: MiddlewareHandler<AppEnv>;
  /** The address a request comes from (the socket's, or X-Forwarded-For behind TRUST_PROXY). */
  clientAddress(c: Context<AppEnv>): string;
  sessions: SessionsApi;
  /** Whom `giver` may give a store or a node to ('system', 'group:<name>' or a username): one rule for both. */
  recipient(giver: UserRow, owner: string): Promise<Recipient>;
  models: ModelsApi;
  /** Context providers and server tools for the generation pipeline. */
  generation: GenerationRegistry;
  /**
   * Throttles, counted across instances: failed logins (target: the username) and group joins
   * (target: the group), and sign-ups per address (those done, and those refused because the
   * name or the address has an account).
   */
  throttles: { login: AttemptThrottle; groupJoin: AttemptThrottle; signups: Throttler; signupProbes: Throttler };
  /** The egress-safe fetch: refuses private and loopback addresses unless EGRESS_ALLOW_HOSTS allows them. */
  egressFetch: typeof fetch;
  /** Encryption at rest with the server's secret box (node keys, store passwords). */
  secrets: { seal(plain: string): string; open(sealed: string): string };
  /**
   * The egress policy for a raw TCP destination (a user's MySQL host): resolves the name and
   * returns the checked address to connect to (pinned), or throws with a clear message.
   * Hosts in EGRESS_ALLOW_HOSTS (`host` or `host:port`) skip the address check.
   */
  egressHost(host: string, port: number): Promise<string>;
  /** A check before every API route (after the user is known): a response refuses the request. */
  addGate(gate: Gate): void;
  /** Authenticates requests without a login that carry `Authorization: Bearer` (API keys). */
  addAuthenticator(authenticator: Authenticator): void;
  /** Runs the authenticators on a request outside /api/ (a plugin's own paths): sets the user and credential. */
  authenticate(c: Context<AppEnv>): Promise<Response | undefined>;
  /**
   * A streamed answer in the plugin's own format (an API's server-sent events), written as the
   * generation's SSE is: straight to the socket, with back-pressure. Return `response` from the
   * route, then write to `sink`; `onClose` runs when the client goes away first.
   */
  streamResponse(c: Context<AppEnv>, headers: Record<string, string>, onClose: () => void): { sink: StreamSink; response: Response };
  /** The server's clock (tests move it). */
  now(): number;
  /**
   * Raises the request body limit (1 MB by default) of one exact API path, e.g. an upload route.
   * `streamed`: the route reads its body as a stream and counts it against the limit itself, so
   * a chunked body (no Content-Length) reaches it unread instead of being held whole first.
   */
  setBodyLimit(path: string, maxBytes: number, options?: { streamed?: boolean }): void;
  /** The files of `+file[url]` and `+image[url]` attachments (src/server/uploads/attachments.ts). */
  attachments: AttachmentsApi;
  /** A new scratch file on the server's disk, for what is too big to hold in memory (src/server/scratchFile.ts). */
  scratchFile(): Promise<ScratchFile>;
  /** Stores files as a user's uploads, within the upload quota (src/server/uploads/store.ts). */
  uploads: UploadStoreApi;
  /** Says what was changed, for the audit trail (src/server/audit.ts): never a secret in it. */
  audit: AuditApi;
  /**
   * Runs `work` in a transaction holding the locks a question's use takes (the user's; a visitor's
   * browser and address: src/server/turn/uses.ts): what a plugin counts and then records in the
   * usage ledger is never counted by another request meanwhile (issue 34), on every engine.
   */
  withUseLocks<T>(owner: SessionOwner, work: (db: Transaction<Database>) => Promise<T>): Promise<T>;
  /** What happens inside the server, as it happens (src/server/events.ts): plugins listen, and say their own. */
  events: ServerEventBus;
  /** The state of the server's connections now: the database pool and Redis. */
  runtimeState(): RuntimeState;
  /** Runs when the server closes (before its database): for what a plugin opened itself, e.g. a listener of its own. */
  onClose(hook: () => Promise<void> | void): void;
  /** Worker threads for CPU-heavy work (src/core/workers.ts: `module` speaks its protocol); ended when the server closes. */
  workerPool<J, R>(module: URL, options: WorkerPoolOptions): WorkerPool<J, R>;
}

/** A file on the server's disk only its creator uses: written at its end, read anywhere, removed when done. */
export interface ScratchFile {
  readonly size: number;
  append(data: Uint8Array): Promise<void>;
  /** Up to `length` bytes from `at` (fewer at the end). */
  read(at: number, length: number): Promise<Uint8Array>;
  /** Closes and deletes it; again does nothing. */
  remove(): Promise<void>;
}

/**
 * What happens inside the server, named for what happens. Every field is from a small closed
 * set (a route pattern, a provider kind, an outcome): never a user, a name or free text.
 */
export interface ServerEvents {
  /** An API request answered: its route pattern as registered ('/api/role/:name'), its status, its time to the response. */
  request: { method: string; route: string; status: number; ms: number };
  /** A model began to be asked for an answer (`provider`: the model's provider kind, 'openai-compatible'...). */
  'answer.start': { provider: string };
  /** The answer's first text or tool call came, `ms` after its start. */
  'answer.firstToken': { provider: string; ms: number };
  /** The answer ended: done, failed (the provider's error) or stopped; the tokens the provider counted. */
  'answer.end': { provider: string; outcome: 'done' | 'failed' | 'stopped'; inputTokens: number; outputTokens: number; ms: number };
  /** A provider answered with an error (retried or not); `status` is its HTTP status when it had one. */
  'provider.error': { provider: string; status: number | null };
  /** A payment settled: credited, or refused, failed, refunded, duplicate (a plugin's own words, a closed set). */
  payment: { outcome: string };
  /** A login was refused: a wrong name or password, or too many tries. */
  'login.failed': { reason: 'credentials' | 'throttled' };
}
export type ServerEventListener<K extends keyof ServerEvents> = (data: ServerEvents[K]) => void;
export interface ServerEventBus {
  on<K extends keyof ServerEvents>(name: K, listener: ServerEventListener<K>): void;
  /** Synchronous and never throws: a listener's failure is logged, never the caller's. */
  emit<K extends keyof ServerEvents>(name: K, data: ServerEvents[K]): void;
}
export interface RuntimeState {
  database: { engine: 'sqlite' | 'postgres' | 'mysql'; connections: { total: number; idle: number; waiting: number } | null };
  /** Redis (REDIS_URL): whether it is configured, and whether its connection is ready now. */
  redis: { configured: boolean; ready: boolean };
}


/**
 * Failed attempts at a secret, per (target, address), per address and per target
 * (src/server/auth/attempts.ts): the same target from another address is not held back by a
 * pair's lock-out.
 */
export interface AttemptThrottle {
  /** Milliseconds until `target` may be tried from `address`; 0 when it may now. */
  wait(target: string, address: string): Promise<number>;
  failed(target: string, address: string): Promise<void>;
  succeeded(target: string, address: string): Promise<void>;
}

/** Counts failures per key across every instance (in Redis with REDIS_URL). */
export interface Throttler {
  /** Milliseconds until the key may try again; 0 when it may now. */
  retryAfter(key: string): Promise<number>;
  fail(key: string): Promise<void>;
  clear(key: string): Promise<void>;
}

/** Column types that differ between the engines (src/server/db/columns.ts). */
export interface EngineColumns {
  id: ColumnDataType | Expression<unknown>;
  bigint: ColumnDataType | Expression<unknown>;
  double: ColumnDataType | Expression<unknown>;
  name: ColumnDataType | Expression<unknown>;
  text: ColumnDataType | Expression<unknown>;
  blob: ColumnDataType | Expression<unknown>;
}

export type MigrationFactory = (
  engine: 'sqlite' | 'postgres' | 'mysql',
  columns: EngineColumns,
) => { up(db: Kysely<unknown>): Promise<void>; down?(db: Kysely<unknown>): Promise<void> };

export interface ServerPluginModule {
  /**
   * The plugin's migrations, numbered by the plugin alone ('0001_<what>', '0002_<what>'...) and
   * applied in that order; the server records them as '<id>/0001_<what>'.
   */
  migrations?: Record<string, MigrationFactory>;
  /** A migration's key → the name it was applied under when numbers were global (a database that ran it does not again). */
  formerMigrationNames?: Record<string, string>;
  /**
   * The plugin's API routes as one Hono sub-app with full paths (`/api/<plugin>/...`), which the
   * server mounts; its type gives the browser and the CLI their typed client (`typedClient`).
   */
  routes?(ctx: ServerPluginContext): Hono<AppEnv, any, any>;
  /** Everything else: generation context providers, tools, guards, account hooks. */
  register?(ctx: ServerPluginContext): void | Promise<void>;
}
