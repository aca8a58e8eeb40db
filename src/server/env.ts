// The server's environment (issue 21): every variable it reads, once, as one zod schema with
// a description each; a plugin declares its own in plugins/<id>/server/env.ts, merged here. config.ts builds the configuration from what it parses; the table of
// docs/configuration.md is generated from it (`npm run docs:config`), and a test keeps the two
// the same. A wrong value stops the server with a message that names the variable.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { pluginFile } from '../core/pluginLayout.ts';
import { type PluginEnv, doc, flag, httpUrl, list, number, oneOf, secretUrl, text } from '../core/envVars.ts';
import { StartError } from './startError.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** DATABASE_URL: empty (SQLite in DATA_DIR), sqlite:/file: a path, or a PostgreSQL or MySQL URL. */
const databaseUrl = z
  .string()
  .optional()
  .transform((value, ctx) => {
    const v = value?.trim() ?? '';
    if (!v || /^(sqlite|file):/i.test(v)) return v;
    if (/^(postgres|postgresql|mysql|mariadb):\/\//i.test(v)) {
      if (URL.parse(v)) return v;
      ctx.addIssue({ code: 'custom', message: 'is not a valid URL: postgres://user:password@host:5432/db, with the password URL-encoded (%40 for @)' });
      return z.NEVER;
    }
    ctx.addIssue({ code: 'custom', message: 'must start with sqlite:, postgres://, postgresql://, mysql:// or mariadb://' });
    return z.NEVER;
  });

/** An http(s) origin without a path (`https://chat.example.org`), as browsers send it. */
const origins = list.transform((values, ctx) => {
  for (const value of values) {
    const url = URL.parse(value);
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.origin !== value.replace(/\/+$/, '')) {
      ctx.addIssue({ code: 'custom', message: `must be origins as browsers send them, such as https://chat.example.org (scheme, host in lowercase, a port only when not the default; no path), got ${value}` });
      return z.NEVER;
    }
  }
  return values;
});

/** Hosts as `host` or `host:port`, without a scheme or a path. */
const hosts = list.transform((values, ctx) => {
  const bad = values.find((value) => /[/\s@]/.test(value));
  if (bad) {
    ctx.addIssue({ code: 'custom', message: `must be host or host:port entries, without a scheme or a path, got ${bad}` });
    return z.NEVER;
  }
  return values;
});

