// `:edit`: the input written in the user's editor ($VISUAL, $EDITOR, else vi), in a private
// temporary file removed afterwards. The terminal leaves raw mode while the editor owns it.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export function openEditor(text: string, env: NodeJS.ProcessEnv): string | undefined {
  const editor = env.VISUAL || env.EDITOR || 'vi';
  const dir = mkdtempSync(path.join(tmpdir(), 'shellchat-edit-'));
  const file = path.join(dir, 'input.md');
  const raw = process.stdin.isTTY && process.stdin.isRaw;
  try {
    writeFileSync(file, text, { mode: 0o600 });
    if (raw) process.stdin.setRawMode(false);
    // Through the shell: an editor variable may carry arguments ("code --wait").
    const ran = spawnSync(`${editor} "${file}"`, { shell: true, stdio: 'inherit', env });
    if (ran.status !== 0) return undefined;
    return readFileSync(file, 'utf8');
  } finally {
    if (raw) process.stdin.setRawMode(true);
    rmSync(dir, { recursive: true, force: true });
  }
}
