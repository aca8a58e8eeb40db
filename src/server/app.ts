// The server: database and migrations, accounts, the Hono application with its middleware,
// every enabled plugin's routes, and the built single-page app, on one origin.
import type { Message } from '../core/messages.ts';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { getConnInfo } from '@hono/node-server/conninfo';
import { serveStatic } from '@hono/node-server/serve-static';
import type { DestinationStream } from 'pino';
import type { AppEnv, ServerPluginContext, ServerPluginModule } from '../core/index.ts';
import { Accounts } from './accounts/service.ts';
import { adoptDevice } from './accounts/adopt.ts';
import { recipientOf } from './recipients.ts';
import { Throttle } from './auth/throttle.ts';
import { cookieHelpers, isHttps, loadUser, requireUser } from './auth/session.ts';
import { sign, verifySignature } from './auth/tokens.ts';
import type { ServerConfig } from './config.ts';
import { connectDatabase, type Db } from './db/connect.ts';
import { migrate, type MigrationFactory } from './db/migrations.ts';
import { originCheck } from './http/origin.ts';
import { fail, ok } from './http/respond.ts';
import { validate } from './http/validate.ts';
import { createLogger, type Logger } from './log.ts';
import { createMail } from './mail.ts';
import { policy } from './policy.ts';
import { loadSecret } from './secret.ts';
import { securityHeaders } from './securityHeaders.ts';
import { systemInfo } from './systemInfo.ts';
import { createSecretBox } from './crypto/secretBox.ts';
import { createEgressFetch, resolvePublicAddresses } from './net/egress.ts';
import { ModelRegistry } from './models/registry.ts';
import { InFlight } from './turn/inflight.ts';
import { registerGenerationRoutes } from './turn/routes.ts';
import { completeOnce } from './turn/oneShot.ts';
import { ownerOf } from './turn/owner.ts';
import { canRead, getSession, memory, owns } from './turn/sessions.ts';
import { checkUrlAllowed } from './net/checkUrl.ts';
import type { ContextProvider, GenerationGuard, ServerTool } from '../core/index.ts';
import { SERVER_MESSAGES } from '../core/serverMessages.ts';
import { textsIn } from './texts.ts';
import { UPLOAD_MAX_BYTES } from '../core/constants.ts';
import { createAttachments } from './uploads/attachments.ts';
import { uploadRoutes, UPLOAD_PUT_PATH } from './uploads/routes.ts';

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
    const file = path.join(ROOT, 'plugins', id, 'server', 'index.ts');
    if (existsSync(file)) found.push({ id, module: (await import(pathToFileURL(file).href)).default as ServerPluginModule });
  }
  return found;
}

export async function enabledPlugins(config: ServerConfig): Promise<string[]> {
  const file = config.appConfigFile || path.join(ROOT, 'app.config.ts');
  const appConfig = (await import(pathToFileURL(file).href)).default as { plugins: string[] };
  return appConfig.plugins.filter((id) => !config.disabledPlugins.includes(id));
}

export interface ServerOptions {
  logDestination?: DestinationStream;
  /** Extra server plugins (tests register tools and context providers this way). */
  plugins?: ServerPluginModule[];
}

