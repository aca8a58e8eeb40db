// What the server hands every plugin (src/core/serverPlugin.ts): its database, accounts, policy,
// mail, configuration, response helpers, the egress-safe fetch, sessions, models, and the
// generation registry its tools, context providers and guards go into.
import type { Context, Hono } from 'hono';
import type { AdoptHook, WorkerPoolOptions, AppEnv, ContextProvider, UploadStoreApi, GenerateResult, GenerationGuard, RuntimeState, ServerEventBus, ServerPluginContext, ServerTool, ServerTurnInput, UseLimit } from '../core/index.ts';
import { adoptDevice } from './accounts/adopt.ts';
import type { Accounts } from './accounts/service.ts';
import { cookieHelpers, isHttps, requireUser } from './auth/session.ts';
import type { Throttles } from './auth/throttles.ts';
import { sign, verifySignature } from './auth/tokens.ts';
import type { ServerConfig } from './config.ts';
import type { SecretBox } from './crypto/secretBox.ts';
import type { Db } from './db/connect.ts';
import { addressReader, clientAddress as addressOf } from './http/clientAddress.ts';
import { crossSite, sameSiteOnly } from './http/origin.ts';
import { fail, ok } from './http/respond.ts';
import { validate } from './http/validate.ts';
import type { Logger } from './log.ts';
import { createMail } from './mail.ts';
import type { ModelRegistry } from './models/registry.ts';
import { createAudit } from './audit.ts';
import { withKeyLocks } from './db/keyLock.ts';
import { checkUrlAllowed } from './net/checkUrl.ts';
import { resolvePublicAddresses } from './net/egress.ts';
import { policy } from './policy.ts';
import { recipientOf } from './recipients.ts';
import { textsIn } from './texts.ts';
import { completeOnce } from './turn/oneShot.ts';
import { streamResponse } from './transport/streamResponse.ts';
import { ownerOf } from './turn/owner.ts';
import { canRead, getSession, memory, owns } from './turn/sessions.ts';
import { addLogColumn, logColumns } from './db/logColumns.ts';
import { useLockKeys } from './turn/uses.ts';
import { createWorkerPool } from './workers/pool.ts';
import type { createAttachments } from './uploads/attachments.ts';

export interface PluginContextDeps {
  app: Hono<AppEnv>;
  config: ServerConfig;
  db: Db;
  log: Logger;
  accounts: Accounts;
  secret: string;
  box: SecretBox;
  models: ModelRegistry;
  egressFetch: typeof fetch;
  attachments: ReturnType<typeof createAttachments>;
  uploads: UploadStoreApi;
  scratchFile: ServerPluginContext['scratchFile'];
  throttles: Throttles;
  setBodyLimit(path: string, maxBytes: number, options?: { streamed?: boolean }): void;
  addGate: ServerPluginContext['addGate'];
  addAuthenticator: ServerPluginContext['addAuthenticator'];
  authenticate: ServerPluginContext['authenticate'];
  now(): number;
  events: ServerEventBus;
  runtimeState(): RuntimeState;
  onClose(hook: () => Promise<void> | void): void;
  /** The server turn (turn/serverTurn.ts), set once the generation pipeline exists (after the plugins are mounted). */
  turns: { run?: (input: ServerTurnInput) => Promise<GenerateResult | undefined> };
  /** Filled by the plugins' register(): the generation pipeline reads them. */
  contextProviders: ContextProvider[];
  guards: GenerationGuard[];
  useLimits: UseLimit[];
  tools: Map<string, ServerTool>;
}

