// The command line of `shellchat` (node:util parseArgs): the server, one-shot text, and the
// switches a script needs (model, role, stream, JSON output). A value that cannot work is
// refused here, naming the flag (or the variable), rather than ignored or failing later.
import { parseArgs } from 'node:util';

export interface CliArgs {
  server: string;
  model?: string;
  role?: string;
  stream?: boolean;
  json: boolean;
  help: boolean;
  /** An API key (`--key` or SHELLCHAT_API_KEY): sent as `Authorization: Bearer` instead of a login. */
  key?: string;
  /** One-shot: a question or a colon command; absent for the REPL. */
  text?: string;
}

export const USAGE = `Usage: shellchat [options] ["question" | ":command"]

  -s, --server <url>   the shellchat server (SHELLCHAT_SERVER, default http://localhost:3000)
  -m, --model <name>   use this model for this run
  -r, --role <name>    use this role for this run
  -k, --key <key>      an API key (SHELLCHAT_API_KEY) instead of a login, for scripts and CI
      --stream         stream the answer (default)
      --no-stream      wait for the whole answer
      --json           print the answer as JSON (text, model, session)
  -v, --version        print the version
  -h, --help           print this help

Without text, an interactive shell starts. Text piped on stdin is sent with the question, or
is the question (or the command) when none is given.`;

/** A command line that cannot run: said in one line, with the usage when the line itself is wrong. */
export class CliArgsError extends Error {
  readonly showUsage: boolean;
  constructor(message: string, showUsage = false) {
    super(message);
    this.showUsage = showUsage;
  }
}

/** The server's address as fetch needs it: an http(s) URL, or the error naming where it came from. */
function serverUrl(value: string, from: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname) {
    throw new CliArgsError(`${from} "${value}" is not a server address: give its URL, such as http://localhost:3000.`);
  }
  return value.replace(/\/+$/, '');
}

/** The API key of `--key`, else of SHELLCHAT_API_KEY: one word, or refused naming where it came from. */
function apiKey(flag: string | undefined, env: NodeJS.ProcessEnv): { key?: string } {
  const [value, from] = flag !== undefined ? [flag, '--key'] : [env.SHELLCHAT_API_KEY, 'SHELLCHAT_API_KEY'];
  if (value === undefined || (from === 'SHELLCHAT_API_KEY' && value === '')) return {};
  if (!/^\S+$/.test(value.trim())) throw new CliArgsError(`${from} needs an API key (one word, such as sk-sc-...).`);
  return { key: value.trim() };
}

export function parseCliArgs(argv: string[], env: NodeJS.ProcessEnv): CliArgs {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      allowNegative: true,
      options: {
        server: { type: 'string', short: 's' },
        model: { type: 'string', short: 'm' },
        role: { type: 'string', short: 'r' },
        key: { type: 'string', short: 'k' },
        stream: { type: 'boolean' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (err) {
    throw new CliArgsError((err as Error).message, true);
  }
  const { values, positionals } = parsed;
  for (const flag of ['model', 'role'] as const) {
    if (values[flag] !== undefined && !values[flag].trim()) throw new CliArgsError(`--${flag} needs a name.`);
  }
  const server = values.server !== undefined ? serverUrl(values.server, '--server') : env.SHELLCHAT_SERVER ? serverUrl(env.SHELLCHAT_SERVER, 'SHELLCHAT_SERVER') : 'http://localhost:3000';
  return {
    server,
    ...(values.model ? { model: values.model.trim() } : {}),
    ...(values.role ? { role: values.role.trim() } : {}),
    ...apiKey(values.key, env),
    ...(values.stream !== undefined ? { stream: values.stream } : {}),
    json: values.json ?? false,
    help: values.help ?? false,
    ...(positionals.length ? { text: positionals.join(' ') } : {}),
  };
}
