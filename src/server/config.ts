// Server configuration: the environment (and `.env`, loaded by main.ts) as env.ts parses and
// documents it, and the files it names (models, roles).
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { OperatorFiles } from '../core/envVars.ts';
import { parseUsageLimits, type RemotePluginConfig, type UsageLimits } from '../core/index.ts';
import { loadSystemModels, type ModelEntry } from './models/systemModels.ts';
import type { Message } from '../core/messages.ts';
import { SERVER_MESSAGES } from '../core/serverMessages.ts';
import { appConfigFile } from './appConfig.ts';
import { parseEnv, pluginEnvs } from './env.ts';
import { readOperatorFile, StartError } from './startError.ts';

export interface SubscriptionSettings {
  /** USE_SUBSCRIPTIONS: the money side is on (with the plugin installed). */
  on: boolean;
  /** Where the plans come from (the file, or PLANS), for error messages. */
  plansFile: string;
  /** The plans' JSON: the plans file's when it exists, else PLANS ('' for the plugin's default). */
  plans: string;
  trialCents: number;
  paypal: { clientId: string; clientSecret: string; apiUrl: string; sdkUrl: string; webhookId: string };
}

export interface ServerConfig {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string;
  rootPassword: string;
  /** HMAC secret for signed links; SECRET_KEY, or a random one kept in DATA_DIR. */
  secretKey: string;
  publicUrl: string;
  smtpUrl: string;
  mailFrom: string;
  trustProxy: boolean;
  allowedOrigins: string[];
  logLevel: string;
  distDir: string;
  /** The app config whose plugins the server mounts (SHELLCHAT_APP_CONFIG; the build reads it too). */
  appConfigFile: string;
  model: string;
  openaiBaseUrl: string;
  /** The local model server the browser calls directly (OLLAMA_BASE_URL); '' for the default. */
  ollamaBaseUrl: string;
  welcomeMessage: string;
  initPlaceholder: string;
  /** The global system prompt (ROLE_CONTENT_SYSTEM), sent before every conversation. */
  roleContentSystem: string;
  enter: string;
  temperature: number;
  topP: number;
  useNodeAi: boolean;
  minimalist: boolean;
  defaultFunctions: string;
  /** Each plugin's own configuration, by plugin id, handed to that plugin alone (ServerPluginContext.ownConfig). */
  plugins: Record<string, unknown>;
  defaultRole: string;
  defaultStores: string;
  defaultNode: string;
  /** The default model and the operator's models file (models/systemModels.ts). */
  systemModels: ModelEntry[];
  /** The local MCP helper the browser calls (MCP_HELPER_URL); shown in system info and allowed by the CSP. */
  mcpHelperUrl: string;
  /** Hosts user-supplied URLs may reach even though they are private (EGRESS_ALLOW_HOSTS). */
  egressAllowHosts: string[];
  /** Several instances share their counters here (REDIS_URL); '' for one instance. */
  redisUrl: string;
  /** The proxy of the server's own requests (HTTPS_PROXY, HTTP_PROXY, NO_PROXY, or their lowercase forms). */
  proxy: { httpsProxy?: string; httpProxy?: string; noProxy?: string };
  texts: { querying: string | Message; generating: string | Message; searching: string | Message; waiting: string | Message };
  usePayment: boolean;
  useSubscriptions: boolean;
  /** The subscription plugin's settings (plans, trial balance, PayPal). */
  subscriptions: SubscriptionSettings;
  contactEmail: string;
  disabledPlugins: string[];
  remotes: RemotePluginConfig[];
  demo: boolean;
  /** How OpenAI-compatible streams are relayed (STREAM_RELAY): the direct parser or the AI SDK. */
  streamRelay: 'direct' | 'sdk';
  /** How long a shutdown lets answers stream before it stops them, keeping each (SHUTDOWN_GRACE_MS). */
  shutdownGraceMs: number;
  /** What one owner (a user, or an anonymous browser) may keep in uploads, in bytes (UPLOAD_QUOTA_MB). */
  uploadQuotaBytes: number;
  /** Uses per role and window (USAGE_LIMITS: `role:daily,weekly,monthly;...`). */
  usageLimits: Record<string, UsageLimits>;
  /** Visitors without an account, per address (VISITORS_PER_ADDRESS, UPLOAD_ADDRESS_QUOTA_MB, UPLOAD_ANONYMOUS_TOTAL_MB). */
  visitors: { perAddress: number; addressUploadBytes: number; totalUploadBytes: number };
  /** Answers in flight at once per user, anonymous browser and address; 0 is none (MAX_ANSWERS_PER_*). */
  answerCaps: { user: number; visitor: number; address: number };
}

