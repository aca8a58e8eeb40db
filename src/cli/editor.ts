// `:edit`: the input written in the user's editor ($VISUAL, $EDITOR, else vi), in a private
// temporary file removed afterwards. The terminal leaves raw mode while the editor owns it.
// An editor that fails (exits non-zero, is not found, is killed) is said as such, not taken for
// an empty text.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { constants, tmpdir } from 'node:os';
import path from 'node:path';
import type { Edited } from '../core/index.ts';

const signalName = (n: number) => Object.entries(constants.signals).find(([, value]) => value === n)?.[0];

export function openEditor(text: string, env: NodeJS.ProcessEnv): Edited {
  const editor = env.VISUAL || env.EDITOR || 'vi';
  const dir = mkdtempSync(path.join(tmpdir(), 'shellchat-edit-'));
  const file = path.join(dir, 'input.md');
  const raw = process.stdin.isTTY && process.stdin.isRaw;
  try {
    writeFileSync(file, text, { mode: 0o600 });
    if (raw) process.stdin.setRawMode(false);
    // Through the shell: an editor variable may carry arguments ("code --wait").
    const ran = spawnSync(`${editor} "${file}"`, { shell: true, stdio: 'inherit', env });
    if (ran.error) return { ok: false, editor, error: ran.error.message };
    // The shell reports an editor killed by a signal as 128 + its number.
    const signal = ran.signal ?? (ran.status !== null && ran.status > 128 ? signalName(ran.status - 128) : undefined);
    if (signal) return { ok: false, editor, signal };
    if (ran.status !== 0) return { ok: false, editor, status: ran.status ?? 1 };
    return { ok: true, text: readFileSync(file, 'utf8') };
  } finally {
    if (raw) process.stdin.setRawMode(true);
    rmSync(dir, { recursive: true, force: true });
  }
}
