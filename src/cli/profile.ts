// What the CLI keeps between runs, in the user's config directory (env-paths; SHELLCHAT_CONFIG_DIR
// overrides it): the login cookie (file mode 0600: it is a credential), the settings a browser
// keeps in localStorage, and the command history (100 lines, newest first, no secrets).
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import envPaths from 'env-paths';

export interface Profile {
  dir: string;
  loginFile: string;
  readJson<T>(name: string, fallback: T): T;
  writeJson(name: string, value: unknown, mode?: number): void;
}

export function openProfile(env: NodeJS.ProcessEnv): Profile {
  const dir = env.SHELLCHAT_CONFIG_DIR || envPaths('shellchat', { suffix: '' }).config;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = (name: string) => path.join(dir, name);
  return {
    dir,
    loginFile: file('login.json'),
    readJson<T>(name: string, fallback: T): T {
      try {
        return existsSync(file(name)) ? (JSON.parse(readFileSync(file(name), 'utf8')) as T) : fallback;
      } catch {
        return fallback;
      }
    },
    writeJson(name: string, value: unknown, mode = 0o600) {
      writeFileSync(file(name), `${JSON.stringify(value, null, 2)}\n`, { mode });
      chmodSync(file(name), mode);
    },
  };
}
