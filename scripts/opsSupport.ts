// What the operator's scripts (backup, restore) share with `npm start`: `.env` is read the same
// way, and a failure is one line on stderr with exit code 1.
import { existsSync } from 'node:fs';

export function loadEnvFile(): void {
  if (existsSync('.env')) process.loadEnvFile('.env');
}

export function opsFailed(text: string): never {
  process.stderr.write(`${text}\n`);
  process.exit(1);
}
