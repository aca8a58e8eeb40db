// `npm start`: builds the single-page app when it is missing or older than its sources,
// then starts the server (one process, one origin).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { checkPort, configure } from '../src/server/prepare.ts';

// A wrong value or a port in use is said now, in one line, not after a build (`.env` is read).
await checkPort(configure());

const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, process.env.SHELLCHAT_DIST || 'dist', 'index.html');

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(full) : statSync(full).mtimeMs);
  }
  return newest;
}

const sources = ['src/shell', 'src/core', 'plugins', 'locales', 'index.html', 'app.config.ts']
  .map((p) => path.join(root, p))
  .filter(existsSync);
const sourceTime = Math.max(...sources.map((p) => (statSync(p).isDirectory() ? newestSource(p) : statSync(p).mtimeMs)));
if (!existsSync(dist) || statSync(dist).mtimeMs < sourceTime) {
  console.log('Building the app...');
  const built = spawnSync(process.execPath, [path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
await import('../src/server/main.ts');