export function pluginContext(deps: PluginContextDeps): ServerPluginContext {
  const { app, config, db, log, accounts, secret, box, models, egressFetch, attachments, uploads, scratchFile, throttles, setBodyLimit, addGate, addAuthenticator, authenticate, now, events, runtimeState, onClose, contextProviders, guards, useLimits, tools, turns } = deps;
  const clientAddress = (c: Context<AppEnv>): string => addressOf(c, config.trustProxy);
  const addresses = addressReader(config.trustProxy, secret);
  const adoptHooks: AdoptHook[] = [];

  return {
    app,
    db: db.db,
    engine: db.engine,
    log,
    accounts,
    policy,
    mail: createMail(config.smtpUrl, config.mailFrom),
    // Each plugin gets its own when mounted (app.ts).
    ownConfig: undefined,
    config: {
      usageLimits: config.usageLimits,
      visitorsPerAddress: config.visitors.perAddress,
      useNodeAi: config.useNodeAi,
      texts: config.texts,
      subscriptions: config.subscriptions,
    },
    texts: textsIn,
    // PUBLIC_URL, or '' when unset: links then use the request's origin.
    publicUrl: config.publicUrl,
    sign: (...parts) => sign(secret, ...parts),
    verify: (signature, ...parts) => verifySignature(secret, signature, ...parts),
    validate,
    answer: ok,
    refuse: fail,
    requireUser,
    ...cookieHelpers(config.trustProxy),
    clientAddress,
    crossSite: (c) => crossSite(c, config.allowedOrigins),
    sameSiteOnly: sameSiteOnly(config.allowedOrigins),
    throttles,
    egressFetch,
    secrets: { seal: (plain) => box.seal(plain), open: (sealed) => box.open(sealed) },
    setBodyLimit,
    addGate,
    addAuthenticator,
    authenticate,
    streamResponse,
    now,
    attachments,
    uploads,
    scratchFile,
    audit: createAudit(log, now, clientAddress),
    withUseLocks: (owner, work) => withKeyLocks(db.db, useLockKeys(owner), work),
    events,
    runtimeState,
    onClose,
    workerPool: <J, R>(module: URL, options: WorkerPoolOptions) => {
      const pool = createWorkerPool<J, R>(module, options);
      onClose(() => pool.close());
      return pool;
    },
    egressHost: async (host, port) => {
      if (config.egressAllowHosts.includes(`${host}:${port}`) || config.egressAllowHosts.includes(host)) return host;
      return (await resolvePublicAddresses(host))[0]!.address;
    },
    recipient: (giver, owner) => recipientOf(db.db, (name) => accounts.byUsername(name), giver, owner),
    sessions: {
      // A visitor's owner carries the address key its limits count under too (issue 34).
      owner: (c) => ownerOf(c, isHttps(c, config.trustProxy), addresses.key),
      get: (id) => getSession(db.db, id),
      owns,
      canRead,
      memory: (id, limit) => memory(db.db, id, limit),
      adopt: (c, user) => adoptDevice(db.db, ownerOf(c, isHttps(c, config.trustProxy)).deviceId, user.id, adoptHooks),
      onAdopt: (hook) => void adoptHooks.push(hook),
      addLogColumn: (column) => addLogColumn(db.db as never, column),
      logColumns: (log) => logColumns(db.db as never, log),
    },
    models: {
      addSource: (source) => models.addSource(source),
      list: async (user) => {
        const all = await models.list(user);
        const view = (list: typeof all.system_models) => list.map((m) => models.toPublic(m, user));
        return { user_models: view(all.user_models), group_models: view(all.group_models), system_models: view(all.system_models) };
      },
      get: async (name, user) => {
        const entry = await models.resolve(name, user);
        return entry ? models.toPublic(entry, user) : undefined;
      },
      sealKey: (key) => models.sealKey(key),
      checkBaseUrl: (url) => checkUrlAllowed(url, config.egressAllowHosts),
    },
    generation: {
      addContextProvider: (provider) => contextProviders.push(provider),
      addGuard: (guard) => guards.push(guard),
      addUseLimit: (limit) => useLimits.push(limit),
      addTool: (name, serverTool) => {
        if (tools.has(name)) throw new Error(`Tool ${name} is registered twice`);
        tools.set(name, serverTool);
      },
      tool: (name) => tools.get(name),
      complete: (input) => completeOnce(db.db, models, egressFetch, input),
      run: (input) => {
        if (!turns.run) throw new Error('The server turn is not ready before the plugins are registered');
        return turns.run(input);
      },
    },
  };
}
