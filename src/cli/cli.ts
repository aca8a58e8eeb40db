// `shellchat [options] ["question" | ":command"]`: one-shot (with what is piped on stdin sent
// along, as a file's text is, or as the input itself when no text is given) or the interactive
// shell. Exit codes: 0, 1 after an error (on stderr), 130 after Ctrl+C.
import { answerSink, type AnswerInfo } from './answer.ts';
import { CliArgsError, parseCliArgs, USAGE } from './args.ts';
import { cliChat } from './chat.ts';
import { cliControl } from './control.ts';
import { applyFlags } from './flags.ts';
import { openProfile } from './profile.ts';
import { renderOutputs, type Terminal } from './render.ts';
import { repl } from './repl.ts';
import { openRuntime } from './runtime.ts';
import { NOT_WORKING, workingLine } from './working.ts';

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) return '';
  let text = '';
  for await (const chunk of process.stdin) text += String(chunk);
  return text;
}

export async function runCli(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const term: Terminal = { out: process.stdout, err: process.stderr, env };
  let args;
  try {
    args = parseCliArgs(argv, env);
  } catch (err) {
    const showUsage = err instanceof CliArgsError ? err.showUsage : true;
    term.err.write(`${(err as Error).message}\n${showUsage ? `${USAGE}\n` : ''}`);
    return 1;
  }
  if (args.help) {
    term.out.write(`${USAGE}\n`);
    return 0;
  }
  // Without text, what is piped is the input (`echo ":model ls" | shellchat`); the shell needs a terminal.
  let piped = args.text !== undefined || !process.stdin.isTTY ? await readStdin() : '';
  let text = args.text;
  if (text === undefined && !process.stdin.isTTY) [text, piped] = [piped.trim(), ''];
  if (text !== undefined && !text.trim()) {
    term.err.write('Nothing to send: give a question or a :command, as text or on stdin.\n');
    return 1;
  }
  if (args.json && text === undefined) {
    term.err.write('--json prints one answer: give a question or a :command.\n');
    return 1;
  }

  const profile = openProfile(env);
  let answered: AnswerInfo | undefined;
  const session = await openRuntime({
    server: args.server,
    profile,
    env,
    ...(args.key ? { apiKey: args.key } : {}),
    control: cliControl(env),
    chat: cliChat(
      answerSink(term, { json: args.json, onEnd: (info) => (answered = info) }),
      () => (piped ? `File content (stdin):\n${piped}` : ''),
    ),
  });
  term.server = args.server;
  term.tFor = (ns) => session.host.t(ns);
  // The flags apply once the account's settings are in (they would otherwise replace them).
  await session.ready;
  const keyRefused = session.keyRefusal();
  if (keyRefused) {
    term.err.write(`${keyRefused}\n`);
    return 1;
  }
  const refused = await applyFlags(session, args);
  if (refused.length) {
    await renderOutputs(await session.host.inLanguage(refused), term);
    return 1;
  }
  if (text === undefined) return repl(session, profile, term);

  // What a command says while it runs (`:login sso`'s code, progress) goes to stderr: stdout keeps
  // its result. So does the working line of a command taking a while, which that progress ends.
  let working = NOT_WORKING;
  session.host.events.on('output', (outputs) => {
    working.end();
    void renderOutputs(outputs, { ...term, out: term.err });
  });
  const abort = new AbortController();
  let interrupted = false;
  process.once('SIGINT', () => {
    interrupted = true;
    abort.abort();
  });
  const run = (line: string) => {
    working = workingLine(line, session.host, term.err, env);
    return session.host.run(line, abort.signal).finally(() => working.end());
  };
  let result = await run(text);
  // What `:edit` wrote is sent after it.
  for (let line; !abort.signal.aborted && (line = session.control.pending.shift()); ) {
    await renderOutputs(result.outputs, term);
    result = await run(line);
  }
  session.persist();
  if (interrupted) return 130;
  if (args.json && answered) {
    const { text: answer, model, session: id, stats, evaluation } = answered;
    term.out.write(`${JSON.stringify({ text: answer, model, session: id, ...(stats ? { stats } : {}), ...(evaluation ? { evaluation } : {}) })}\n`);
    return (await renderOutputs(result.outputs.filter((o) => o.kind === 'error'), term)) ? 1 : 0;
  }
  return (await renderOutputs(result.outputs, term)) ? 1 : 0;
}
