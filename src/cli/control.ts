// The terminal's side of TerminalRef (src/core/terminal.ts): the editor, the lines `:edit`
// queued (run after the command that queued them), and leaving (set by the REPL).
import type { TerminalControl } from '../core/index.ts';
import { openEditor } from './editor.ts';

export interface CliControl extends TerminalControl {
  readonly pending: string[];
  onExit: () => void;
}

export function cliControl(env: NodeJS.ProcessEnv): CliControl {
  const control: CliControl = {
    pending: [],
    onExit: () => undefined,
    edit: async (text) => openEditor(text, env),
    queue: (line) => control.pending.push(line),
    exit: () => control.onExit(),
  };
  return control;
}
