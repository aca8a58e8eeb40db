// The server: database and migrations, accounts, the Hono application with its middleware,
// every enabled plugin's routes, and the built single-page app, on one origin.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Hono, type Context } from 'hono';
import type { DestinationStream } from 'pino';
import { userSettingRules, type AppEnv, type ContextProvider, type GenerationGuard, type PluginManifest, type ServerPluginContext, type ServerPluginModule, type ServerTool, type SettingSpec, type UseLimit, type UserSettingRules } from '../core/index.ts';
import { SHELL_SETTINGS } from '../core/host/shellSettings.ts';
import { SERVER_MESSAGES } from '../core/serverMessages.ts';
import { AccountError, Accounts } from './accounts/service.ts';
import { loadAppConfig } from './appConfig.ts';
import { isHttps } from './auth/session.ts';
import { createThrottles } from './auth/throttles.ts';
import { sign, verifySignature } from './auth/tokens.ts';
import type { ServerConfig } from './config.ts';
import { createSecretBox } from './crypto/secretBox.ts';
import { connectDatabase, type Db } from './db/connect.ts';
import { CORE_MIGRATIONS } from './db/migrations.ts';
import { migrate } from './db/migrator.ts';
import { apiMiddleware } from './http/middleware.ts';
import { sameSiteOnly } from './http/origin.ts';
import { fail, ok } from './http/respond.ts';
import { addressReader } from './http/clientAddress.ts';
import { serveSpa } from './http/spa.ts';
import { createServerEvents } from './events.ts';
import { createLogger, type Logger } from './log.ts';
import { ModelRegistry } from './models/registry.ts';
import { createEgressFetch } from './net/egress.ts';
import { applyProxy } from './net/proxy.ts';
import type { Shared } from './shared/redis.ts';
import { pluginContext, type PluginContextDeps } from './pluginContext.ts';
import { loadSecret } from './secret.ts';
import { causeOf, StartError } from './startError.ts';
import { systemInfo } from './systemInfo.ts';
import { AnswerCaps } from './turn/answerCaps.ts';
import { InFlight } from './turn/inflight.ts';
import { ownerOf } from './turn/owner.ts';
import { generationRoutes } from './turn/routes.ts';
import { serverTurnRunner } from './turn/serverTurn.ts';
import { createAttachments } from './uploads/attachments.ts';
import { uploadRoutes } from './uploads/routes.ts';
import { createUploadStore } from './uploads/store.ts';
import { scratchFiles } from './scratchFile.ts';
import { pluginFile } from '../core/pluginLayout.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

export interface ApiRoute {
  method: string;
  /** As Hono writes it: `/api/role/:name`. */
  path: string;
  owner: string;
}

export interface Server {
  app: Hono<AppEnv>;
  db: Db;
  accounts: Accounts;
  models: ModelRegistry;
  log: Logger;
  /** Every API route with the plugin that answers it ('core' for the server's own), in registration order. */
  apiRoutes(): ApiRoute[];
  /** The generated root password, when this start created root without ROOT_PASSWORD. */
  generatedRootPassword?: string;
  /**
   * Stops the generations under way (each keeps its answer so far as its log and tells its
   * browser), waiting at most `ms` for them; returns how many there were.
   */
  stopGenerations(ms: number): Promise<number>;
  close(): Promise<void>;
}

/** Server modules of the enabled plugins that have one (plugins/<id>/server/index.ts). */
async function serverPlugins(enabled: readonly string[]): Promise<{ id: string; module: ServerPluginModule }[]> {
  const found: { id: string; module: ServerPluginModule }[] = [];
  for (const id of enabled) {
    const file = path.join(ROOT, pluginFile(id, 'server'));
    if (existsSync(file)) found.push({ id, module: (await import(pathToFileURL(file).href)).default as ServerPluginModule });
  }
  return found;
}

/**
 * The settings an account keeps, from the shell's and the enabled plugins' manifests (`sync`):
 * the server learns them where the page does.
 */
async function userSettingsOf(enabled: readonly string[]): Promise<UserSettingRules> {
  const specs: SettingSpec[] = [...SHELL_SETTINGS];
  for (const id of enabled) {
    const file = path.join(ROOT, pluginFile(id, 'manifest'));
    if (existsSync(file)) specs.push(...(((await import(pathToFileURL(file).href)).default as PluginManifest).settings ?? []));
  }
  return userSettingRules(specs);
}