function parseRemotes(raw: string | undefined): RemotePluginConfig[] {
  if (!raw?.trim()) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (err) {
    throw new StartError(`PLUGIN_REMOTES is not valid JSON: ${(err as Error).message}`);
  }
  if (!Array.isArray(parsed)) throw new StartError('PLUGIN_REMOTES must be a JSON array of {name, entry}');
  return parsed.map((r: { name?: unknown; entry?: unknown; module?: unknown }) => {
    if (typeof r.name !== 'string' || !/^[A-Za-z_][\w]*$/.test(r.name)) throw new StartError('PLUGIN_REMOTES: each remote needs a name (letters, digits, _)');
    if (typeof r.entry !== 'string' || !/^https?:\/\//.test(r.entry)) throw new StartError('PLUGIN_REMOTES: each remote needs an http(s) entry URL');
    return { name: r.name, entry: r.entry, ...(typeof r.module === 'string' ? { module: r.module } : {}) };
  });
}

/**
 * With REDIS_URL the deployment is several instances: each must seal and sign with the same
 * secret (one made in each DATA_DIR would not open another's), and share one database.
 */
function checkMultiInstance(e: { REDIS_URL: string; SECRET_KEY: string; DATABASE_URL: string }): void {
  if (!e.REDIS_URL) return;
  const missing: string[] = [];
  if (!e.SECRET_KEY) missing.push('SECRET_KEY is unset, and REDIS_URL makes this one of several instances: set the same SECRET_KEY on each (it signs links and cookies and seals keys at rest; one generated in each DATA_DIR would differ)');
  if (!/^(postgres|postgresql|mysql|mariadb):\/\//i.test(e.DATABASE_URL)) missing.push('DATABASE_URL must be a PostgreSQL or MySQL/MariaDB database the instances share, as REDIS_URL makes this one of several instances (the embedded SQLite is one machine\'s)');
  // One line each: main.ts prints every line as one error.
  if (missing.length) throw new StartError(missing.join('\n'));
}

/** The lowercase proxy variables are read too (the schema declares the uppercase ones): the same check. */
function proxyUrl(name: string, value: string | undefined): string | undefined {
  if (!value) return undefined;
  const url = URL.parse(value);
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) throw new StartError(`${name} must be a URL such as http://proxy:3128 (http://, https://)`);
  return value;
}

/** Each plugin's own configuration; what a plugin's rules refuse stops the start like the server's own. */
function pluginConfigs(e: Record<string, unknown>, files: OperatorFiles): Record<string, unknown> {
  return Object.fromEntries(
    pluginEnvs.map(({ id, env }) => {
      try {
        return [id, env.config(e as never, files)];
      } catch (err) {
        throw err instanceof StartError ? err : new StartError((err as Error).message);
      }
    }),
  );
}

function readIfExists(variable: string, file: string): string | undefined {
  return existsSync(file) ? readOperatorFile(variable, file) : undefined;
}

/** A file the operator named must exist: a typo would otherwise leave the server running without it. */
function namedFile(variable: string, value: string, root: string): string {
  const file = path.resolve(root, value);
  if (!existsSync(file)) throw new StartError(`${variable} ${file} does not exist`);
  return file;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, root = process.cwd()): ServerConfig {
  const e = parseEnv(env);
  checkMultiInstance(e);
  const dataDir = path.resolve(root, e.DATA_DIR);
  const httpsProxy = e.HTTPS_PROXY || proxyUrl('https_proxy', env.https_proxy);
  const httpProxy = e.HTTP_PROXY || proxyUrl('http_proxy', env.http_proxy);
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    rootPassword: e.ROOT_PASSWORD,
    secretKey: e.SECRET_KEY,
    redisUrl: e.REDIS_URL,
    publicUrl: e.PUBLIC_URL,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    trustProxy: e.TRUST_PROXY,
    allowedOrigins: e.ALLOWED_ORIGINS.map((origin) => origin.replace(/\/+$/, '')),
    logLevel: e.LOG_LEVEL,
    distDir: path.resolve(root, e.SHELLCHAT_DIST),
    appConfigFile: appConfigFile({ SHELLCHAT_APP_CONFIG: e.SHELLCHAT_APP_CONFIG }, root),
    model: e.MODEL,
    openaiBaseUrl: e.OPENAI_BASE_URL,
    ollamaBaseUrl: e.OLLAMA_BASE_URL,
    welcomeMessage: e.WELCOME_MESSAGE,
    initPlaceholder: e.INIT_PLACEHOLDER,
    roleContentSystem: e.ROLE_CONTENT_SYSTEM,
    enter: e.ENTER,
    temperature: e.TEMPERATURE,
    topP: e.TOP_P,
    useNodeAi: e.USE_NODE_AI,
    minimalist: e.MINIMALIST,
    defaultFunctions: e.DEFAULT_FUNCTIONS,
    // Each plugin's own configuration, made from its variables (plugins/<id>/server/env.ts).
    plugins: pluginConfigs(e, { inDataDir: (name) => path.join(dataDir, name), named: (variable, value) => namedFile(variable, value, root), read: readIfExists }),
    defaultRole: e.DEFAULT_ROLE,
    defaultStores: e.DEFAULT_STORES,
    defaultNode: e.DEFAULT_NODE,
    // A model file names the variables that hold its keys: those are read from the raw environment.
    systemModels: loadSystemModels(e, env, dataDir, root),
    mcpHelperUrl: e.MCP_HELPER_URL,
    egressAllowHosts: e.EGRESS_ALLOW_HOSTS,
    proxy: {
      ...(httpsProxy ? { httpsProxy } : {}),
      ...(httpProxy ? { httpProxy } : {}),
      ...((e.NO_PROXY || env.no_proxy) ? { noProxy: e.NO_PROXY || env.no_proxy } : {}),
    },
    texts: {
      querying: e.QUERYING_TEXT || SERVER_MESSAGES.querying,
      generating: e.GENERATING_TEXT || SERVER_MESSAGES.generating,
      searching: e.SEARCHING_TEXT || SERVER_MESSAGES.searching,
      waiting: e.WAITING_TEXT || SERVER_MESSAGES.waiting,
    },
    usePayment: e.USE_PAYMENT,
    useSubscriptions: e.USE_SUBSCRIPTIONS,
    subscriptions: {
      on: e.USE_SUBSCRIPTIONS,
      ...plansSource(e.PLANS_FILE ? namedFile('PLANS_FILE', e.PLANS_FILE, root) : path.join(dataDir, 'plans.json'), e.PLANS),
      trialCents: Math.round(e.TRIAL_BALANCE * 100),
      paypal: { clientId: e.PAYPAL_CLIENT_ID, clientSecret: e.PAYPAL_CLIENT_SECRET, apiUrl: e.PAYPAL_API_URL.replace(/\/+$/, ''), sdkUrl: e.PAYPAL_SDK_URL, webhookId: e.PAYPAL_WEBHOOK_ID },
    },
    contactEmail: e.CONTACT_EMAIL,
    disabledPlugins: e.DISABLED_PLUGINS,
    remotes: parseRemotes(e.PLUGIN_REMOTES),
    demo: e.SHELLCHAT_DEMO,
    streamRelay: e.STREAM_RELAY,
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    uploadQuotaBytes: e.UPLOAD_QUOTA_MB * 1024 * 1024,
    usageLimits: parseUsageLimits(e.USAGE_LIMITS),
    visitors: {
      perAddress: e.VISITORS_PER_ADDRESS,
      addressUploadBytes: e.UPLOAD_ADDRESS_QUOTA_MB * 1024 * 1024,
      totalUploadBytes: e.UPLOAD_ANONYMOUS_TOTAL_MB * 1024 * 1024,
    },
    answerCaps: { user: e.MAX_ANSWERS_PER_USER, visitor: e.MAX_ANSWERS_PER_VISITOR, address: e.MAX_ANSWERS_PER_ADDRESS },
  };
}

/**
 * The plans file's text when it exists, else PLANS (the subscription plugin parses either);
 * `plansFile` begins its error messages, so it names the variable.
 */
function plansSource(file: string, fromEnv: string): { plansFile: string; plans: string } {
  return existsSync(file) ? { plansFile: `PLANS_FILE ${file}`, plans: readOperatorFile('PLANS_FILE', file) } : { plansFile: fromEnv ? 'PLANS' : `PLANS_FILE ${file}`, plans: fromEnv };
}
