// The terminal's working line: a command that has not answered after WORKING_DELAY_MS is said to
// be running, dim, on the line where its answer goes, which erases it (as does the command's own
// progress). Only on a terminal that can erase a line: never into a pipe or a file a script reads.
import { WORKING_DELAY_MS, type PluginHost } from '../core/host/index.ts';
import { lineCommand } from '../core/host/lineCommand.ts';
import { colours } from './render.ts';

export interface WorkingLine {
  /** Erases the line if it shows; none shows after. */
  end(): void;
}

export const NOT_WORKING: WorkingLine = { end: () => undefined };

/** The working line of `line` on `stream`, shown after `delayMs` unless ended first; none for a question. */
export function workingLine(line: string, host: PluginHost, stream: NodeJS.WriteStream, env: NodeJS.ProcessEnv, delayMs = WORKING_DELAY_MS): WorkingLine {
  const cmd = lineCommand(line, host.registry)?.name;
  if (!cmd || !stream.isTTY || env.TERM === 'dumb') return NOT_WORKING;
  // One row, or erasing it would leave the rows it wrapped onto.
  const text = host.t('shell')('msg.running', { cmd }).slice(0, Math.max(1, (stream.columns || 80) - 1));
  let shown = false;
  const timer = setTimeout(() => {
    shown = true;
    stream.write(colours(stream, env) ? `\u001b[2m${text}\u001b[0m` : text);
  }, delayMs);
  return {
    end() {
      clearTimeout(timer);
      if (shown) stream.write('\r\u001b[K');
      shown = false;
    },
  };
}
