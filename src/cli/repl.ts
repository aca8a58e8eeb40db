// The interactive shell: a prompt that shows the model in use, Tab completion from the manifests (the
// browser's completeLine), history kept in the profile (100 lines, newest first, no secrets),
// Ctrl+C (or `:stop`) stopping an answer as it streams (the request is aborted; the server stops
// the provider and keeps the answer so far), other lines typed meanwhile kept for the next prompt
// (typeAhead.ts), Ctrl+C on an empty line or Ctrl+D leaving, several pasted lines kept as one
// input (paste.ts), `:edit`'s text sent after it, and the arrows walking logs and sessions.
import readline from 'node:readline';
import { PassThrough } from 'node:stream';
import { completeLine } from '../core/host/tabCompletion.ts';
import { isStop } from '../core/host/lineCommand.ts';
import { maskSecrets, pushHistory, settingIn, type Output } from '../core/host/index.ts';
import { BRACKETED_PASTE_OFF, BRACKETED_PASTE_ON, pasteFilter } from './paste.ts';
import type { Profile } from './profile.ts';
import { AttachedMarkers } from '../core/attached.ts';
import { colours, renderOutputs, type Terminal } from './render.ts';
import type { CliRuntime } from './runtime.ts';
import { typeAhead } from './typeAhead.ts';
import { NOT_WORKING, workingLine } from './working.ts';

const HISTORY = 'history.json';