const serverSchema = z.object({
  // The server
  PORT: doc(number(3000, 0, 65535, true), '`3000`', 'HTTP port'),
  HOST: doc(text('127.0.0.1'), '`127.0.0.1`', 'Address to listen on (`0.0.0.0` to serve a network)'),
  DATA_DIR: doc(text('./data'), '`./data`', 'Where the embedded SQLite database (WAL mode, uploads included) and the generated secret key live'),
  DATABASE_URL: doc(databaseUrl, 'SQLite in `DATA_DIR`', '`postgres://user@host:5432/db` or `mysql://user:pass@host:3306/db` (MariaDB too) for a team deployment; migrations run on start'),
  SHELLCHAT_DIST: doc(text('./dist'), '`./dist`', 'The built single-page app to serve; without one there, the start logs a warning and serves the API alone (`npm start` builds it)'),
  SHELLCHAT_APP_CONFIG: doc(text(), '`./app.config.ts`', 'Another app config (the list of built-in plugins): the build bundles those plugins and the server mounts their routes; set it alike for both'),
  LOG_LEVEL: doc(oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'info'), '`info`', 'pino log level; passwords, tokens, keys and cookies are always redacted'),
  SHUTDOWN_GRACE_MS: doc(number(10_000, 0, 3_600_000, true), '`10000`', 'On SIGTERM/SIGINT, how long answers may go on streaming; those still streaming are then stopped as a user\'s stop would (each keeps its answer so far as its log, and the browser says the server is restarting)'),
  // Accounts, security, mail
  ROOT_PASSWORD: doc(text(), 'generated', 'Creates the user `root` (rank root_user) on first start; without it a random password is printed once on the terminal'),
  REDIS_URL: doc(secretUrl(['redis', 'rediss'], 'redis://host:6379'), '', 'Several instances of one deployment (`redis://host:6379`): what they must count together (login throttling) lives in Redis. Setting it makes the deployment multi-instance: the server then refuses to start without `SECRET_KEY` and a PostgreSQL or MySQL `DATABASE_URL`. See docs/deployment.md'),
  SECRET_KEY: doc(text(), 'generated in `DATA_DIR`', 'The server\'s secret: it signs e-mail links and seals model keys, node keys and store passwords at rest. Set the same one on every instance of a deployment'),
  PUBLIC_URL: doc(httpUrl(''), 'the request\'s origin', 'Base of links in e-mails, e.g. `https://chat.example.org`'),
  SMTP_URL: doc(secretUrl(['smtp', 'smtps'], 'smtp://user:pass@host:587'), '', '`smtp://user:pass@host:587`: enables e-mail (password reset, address verification, generated passwords). The start asks the mail server and logs a warning when it does not answer'),
  MAIL_FROM: doc(text('shellchat <no-reply@localhost>'), '`shellchat <no-reply@localhost>`', 'Sender of those e-mails'),
  TRUST_PROXY: doc(flag, '`false`', 'Behind a reverse proxy: trust `X-Forwarded-For` (throttling) and `X-Forwarded-Proto` (Secure cookies)'),
  ALLOWED_ORIGINS: doc(origins, '', 'Other origins allowed to send state-changing requests (comma-separated)'),
  HTTPS_PROXY: doc(secretUrl(['http', 'https'], 'http://proxy:3128'), '', 'A proxy (`http://host:port`, credentials in the URL if it needs them) for the server\'s own requests to https providers of system models and the operator\'s APIs; user models never use it (they go through the egress-safe fetch). `https_proxy` is read too'),
  HTTP_PROXY: doc(secretUrl(['http', 'https'], 'http://proxy:3128'), '', 'The same for http URLs (a model server on a LAN, say). `http_proxy` is read too'),
  NO_PROXY: doc(text(), '', 'Hosts reached without the proxy: comma-separated names, `.domain` suffixes, `host:port`, or `*`. `no_proxy` is read too'),
  EGRESS_ALLOW_HOSTS: doc(hosts, '', '`host` or `host:port` entries (comma-separated) that user-supplied URLs, such as a user model\'s base URL, may reach although they are private or loopback'),
  UPLOAD_QUOTA_MB: doc(number(100, 0, 1_000_000), '`100`', 'What one owner (a user, or an anonymous browser) may keep in uploaded files; files go with the account'),
  USAGE_LIMITS: doc(text(), '', 'Questions per rolling 24 hours, 7 days and 30 days by role: `user:540,3780,16740;plus_user:4320,-,-;anonymous:20,-,-` (`-` or nothing: no limit; `anonymous` counts per browser, and per address too: see `VISITORS_PER_ADDRESS`; root has none). A question counts from when it is sent, so questions sent at once cannot pass a limit together. Past a limit the next question is refused with \'The usage limitation has been reached.\' and when it can be asked again (a visitor is also told how to sign up or log in). Unset: no limits'),
  // Visitors without an account, counted per address as well as per browser (issue 34)
  VISITORS_PER_ADDRESS: doc(number(5, 1, 100_000, true), '`5`', 'The visitors without an account at one address (behind `TRUST_PROXY`, the forwarded one; an IPv6 address counts by its /64) share this many times the `anonymous` limits of `USAGE_LIMITS`, so dropping the browser\'s cookie does not start a visitor\'s count again'),
  UPLOAD_ADDRESS_QUOTA_MB: doc(number(100, 0, 1_000_000), '`100`', 'What the visitors without an account at one address may keep in uploaded files together (each browser also within `UPLOAD_QUOTA_MB`)'),
  UPLOAD_ANONYMOUS_TOTAL_MB: doc(number(2048, 0, 100_000_000), '`2048`', 'What all visitors without an account may keep in uploaded files together on this server; past it they are asked to sign up or log in to upload'),
  // Answers in flight (issue 34): refused past a cap with 'Too many answers are in progress. Try again when one has finished.'
  MAX_ANSWERS_PER_USER: doc(number(4, 0, 100_000, true), '`4`', 'Answers one logged-in user may have in flight at once, over all their browsers (`0`: no cap); counted per instance'),
  MAX_ANSWERS_PER_VISITOR: doc(number(4, 0, 100_000, true), '`4`', 'Answers one anonymous browser (its device cookie) may have in flight at once (`0`: no cap)'),
  MAX_ANSWERS_PER_ADDRESS: doc(number(32, 0, 100_000, true), '`32`', 'Answers in flight at once from one client address (an IPv6 /64), users and visitors together (`0`: no cap). Behind a reverse proxy set `TRUST_PROXY`, or every visitor shares the proxy\'s address'),
  // Models
  MODEL: doc(text(), '', 'The default system model (shown in `:info` and system info), served through the OpenAI-compatible provider'),
  OPENAI_BASE_URL: doc(httpUrl(''), '`https://api.openai.com/v1`', 'Base URL of the default model\'s OpenAI-compatible API'),
  OPENAI_API_KEY: doc(text(), '', 'The default model\'s API key (used on the server only; never sent to a browser, nor to a user\'s model)'),
  MODEL_PRICE_INPUT: doc(number(0, 0, 1_000_000), '`0`', 'The default model\'s price per input token, in dollars (the usage ledger\'s fees)'),
  MODEL_PRICE_OUTPUT: doc(number(0, 0, 1_000_000), '`0`', 'The default model\'s price per output token, in dollars'),
  MODEL_VISION: doc(flag, '`false`', 'The default model reads images'),
  MODELS: doc(text(), '', 'JSON array of more system models: `[{"name":"claude","provider":"anthropic","base_url":"...","api_key_env":"ANTHROPIC_KEY"}]` (providers: openai-compatible, openai, anthropic, google, ollama)'),
  MODELS_FILE: doc(text(), '`DATA_DIR/models.json`', 'A file with the same JSON as `MODELS`, read when `MODELS` is unset; set, it must exist (the default one may be absent)'),
  STREAM_RELAY: doc(oneOf(['direct', 'sdk'], 'direct'), '`direct`', 'How OpenAI-compatible streams are relayed: `direct` reads the provider\'s SSE with one parse per event and hands each network read on at once (about a sixth of the server CPU per token, see bench/README.md); `sdk` sends them through the AI SDK like every other provider kind'),
  OLLAMA_BASE_URL: doc(httpUrl(''), '`http://localhost:11434`', 'The local model server the browser calls directly for local models (system info `ollama_url`; added to the CSP)'),
  TEMPERATURE: doc(number(1, 0, 2), '`1`', 'Sampling temperature of every answer (spec part 3)'),
  TOP_P: doc(number(1, 0, 1), '`1`', 'Nucleus sampling of every answer (spec part 3)'),
  ROLE_CONTENT_SYSTEM: doc(text(), '', 'The system prompt sent before every conversation'),
  // Plugins' data
  USE_NODE_AI: doc(flag, '`false`', 'Lets an active node\'s output reach the model as context before the answer'),
  MCP_HELPER_URL: doc(httpUrl('http://127.0.0.1:11318'), '`http://127.0.0.1:11318`', 'The local MCP helper the browser calls (shown in system info, allowed by the CSP)'),
  // What the interface shows (system info, spec part 3)
  WELCOME_MESSAGE: doc(text(), '', 'Text shown to anonymous visitors before their first command (plain text)'),
  INIT_PLACEHOLDER: doc(text(), '`:help`', 'The input\'s initial placeholder (shortened like the last input)'),
  ENTER: doc(text(), '', 'System info `enter`, for clients that show it'),
  MINIMALIST: doc(flag, '`false`', 'System info `minimalist`, for clients that show a smaller interface'),
  QUERYING_TEXT: doc(text(), '`Querying...`', 'The status line while the context is built (in the interface\'s language unless set)'),
  GENERATING_TEXT: doc(text(), '`Generating...`', 'The status line while the model answers (in the interface\'s language unless set)'),
  SEARCHING_TEXT: doc(text(), '`Searching...`', 'The status line while data stores are searched'),
  WAITING_TEXT: doc(text(), '`Waiting...`', 'The status line while a node works'),
  DEFAULT_FUNCTIONS: doc(text('get_time,get_weather,redirect_to_url'), '`get_time,get_weather,redirect_to_url`', 'System info `default_functions`: the functions a new visitor has in use'),
  DEFAULT_ROLE: doc(text(), '', 'System info `default_role`'),
  DEFAULT_STORES: doc(text(), '', 'System info `default_stores`'),
  DEFAULT_NODE: doc(text(), '', 'System info `default_node`'),
  USE_PAYMENT: doc(flag, '`false`', 'Shows the Usage page: questions this month and last, each limit of `USAGE_LIMITS` with a progress bar, tokens and fees per model (from the usage ledger every turn writes); super users and root also see every user\'s, by model (the spec\'s services-usage block)'),
  USE_SUBSCRIPTIONS: doc(flag, '`false`', 'Turns the money side on when the `subscription` plugin is installed: the Subscriptions page, plans and top-ups paid with PayPal, a logged-in user whose fees exceed the balance refused before asking, and the plus plan\'s gates (MCP functions, adding and changing roles, data stores, nodes and the CLI need `plus_user` or above). Without `PAYPAL_CLIENT_ID` and `PAYPAL_CLIENT_SECRET` the start logs a warning: plans are shown, nothing can be bought'),
  PLANS_FILE: doc(text(), '`DATA_DIR/plans.json`', 'The subscription plans: `[{"role":"plus_user","price":"6.00","limits":"4320,-,-"}]` (price per month in dollars; `user` is the free plan); read on start; set, it must exist; else the default file when it exists, else `PLANS`'),
  PLANS: doc(text(), '`[{"role":"user","price":"0"},{"role":"plus_user","price":"6.00"}]`', 'The plans as the same JSON, when there is no plans file'),
  TRIAL_BALANCE: doc(number(0, 0, 1000), '`0`', 'What a new account\'s balance starts at, in dollars (rounded to the cent)'),
  PAYPAL_CLIENT_ID: doc(text(), '', 'PayPal REST app client id (sent to the browser, which loads PayPal\'s script with it); unset: nothing can be bought'),
  PAYPAL_CLIENT_SECRET: doc(text(), '', 'PayPal REST app secret (server only: OAuth2 client credentials)'),
  PAYPAL_API_URL: doc(httpUrl('https://api-m.sandbox.paypal.com'), '`https://api-m.sandbox.paypal.com`', 'PayPal REST API base (`https://api-m.paypal.com` for live payments)'),
  PAYPAL_SDK_URL: doc(httpUrl('https://www.paypal.com/sdk/js'), '`https://www.paypal.com/sdk/js`', 'Where the browser loads PayPal\'s JS SDK (the Content-Security-Policy allows its origin)'),
  PAYPAL_WEBHOOK_ID: doc(text(), '', 'The id of the PayPal webhook that posts to `/api/payment/webhook` (its events are verified with PayPal\'s verify-webhook-signature call); unset: webhooks are refused and pending orders are reconciled by polling'),
  CONTACT_EMAIL: doc(text(), '`privacy@shellchat.dev`', 'The privacy policy\'s contact address'),
  PLUGIN_REMOTES: doc(text(), '`[]`', 'JSON array of third-party plugins: `[{"name":"hello_plugin","entry":"https://.../remoteEntry.js"}]`'),
  DISABLED_PLUGINS: doc(list, '', 'Comma-separated plugin ids reported as disabled in system info'),
  SHELLCHAT_DEMO: doc(flag, '`false`', 'Labels the app as a demo (`npm run demo` sets it, with a fake model server)'),
});

