// Server configuration from environment variables (and `.env`, loaded by main.ts). Every
// variable is documented in the README's configuration table; keep the two in step.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { parseUsageLimits, type RemotePluginConfig, type UsageLimits } from '../core/index.ts';
import { loadSystemModels, type ModelEntry } from './models/systemModels.ts';
import { SERVER_MESSAGES } from '../core/serverMessages.ts';

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
  /** The built-in functions' data sources (GEOCODING_BASE_URL, WEATHER_BASE_URL, WOLFRAM_BASE_URL, WOLFRAM_APP_ID). */
  functions: { geocodingBaseUrl: string; weatherBaseUrl: string; wolframBaseUrl: string; wolframAppId: string };
  defaultRole: string;
  defaultStores: string;
  defaultNode: string;
  inviteReward: number;
  /** The default model and the operator's models file (models/systemModels.ts). */
  systemModels: ModelEntry[];
  /** The operator's system roles file (ROLES_FILE, or roles.json in DATA_DIR); read by plugins/role when it exists. */
  rolesFile: string;
  /** The roles that file holds (empty when it does not exist); checked on start. */
  operatorRoles: OperatorRole[];
  /** The local MCP helper the browser calls (MCP_HELPER_URL); shown in system info and allowed by the CSP. */
  mcpHelperUrl: string;
  /** Hosts user-supplied URLs may reach even though they are private (EGRESS_ALLOW_HOSTS). */
  egressAllowHosts: string[];
  texts: { querying: string; generating: string; searching: string; waiting: string };
  usePayment: boolean;
  useSubscriptions: boolean;
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
}

const bool = (value: string | undefined) => /^(1|true|yes|on)$/i.test(value ?? '');

function number(value: string | undefined, fallback: number, min: number, max: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n < min || n > max) throw new Error(`${name} must be a number from ${min} to ${max}, got ${value}`);
  return n;
}

function streamRelay(value: string | undefined): 'direct' | 'sdk' {
  if (!value) return 'direct';
  if (value === 'direct' || value === 'sdk') return value;
  throw new Error(`STREAM_RELAY must be direct or sdk, got ${value}`);
}

function parseRemotes(raw: string | undefined): RemotePluginConfig[] {
  if (!raw?.trim()) return [];
  const parsed: unknown = JSON.parse(raw);
  if (!Array.isArray(parsed)) throw new Error('PLUGIN_REMOTES must be a JSON array of {name, entry}');
  return parsed.map((r: { name?: unknown; entry?: unknown; module?: unknown }) => {
    if (typeof r.name !== 'string' || !/^[A-Za-z_][\w]*$/.test(r.name)) throw new Error('PLUGIN_REMOTES: each remote needs a name (letters, digits, _)');
    if (typeof r.entry !== 'string' || !/^https?:\/\//.test(r.entry)) throw new Error('PLUGIN_REMOTES: each remote needs an http(s) entry URL');
    return { name: r.name, entry: r.entry, ...(typeof r.module === 'string' ? { module: r.module } : {}) };
  });
}

function httpBase(raw: string | undefined, fallback: string, name: string): string {
  if (!raw?.trim()) return fallback;
  const url = URL.parse(raw.trim());
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) throw new Error(`${name} must be an http(s) URL, got ${raw}`);
  return url.href.replace(/\/+$/, '');
}

function ollamaBaseUrl(raw: string | undefined): string {
  if (!raw?.trim()) return '';
  const url = URL.parse(raw.trim());
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) throw new Error(`OLLAMA_BASE_URL must be an http(s) URL, got ${raw}`);
  return url.href.replace(/\/+$/, '');
}

/** A system role the operator adds (plugins/role ships the others in the same shape). */
export interface OperatorRole {
  name: string;
  prompt: string;
}

