// `npm test`: type-check, then every vitest project (unit, contract, server, Storybook build,
// browser end-to-end). Under CI=true the browser tests must run, not skip.
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const bin = (name: string) => path.join(root, 'node_modules', '.bin', name);

function step(title: string, command: string, args: string[]): void {
  console.log(`\n▶ ${title}`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: process.env });
  if (result.status !== 0) {
    console.error(`✖ ${title} failed`);
    process.exit(result.status ?? 1);
  }
}

step('type-check', bin('tsc'), ['--noEmit', '-p', 'tsconfig.json']);
step('tests', bin('vitest'), ['run', ...process.argv.slice(2)]);
