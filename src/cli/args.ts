// The command line of `shellchat` (node:util parseArgs): the server, one-shot text, and the
// switches a script needs (model, role, stream, JSON output).
import { parseArgs } from 'node:util';

export interface CliArgs {
  server: string;
  model?: string;
  role?: string;
  stream?: boolean;
  json: boolean;
  help: boolean;
  /** One-shot: a question or a colon command; absent for the REPL. */
  text?: string;
}

export const USAGE = `Usage: shellchat [options] ["question" | ":command"]

  -s, --server <url>   the shellchat server (SHELLCHAT_SERVER, default http://localhost:3000)
  -m, --model <name>   use this model
  -r, --role <name>    use this role
      --stream         stream the answer (default)
      --no-stream      wait for the whole answer
      --json           print the answer as JSON (text, model, session)
  -v, --version        print the version
  -h, --help           print this help

Without text, an interactive shell starts. Text piped on stdin is sent with the question.`;

export function parseCliArgs(argv: string[], env: NodeJS.ProcessEnv): CliArgs {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    allowNegative: true,
    options: {
      server: { type: 'string', short: 's' },
      model: { type: 'string', short: 'm' },
      role: { type: 'string', short: 'r' },
      stream: { type: 'boolean' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  return {
    server: (values.server ?? env.SHELLCHAT_SERVER ?? 'http://localhost:3000').replace(/\/+$/, ''),
    ...(values.model ? { model: values.model } : {}),
    ...(values.role ? { role: values.role } : {}),
    ...(values.stream !== undefined ? { stream: values.stream } : {}),
    json: values.json ?? false,
    help: values.help ?? false,
    ...(positionals.length ? { text: positionals.join(' ') } : {}),
  };
}