export async function enabledPlugins(config: ServerConfig): Promise<string[]> {
  return (await loadAppConfig(config.appConfigFile)).plugins.filter((id) => !config.disabledPlugins.includes(id));
}

export interface ServerOptions {
  logDestination?: DestinationStream;
  /** Extra server plugins (tests register tools and context providers this way). */
  plugins?: ServerPluginModule[];
  /** The server's clock: role expiry and plan periods are decided by it (tests move it). */
  clock?: () => number;
}

export async function createServer(config: ServerConfig, options: ServerOptions = {}): Promise<Server> {
  const log = createLogger(config.logLevel, options.logDestination);
  const enabled = await enabledPlugins(config);
  const plugins = [...(await serverPlugins(enabled)), ...(options.plugins ?? []).map((module, i) => ({ id: `extra-${i}`, module }))];
  const db = await openDatabase(config, log, plugins);
  const now = options.clock ?? Date.now;
  // Loaded only for a multi-instance deployment (REDIS_URL).
  const shared = config.redisUrl ? await (await import('./shared/redis.ts')).connectShared(config.redisUrl, log) : undefined;
  const core = await coreServices(config, db, now, shared, await userSettingsOf(enabled));
  const { accounts, secret, models, egressFetch, attachments } = core;
  const generation = { contextProviders: [] as ContextProvider[], guards: [] as GenerationGuard[], useLimits: [] as UseLimit[], tools: new Map<string, ServerTool>() };

  const app = new Hono<AppEnv>();
  const events = createServerEvents(log);
  const { setBodyLimit, addGate, addAuthenticator, authenticate } = apiMiddleware(app, config, log, accounts, events);
  app.route('/', coreRoutes(config, enabled));
  const runtimeState = () => ({
    database: { engine: db.engine, connections: db.connections() },
    redis: { configured: shared !== undefined, ready: shared?.client.isReady ?? false },
  });
  const closeHooks: (() => Promise<void> | void)[] = [];
  const onClose = (hook: () => Promise<void> | void) => void closeHooks.push(hook);
  const turns: PluginContextDeps['turns'] = {};
  const scratch = scratchFiles();
  onClose(() => scratch.removeAll());
  const context = pluginContext({ app, config, db, log, setBodyLimit, addGate, addAuthenticator, authenticate, now, events, runtimeState, onClose, turns, scratchFile: scratch.create, ...core, ...generation });
  const owners = await mountPlugins(app, plugins, context, config.plugins);

  const inflight = new InFlight();
  const secure = (c: Context<AppEnv>) => isHttps(c, config.trustProxy);
  // A visitor's limits count under the key of their address too (issue 34).
  const addresses = addressReader(config.trustProxy, secret);
  const { querying, generating } = config.texts;
  const settings = { roleContentSystem: config.roleContentSystem, temperature: config.temperature, topP: config.topP, querying, generating, streamRelay: config.streamRelay, publicUrl: config.publicUrl };
  const caps = new AnswerCaps(config.answerCaps);
  const siteOnly = sameSiteOnly(config.allowedOrigins);
  const deps = { inflight, caps, events, db: db.db, models, providers: generation.contextProviders, guards: generation.guards, useLimits: generation.useLimits, tools: generation.tools, egressFetch, attachments, settings, log };
  app.route('/', generationRoutes(deps, { secure, address: addresses.address, addressKey: addresses.key, sameSiteOnly: siteOnly }));
  turns.run = serverTurnRunner(deps);
  app.route('/', uploadRoutes({
    db: db.db,
    owner: (c) => ownerOf(c, secure(c), addresses.key),
    sign: (...parts) => sign(secret, ...parts),
    verify: (signature, ...parts) => verifySignature(secret, signature, ...parts),
    publicUrl: config.publicUrl,
    quotaBytes: config.uploadQuotaBytes,
    visitorQuotas: { addressBytes: config.visitors.addressUploadBytes, totalBytes: config.visitors.totalUploadBytes },
    sameSiteOnly: siteOnly,
  }));
  app.all('/api/*', (c) => fail(c, 404, SERVER_MESSAGES.notFound));
  serveSpa(app, config.distDir);
  // Last: once root exists its generated password is shown only by this start, so nothing that
  // can still fail comes after it (main.ts prints it once the port is bound).
  const generatedRootPassword = await ensureRoot(accounts, config.rootPassword);

  return {
    app,
    db,
    accounts,
    models,
    log,
    generatedRootPassword,
    apiRoutes: () => apiRoutesOf(app, owners),
    stopGenerations: (ms) => inflight.stopAll(ms),
    close: async () => {
      await Promise.allSettled(closeHooks.map(async (hook) => hook()));
      await shared?.close();
      await db.close();
    },
  };
}