export async function createServer(config: ServerConfig, options: ServerOptions = {}): Promise<Server> {
  const log = createLogger(config.logLevel, options.logDestination);
  const db = await connectDatabase(config.databaseUrl, config.dataDir, (err) =>
    log.warn({ err: { message: err.message } }, 'database connection closed; the pool opens a new one'),
  );
  const enabled = await enabledPlugins(config);
  const plugins = [...(await serverPlugins(enabled)), ...(options.plugins ?? []).map((module, i) => ({ id: `extra-${i}`, module }))];
  const extraMigrations: Record<string, MigrationFactory> = {};
  for (const { module } of plugins) Object.assign(extraMigrations, module.migrations ?? {});
  await migrate(db.db as never, db.engine, extraMigrations);

  const accounts = new Accounts(db.db);
  const generatedRootPassword = await accounts.ensureRoot(config.rootPassword || undefined);
  const secret = loadSecret(config.secretKey, config.dataDir);
  const box = createSecretBox(secret);
  const models = new ModelRegistry(db.db, config.systemModels, box);
  const egressFetch = createEgressFetch({ allowHosts: config.egressAllowHosts });
  const attachments = createAttachments(db.db, egressFetch);
  const contextProviders: ContextProvider[] = [];
  const guards: GenerationGuard[] = [];
  const tools = new Map<string, ServerTool>();
  const throttles = {
    username: new Throttle({ limit: 5, windowMs: 15 * 60_000 }),
    address: new Throttle({ limit: 20, windowMs: 15 * 60_000 }),
  };

  const app = new Hono<AppEnv>();
  app.use('*', securityHeaders(config));
  app.use('/api/*', async (c, next) => {
    const started = performance.now();
    await next();
    // The path only: query strings can carry tokens.
    log.info({ method: c.req.method, path: c.req.path, status: c.res.status, ms: Math.round(performance.now() - started) }, 'request');
  });
  // 1 MB for every API body, except the paths a plugin raised with ctx.setBodyLimit (uploads).
  const limitFor = (maxSize: number, message: Message = SERVER_MESSAGES.tooLarge): MiddlewareHandler<AppEnv> => {
    const tooLarge = (c: Context<AppEnv>) => {
      // The rest of the body stays unread, so the connection cannot carry another request.
      c.header('Connection', 'close');
      return fail(c, 413, message);
    };
    const streamed = bodyLimit({ maxSize, onError: tooLarge });
    // Decided from the headers when they suffice: hono's bodyLimit looks at `req.body` first,
    // which makes the Node adapter build a whole web Request for every request (~60 µs).
    // A body without a length (chunked) is still counted as it arrives.
    return (c, next) => {
      if (c.req.header('transfer-encoding') !== undefined) return streamed(c, next);
      const length = c.req.header('content-length');
      if (length === undefined) return next();
      return Number(length) > maxSize ? Promise.resolve(tooLarge(c)) : next();
    };
  };
  const defaultLimit = limitFor(1024 * 1024);
  const raisedLimits = new Map<string, ReturnType<typeof limitFor>>();
  // A presigned upload's PUT carries a whole file, answered over 10 MB in the spec's words.
  raisedLimits.set(UPLOAD_PUT_PATH, limitFor(UPLOAD_MAX_BYTES, SERVER_MESSAGES.uploadTooLarge));
  app.use('/api/*', (c, next) => (raisedLimits.get(c.req.path) ?? defaultLimit)(c, next));
  app.use('/api/*', originCheck(config.allowedOrigins));
  app.use('/api/*', loadUser(accounts));
  app.onError((err, c) => {
    log.error({ err: { message: err.message, name: err.name }, path: c.req.path }, 'unhandled error');
    return fail(c, 500, SERVER_MESSAGES.failed);
  });

  // The page pings at load: its browser gets its device cookie then, before any question. A
  // question stopped before its answer came back (streaming off) would otherwise leave a
  // session owned by a cookie the browser never received.
  app.get('/api/ping', (c) => {
    ownerOf(c, isHttps(c, config.trustProxy));
    return ok(c, undefined, 'pong');
  });
  app.get('/api/system/info', (c) => ok(c, systemInfo(config, enabled)));

  const clientAddress = (c: Context<AppEnv>): string => {
    if (config.trustProxy) {
      const forwarded = c.req.header('x-forwarded-for')?.split(',')[0]?.trim();
      if (forwarded) return forwarded;
    }
    try {
      return getConnInfo(c).remote.address ?? 'unknown';
    } catch {
      return 'unknown';
    }
  };

  const context: ServerPluginContext = {
    app,
    db: db.db,
    engine: db.engine,
    log,
    accounts,
    policy,
    mail: createMail(config.smtpUrl, config.mailFrom),
    config: {
      inviteReward: config.inviteReward,
      usageLimits: config.usageLimits,
      functions: config.functions,
      useNodeAi: config.useNodeAi,
      operatorRoles: config.operatorRoles,
      texts: config.texts,
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
    throttles,
    egressFetch,
    secrets: { seal: (plain) => box.seal(plain), open: (sealed) => box.open(sealed) },
    setBodyLimit: (routePath, maxBytes) => {
      raisedLimits.set(routePath, limitFor(maxBytes));
    },
    attachments,
    egressHost: async (host, port) => {
      if (config.egressAllowHosts.includes(`${host}:${port}`) || config.egressAllowHosts.includes(host)) return host;
      return (await resolvePublicAddresses(host))[0]!.address;
    },
    recipient: (giver, owner) => recipientOf(db.db, (name) => accounts.byUsername(name), giver, owner),
    sessions: {
      owner: (c) => ownerOf(c, isHttps(c, config.trustProxy)),
      get: (id) => getSession(db.db, id),
      owns,
      canRead,
      memory: (id, limit) => memory(db.db, id, limit),
      adopt: (c, user) => adoptDevice(db.db, ownerOf(c, isHttps(c, config.trustProxy)).deviceId, user.id),
    },
    models: {
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
      addTool: (name, serverTool) => {
        if (tools.has(name)) throw new Error(`Tool ${name} is registered twice`);
        tools.set(name, serverTool);
      },
      complete: (input) => completeOnce(db.db, models, egressFetch, input),
    },
  };
  // Who answers each API route: its plugin, or the core (the API table is generated from this).
  const owners = new Map<string, string>();
  for (const { id, module } of plugins) {
    if (module.routes) {
      const routes = module.routes(context);
      for (const r of routes.routes) owners.set(`${r.method} ${r.path}`, id);
      app.route('/', routes);
    }
    await module.register?.(context);
  }

  const inflight = new InFlight();
  registerGenerationRoutes(
    app,
    {
      inflight,
      db: db.db,
      models,
      providers: contextProviders,
      guards,
      tools,
      egressFetch,
      attachments,
      settings: { roleContentSystem: config.roleContentSystem, temperature: config.temperature, topP: config.topP, querying: config.texts.querying, generating: config.texts.generating, streamRelay: config.streamRelay, publicUrl: config.publicUrl },
      log,
    },
    (c) => isHttps(c, config.trustProxy),
  );

  app.route('/', uploadRoutes({
    db: db.db,
    owner: (c) => ownerOf(c, isHttps(c, config.trustProxy)),
    sign: (...parts) => sign(secret, ...parts),
    verify: (signature, ...parts) => verifySignature(secret, signature, ...parts),
    publicUrl: config.publicUrl,
    quotaBytes: config.uploadQuotaBytes,
  }));

  app.all('/api/*', (c) => fail(c, 404, SERVER_MESSAGES.notFound));

  const index = path.join(config.distDir, 'index.html');
  if (existsSync(index)) {
    const html = readFileSync(index, 'utf8');
    const root = path.relative(process.cwd(), config.distDir) || '.';
    app.use(
      '/assets/*',
      serveStatic({
        root,
        onFound: (_path, c) => {
          // File names carry a content hash, so they never change.
          c.header('Cache-Control', 'public, max-age=31536000, immutable');
        },
      }),
    );
    app.use('/icons/*', serveStatic({ root }));
    for (const page of ['/', '/index.html']) {
      app.get(page, (c) => {
        c.header('Cache-Control', 'no-cache');
        return c.html(html);
      });
    }
    // The service worker and the web app manifest (vite.config.ts): always asked anew, so a new
    // build's worker replaces the old one on the next visit.
    for (const [file, type] of [
      ['sw.js', 'text/javascript; charset=utf-8'],
      ['manifest.webmanifest', 'application/manifest+json'],
    ] as const) {
      const full = path.join(config.distDir, file);
      if (!existsSync(full)) continue;
      const body = readFileSync(full);
      app.get(`/${file}`, (c) => {
        c.header('Cache-Control', 'no-cache');
        c.header('Content-Type', type);
        return c.body(body);
      });
    }
  }

  return {
    app,
    db,
    accounts,
    models,
    log,
    generatedRootPassword,
    apiRoutes: () => {
      const seen = new Set<string>();
      return app.routes.flatMap((r) => {
        const key = `${r.method} ${r.path}`;
        // Middleware (app.use) and the JSON 404 catch-all are ALL entries on wildcard paths.
        if (!r.path.startsWith('/api/') || (r.method === 'ALL' && r.path.endsWith('*')) || seen.has(key)) return [];
        seen.add(key);
        return [{ method: r.method, path: r.path, owner: owners.get(key) ?? 'core' }];
      });
    },
    stopGenerations: (ms) => inflight.stopAll(ms),
    close: () => db.close(),
  };
}