export async function repl(session: CliRuntime, profile: Profile, term: Terminal): Promise<number> {
  const { host, settings } = session;
  let history = profile.readJson<string[]>(HISTORY, []);
  const paste = pasteFilter();
  const input = filteredStdin(paste.filter);
  const rl = readline.createInterface({
    input,
    output: term.out,
    terminal: true,
    history: [...history],
    historySize: 100,
    removeHistoryDuplicates: true,
    completer: (line: string, done: (err: null, result: [string[], string]) => void) => {
      completeLine(line, host.registry, {
        settingKeys: () => settings.specs().filter((s) => s.settable !== false && settingIn(s, 'cli')).map((s) => s.key),
        provider: (source, pluginId) => host.completionProvider(source, pluginId),
      })
        .then(({ base, candidates }) => done(null, [candidates.map((c) => base + c), line]))
        .catch(() => done(null, [[], line]));
    },
  });
  // The model the next question goes to: the one in use, else the server's default.
  const prompt = () => `${settings.get<string>('model') || session.systemInfo().model || 'shellchat'}> `;
  maskWhileTyped(rl, (line) => (settings.get<boolean>('passMask') === false ? line : maskSecrets(line, host.registry)));
  // A server that did not answer at the start is said before the first prompt, not at the first question.
  if (session.reach.ok === false) term.err.write(`${session.reach.said(session.i18n.tFor('cli'))}\n`);
  let running: AbortController | undefined;
  // Where the answer of a command taking a while goes, a line says it is running (working.ts).
  let working = NOT_WORKING;
  const typing = typeAhead(rl);
  // Lines entered while an answer streams are not sent (spec part 4; queued, one would run at a
  // moment nobody chose), and not lost either: the last waits in the next prompt's line, as the
  // page keeps it in the box, under a dim line that says it was not sent and how an answer is
  // stopped (said once the answer ends: nothing can be written while it is being drawn). Retyping
  // a question typed blind is what a demanding user would resent; each entered line is also in
  // the history (readline put it there), a press of Up away.
  const held: string[] = [];
  const attached = new AttachedMarkers();
  let back: string[] = [];
  const offerHeld = () => {
    const last = held.at(-1);
    held.length = 0;
    if (last === undefined) return;
    const hint = session.i18n.tFor('cli')('msg.notSentWhileBusy');
    term.out.write(`${colours(term.out, term.env) ? `\u001b[2m${hint}\u001b[0m` : hint}\n`);
    // A line typed since and not entered stays in the line as typed.
    if (!rl.line) typing.fill(last);
  };
  rl.on('SIGINT', () => {
    if (running) {
      running.abort();
      return;
    }
    if (rl.line) {
      rl.write(null, { ctrl: true, name: 'u' });
      return;
    }
    rl.close();
  });
  session.control.onExit = () => rl.close();
  walkWithArrows(input, session, () => !running && !rl.line, async (outputs) => {
    working.end();
    term.out.write('\r\u001b[K');
    await renderOutputs(outputs, term);
    session.persist();
    rl.prompt();
  });
  term.out.write(BRACKETED_PASTE_ON);
  const lines = (rl as unknown as { history: string[] }).history;
  return new Promise((resolve) => {
    rl.on('close', () => {
      term.out.write(`${BRACKETED_PASTE_OFF}\n`);
      process.stdin.removeAllListeners('data');
      process.stdin.pause();
      resolve(0);
    });
    const ask = () => {
      rl.setPrompt(prompt());
      // The cursor where it was in the line kept from the answer's time (at its end).
      rl.prompt(true);
    };
    /** Runs a line; `entered`: as readline put it in its history (typed, pastes not expanded). */
    const run = async (line: string, entered?: string) => {
      working = workingLine(line, host, term.out, term.env);
      const result = await host.run(line, running!.signal).finally(() => working.end());
      // Its entry in readline's history (lines entered while it ran are in front of it).
      const at = entered === undefined ? -1 : lines.indexOf(entered);
      // Passwords typed into a command never reach the history, here or in the file.
      if (result.remember) {
        history = pushHistory(history, line);
        profile.writeJson(HISTORY, history);
        if (at >= 0) lines[at] = line;
      } else if (at >= 0) lines.splice(at, 1);
      if (running!.signal.aborted) term.out.write('\n');
      await renderOutputs(result.outputs, term);
      session.persist();
      // A page read for the next question waits in the next prompt's line, as in the page's input.
      for (const o of result.outputs) if (o.kind === 'effect' && o.effect.type === 'attach') attached.add(o.effect.marker);
      back = attached.after(line, result.parsed.kind === 'chat');
    };
    rl.on('line', async (typed) => {
      // Typed while an answer streams: `:stop` stops it, as Ctrl+C does; any other line waits.
      if (running) {
        if (isStop(typed, host.registry)) running.abort();
        else if (typed.trim()) held.push(typed);
        return;
      }
      const line = paste.expand(typed);
      if (!line.trim()) return ask();
      running = new AbortController();
      typing.busy(true);
      try {
        await session.ready;
        await run(line, typed);
        // What `:edit` wrote, shown and sent as if typed.
        for (let next; !running.signal.aborted && (next = session.control.pending.shift()); ) {
          term.out.write(`${prompt()}${next}\n`);
          await run(next);
        }
      } finally {
        running = undefined;
        typing.busy(false);
        if (!(rl as unknown as { closed: boolean }).closed) {
          offerHeld();
          if (back.length) typing.fill(AttachedMarkers.into(rl.line, back));
          back = [];
          ask();
        }
      }
    });
    ask();
  });
}

/**
 * As the browser's arrows on an empty input: Left and Right walk the session's logs, Alt+Up and
 * Alt+Down the sessions (plain Up and Down walk the history). The session plugin answers.
 */
function walkWithArrows(input: NodeJS.ReadableStream, session: CliRuntime, idle: () => boolean, show: (outputs: Output[]) => Promise<void>): void {
  const { host } = session;
  input.on('keypress', (_s: string, key?: { name?: string; meta?: boolean; ctrl?: boolean }) => {
    if (!key?.name || key.ctrl || !idle()) return;
    const walk =
      key.name === 'left' || key.name === 'right'
        ? !key.meta && { target: 'log' as const, direction: key.name === 'left' ? ('previous' as const) : ('next' as const) }
        : (key.name === 'up' || key.name === 'down') && key.meta && { target: 'session' as const, direction: key.name === 'up' ? ('previous' as const) : ('next' as const) };
    if (walk) void session.ready.then(() => host.events.emit('navigate', walk));
  });
  host.events.on('output', (outputs) => void show(outputs));
}

/**
 * Passwords are masked as they are typed (spec part 5): what readline echoes of the line goes
 * through `mask` (the browser's maskSecrets), whether it writes one typed character or redraws
 * the whole line.
 */
function maskWhileTyped(rl: readline.Interface, mask: (line: string) => string): void {
  const target = rl as unknown as { _writeToOutput(text: string): void; line: string };
  const write = target._writeToOutput.bind(rl);
  target._writeToOutput = (text: string) => {
    const line = target.line;
    const masked = line ? mask(line) : line;
    if (!line || masked === line) return write(text);
    if (text.includes(line)) return write(text.replace(line, masked));
    if (line.endsWith(text)) return write(masked.slice(line.length - text.length));
    write(text);
  };
}

/**
 * The terminal's input as readline should see it (pastes folded by `filter`), still a TTY in
 * raw mode for readline's key handling.
 */
function filteredStdin(filter: (chunk: string) => string): NodeJS.ReadableStream {
  const input = new PassThrough() as PassThrough & { isTTY: boolean; setRawMode(mode: boolean): void };
  input.isTTY = true;
  input.setRawMode = (mode) => process.stdin.setRawMode?.(mode);
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk: string) => {
    const seen = filter(chunk);
    if (seen) input.write(seen);
  });
  return input;
}
