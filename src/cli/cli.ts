// `shellchat [options] ["question" | ":command"]`: one-shot (with what is piped on stdin sent
// along, as a file's text is) or the interactive shell. Exit codes: 0, 1 after an error (on
// stderr), 130 after Ctrl+C.
import { answerSink, type AnswerInfo } from './answer.ts';
import { parseCliArgs, USAGE } from './args.ts';
import { cliChat } from './chat.ts';
import { cliControl } from './control.ts';
import { openProfile } from './profile.ts';
import { renderOutputs, type Terminal } from './render.ts';
import { repl } from './repl.ts';
import { openSession } from './session.ts';

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
    term.err.write(`${(err as Error).message}\n${USAGE}\n`);
    return 1;
  }
  if (args.help) {
    term.out.write(`${USAGE}\n`);
    return 0;
  }
  const profile = openProfile(env);
  const oneShot = args.text !== undefined;
  const piped = oneShot ? await readStdin() : '';
  let answered: AnswerInfo | undefined;
  const session = await openSession({
    server: args.server,
    profile,
    env,
    control: cliControl(env),
    chat: cliChat(
      answerSink(term, { json: args.json, onEnd: (info) => (answered = info) }),
      () => (piped ? `File content (stdin):\n${piped}` : ''),
    ),
  });
  if (args.model) session.settings.set('model', args.model);
  if (args.role) session.settings.set('role', args.role);
  if (args.stream !== undefined) session.settings.set('useStream', args.stream);
  if (!oneShot) return repl(session, profile, term);

  const abort = new AbortController();
  let interrupted = false;
  process.once('SIGINT', () => {
    interrupted = true;
    abort.abort();
  });
  await session.ready;
  let result = await session.host.run(args.text!, abort.signal);
  // What `:edit` wrote is sent after it.
  for (let line; !abort.signal.aborted && (line = session.control.pending.shift()); ) {
    await renderOutputs(result.outputs, term);
    result = await session.host.run(line, abort.signal);
  }
  session.persist();
  if (interrupted) return 130;
  if (args.json && answered) {
    const { text, model, session: id, stats, evaluation } = answered;
    term.out.write(`${JSON.stringify({ text, model, session: id, ...(stats ? { stats } : {}), ...(evaluation ? { evaluation } : {}) })}\n`);
    return (await renderOutputs(result.outputs.filter((o) => o.kind === 'error'), term)) ? 1 : 0;
  }
  return (await renderOutputs(result.outputs, term)) ? 1 : 0;
}