/** The operator's roles file: a JSON array of {name, prompt}; names up to 64 characters, prompts up to 8,000. */
export function loadOperatorRoles(file: string): OperatorRole[] {
  if (!existsSync(file)) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`Roles file ${file} is not valid JSON: ${(err as Error).message}`);
  }
  const chars = (s: string) => [...s].length;
  const entry = z.object({
    name: z.string().refine((n) => n.trim() === n && chars(n) >= 1 && chars(n) <= 64 && !/[\u0000-\u001f\u007f]/.test(n), 'names are 1 to 64 characters, without surrounding spaces'),
    prompt: z.string().refine((p) => p.trim() !== '' && chars(p) <= 8000, 'prompts are 1 to 8,000 characters'),
  });
  const checked = z.array(entry).safeParse(parsed);
  if (!checked.success) {
    throw new Error(`Roles file ${file} must be a JSON array of {"name", "prompt"}: ${checked.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  return checked.data.map((r) => ({ name: r.name, prompt: r.prompt }));
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, root = process.cwd()): ServerConfig {
  const port = Number(env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got ${env.PORT}`);
  const dataDir = path.resolve(root, env.DATA_DIR || './data');
  const rolesFile = env.ROLES_FILE ? path.resolve(root, env.ROLES_FILE) : path.join(dataDir, 'roles.json');
  return {
    port,
    host: env.HOST || '127.0.0.1',
    dataDir,
    databaseUrl: env.DATABASE_URL ?? '',
    rootPassword: env.ROOT_PASSWORD ?? '',
    secretKey: env.SECRET_KEY ?? '',
    publicUrl: (env.PUBLIC_URL ?? '').replace(/\/+$/, ''),
    smtpUrl: env.SMTP_URL ?? '',
    mailFrom: env.MAIL_FROM || 'shellchat <no-reply@localhost>',
    trustProxy: bool(env.TRUST_PROXY),
    allowedOrigins: (env.ALLOWED_ORIGINS ?? '').split(',').map((s) => s.trim().replace(/\/+$/, '')).filter(Boolean),
    logLevel: env.LOG_LEVEL || 'info',
    distDir: path.resolve(root, env.SHELLCHAT_DIST || './dist'),
    model: env.MODEL ?? '',
    openaiBaseUrl: env.OPENAI_BASE_URL ?? '',
    ollamaBaseUrl: ollamaBaseUrl(env.OLLAMA_BASE_URL),
    welcomeMessage: env.WELCOME_MESSAGE ?? '',
    initPlaceholder: env.INIT_PLACEHOLDER ?? '',
    roleContentSystem: env.ROLE_CONTENT_SYSTEM ?? '',
    enter: env.ENTER ?? '',
    temperature: number(env.TEMPERATURE, 1, 0, 2, 'TEMPERATURE'),
    topP: number(env.TOP_P, 1, 0, 1, 'TOP_P'),
    useNodeAi: bool(env.USE_NODE_AI),
    minimalist: bool(env.MINIMALIST),
    defaultFunctions: env.DEFAULT_FUNCTIONS ?? 'get_time,get_weather,redirect_to_url',
    functions: {
      geocodingBaseUrl: httpBase(env.GEOCODING_BASE_URL, 'https://geocoding-api.open-meteo.com', 'GEOCODING_BASE_URL'),
      weatherBaseUrl: httpBase(env.WEATHER_BASE_URL, 'https://api.open-meteo.com', 'WEATHER_BASE_URL'),
      wolframBaseUrl: httpBase(env.WOLFRAM_BASE_URL, 'https://api.wolframalpha.com', 'WOLFRAM_BASE_URL'),
      wolframAppId: env.WOLFRAM_APP_ID ?? '',
    },
    defaultRole: env.DEFAULT_ROLE ?? '',
    defaultStores: env.DEFAULT_STORES ?? '',
    defaultNode: env.DEFAULT_NODE ?? '',
    inviteReward: number(env.INVITE_REWARD, 0, 0, 1000, 'INVITE_REWARD'),
    systemModels: loadSystemModels(env, dataDir),
    rolesFile,
    operatorRoles: loadOperatorRoles(rolesFile),
    mcpHelperUrl: (env.MCP_HELPER_URL || 'http://127.0.0.1:11318').replace(/\/+$/, ''),
    egressAllowHosts: (env.EGRESS_ALLOW_HOSTS ?? '').split(',').map((s) => s.trim()).filter(Boolean),
    texts: {
      querying: env.QUERYING_TEXT || SERVER_MESSAGES.querying,
      generating: env.GENERATING_TEXT || SERVER_MESSAGES.generating,
      searching: env.SEARCHING_TEXT || SERVER_MESSAGES.searching,
      waiting: env.WAITING_TEXT || SERVER_MESSAGES.waiting,
    },
    usePayment: bool(env.USE_PAYMENT),
    useSubscriptions: bool(env.USE_SUBSCRIPTIONS),
    contactEmail: env.CONTACT_EMAIL ?? '',
    disabledPlugins: (env.DISABLED_PLUGINS ?? '').split(',').map((s) => s.trim()).filter(Boolean),
    remotes: parseRemotes(env.PLUGIN_REMOTES),
    demo: bool(env.SHELLCHAT_DEMO),
    streamRelay: streamRelay(env.STREAM_RELAY),
    shutdownGraceMs: number(env.SHUTDOWN_GRACE_MS, 10_000, 0, 3_600_000, 'SHUTDOWN_GRACE_MS'),
    uploadQuotaBytes: number(env.UPLOAD_QUOTA_MB, 100, 0, 1_000_000, 'UPLOAD_QUOTA_MB') * 1024 * 1024,
    usageLimits: parseUsageLimits(env.USAGE_LIMITS ?? ''),
  };
}
