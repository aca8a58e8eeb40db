// The operator's app config (app.config.ts, or the file SHELLCHAT_APP_CONFIG names): the
// built-in plugins the build bundles, the server mounts and the terminal client loads. The
// three read it here, so they agree on which file it is.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AppConfig } from '../../app.config.ts';
import { StartError } from './startError.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * The app config's file: SHELLCHAT_APP_CONFIG resolved from `base` (the working directory),
 * else the repository's app.config.ts. A file named that does not exist stops the start: a
 * typo would otherwise build or serve another set of plugins.
 */
export function appConfigFile(env: { SHELLCHAT_APP_CONFIG?: string }, base = process.cwd()): string {
  if (!env.SHELLCHAT_APP_CONFIG) return path.join(ROOT, 'app.config.ts');
  const file = path.resolve(base, env.SHELLCHAT_APP_CONFIG);
  if (!existsSync(file)) throw new StartError(`SHELLCHAT_APP_CONFIG ${file} does not exist`);
  return file;
}

export async function loadAppConfig(file: string): Promise<AppConfig> {
  return (await import(pathToFileURL(file).href)).default as AppConfig;
}