/** Each plugin's own variables (plugins/<id>/server/env.ts), whether or not the app config enables it. */
export const pluginEnvs: { id: string; env: PluginEnv }[] = [];
for (const id of readdirSync(path.join(ROOT, 'plugins')).sort()) {
  const file = path.join(ROOT, pluginFile(id, 'env'));
  if (existsSync(file)) pluginEnvs.push({ id, env: (await import(pathToFileURL(file).href)).default as PluginEnv });
}

/** The server's variables, then the plugins' (a name is declared once). */
export const envSchema = serverSchema.extend(
  Object.fromEntries(
    pluginEnvs.flatMap(({ id, env }) =>
      Object.entries(env.schema.shape).map(([name, schema]) => {
        if (name in serverSchema.shape) throw new Error(`plugins/${id} declares ${name}, which the server declares`);
        return [name, schema];
      }),
    ),
  ) as Record<never, z.ZodType>,
);

export type Env = z.infer<typeof serverSchema>;

/** The environment parsed; a wrong value throws one message naming each variable at fault. */
export function parseEnv(env: NodeJS.ProcessEnv): Env & Record<string, unknown> {
  const parsed = envSchema.safeParse(env);
  if (parsed.success) return parsed.data as Env & Record<string, unknown>;
  throw new StartError(parsed.error.issues.map((i) => `${String(i.path[0])} ${i.message}`).join('\n'));
}