/** The database, migrated with the core's migrations and every plugin's. */
async function openDatabase(config: ServerConfig, log: Logger, plugins: { id: string; module: ServerPluginModule }[]): Promise<Db> {
  const db = await connectDatabase(config.databaseUrl, config.dataDir, (err) =>
    log.warn({ err: { message: err.message } }, 'database connection closed; the pool opens a new one'),
  );
  const owned = plugins.map(({ id, module }) => ({ owner: id, migrations: module.migrations ?? {}, formerNames: module.formerMigrationNames }));
  try {
    await migrate(db.db as never, db.engine, [CORE_MIGRATIONS, ...owned]);
  } catch (err) {
    await db.close().catch(() => undefined);
    throw new StartError(`${config.databaseUrl ? 'DATABASE_URL' : 'DATA_DIR'}: ${causeOf(err)}`);
  }
  return db;
}

/** Accounts (and root), the server's secret and what it seals, models, the egress-safe fetch, attachments, login throttles. */
async function coreServices(config: ServerConfig, db: Db, now: () => number, shared: Shared | undefined, settings: UserSettingRules) {
  const accounts = new Accounts(db.db, { now, trialCents: config.subscriptions.trialCents, settings });
  const secret = loadSecret(config.secretKey, config.dataDir);
  const box = createSecretBox(secret);
  const egressFetch = createEgressFetch({ allowHosts: config.egressAllowHosts });
  applyProxy(config.proxy);
  return {
    accounts,
    secret,
    box,
    models: new ModelRegistry(config.systemModels, box),
    egressFetch,
    attachments: createAttachments(db.db, egressFetch),
    uploads: createUploadStore(db.db, { ownerBytes: config.uploadQuotaBytes, addressBytes: config.visitors.addressUploadBytes, totalBytes: config.visitors.totalUploadBytes }),
    throttles: createThrottles(shared),
  };
}

/** Root, made on the first start; a ROOT_PASSWORD the account rules refuse is the operator's to fix. */
async function ensureRoot(accounts: Accounts, password: string): Promise<string | undefined> {
  try {
    return await accounts.ensureRoot(password || undefined);
  } catch (err) {
    if (err instanceof AccountError && password) throw new StartError(`ROOT_PASSWORD is refused: ${err.message}`);
    throw err;
  }
}

/** The ping and system info. */
function coreRoutes(config: ServerConfig, enabled: string[]) {
  return (
    new Hono<AppEnv>()
      // The page pings at load: its browser gets its device cookie then, before any question. A
      // question stopped before its answer came back (streaming off) would otherwise leave a
      // session owned by a cookie the browser never received.
      .get('/api/ping', (c) => {
        ownerOf(c, isHttps(c, config.trustProxy));
        return ok(c, undefined, 'pong');
      })
      .get('/api/system/info', (c) => ok(c, systemInfo(config, enabled)))
  );
}

/** Each plugin's routes and registrations; returns who answers each route (the API table is generated from it). */
async function mountPlugins(
  app: Hono<AppEnv>,
  plugins: { id: string; module: ServerPluginModule }[],
  shared: ServerPluginContext,
  ownConfigs: Record<string, unknown>,
): Promise<Map<string, string>> {
  const owners = new Map<string, string>();
  for (const { id, module } of plugins) {
    const context = { ...shared, ownConfig: ownConfigs[id] };
    if (module.routes) {
      const routes = module.routes(context);
      for (const r of routes.routes) owners.set(`${r.method} ${r.path}`, id);
      app.route('/', routes);
    }
    await module.register?.(context);
  }
  return owners;
}

function apiRoutesOf(app: Hono<AppEnv>, owners: Map<string, string>): ApiRoute[] {
  const seen = new Set<string>();
  return app.routes.flatMap((r) => {
    const key = `${r.method} ${r.path}`;
    // Middleware (app.use) and the JSON 404 catch-all are ALL entries on wildcard paths.
    // A plugin's routes outside /api/ (an API in another wire format, /v1/...) are its API too.
    if (!(r.path.startsWith('/api/') || owners.has(key)) || (r.method === 'ALL' && r.path.endsWith('*')) || seen.has(key)) return [];
    seen.add(key);
    return [{ method: r.method, path: r.path, owner: owners.get(key) ?? 'core' }];
  });
}