/** The configuration table of docs/configuration.md, made from the schema. */
export function configurationTable(): string {
  const rows = Object.entries(envSchema.shape).map(([name, schema]) => {
    const meta = schema.meta() as { shownDefault: string; description: string };
    return `| \`${name}\` | ${meta.shownDefault} | ${meta.description} |`;
  });
  return ['| Variable | Default | Meaning |', '|---|---|---|', ...rows].join('\n');
}

/** docs/configuration.md as a whole: the server's table, then what other programs read. */
export function configurationDoc(): string {
  return `# Configuration

Environment variables, or a \`.env\` file in the working directory. A wrong value, a file
named that does not exist, a database that does not answer or a port in use stops the server
with one line per fault on stderr, naming the variable and the cause (exit code 1); what it
can run without (the built app, the mail server, PayPal) is one warning each in the log at
start. This file is generated from
\`src/server/env.ts\` by \`npm run docs:config\`; a test fails while the two differ.

## The server

${configurationTable()}

## Elsewhere

| Variable | Default | Read by |
|---|---|---|
| \`MCP_PORT\`, \`MCP_CONFIG\`, \`MCP_ALLOWED_ORIGINS\` | see \`npm run mcp -- --help\` | The local MCP helper (\`src/helper/config.ts\`) |
| \`CHROME_PATH\` | \`/usr/bin/chromium\` | The browser tests and benchmarks: the Chromium to drive |
| \`CI\` | | \`npm test\`: with \`true\`, tests that need Chromium or a database service fail instead of skipping |
`;
}
