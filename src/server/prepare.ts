// The first steps of a start, shared by main.ts and `npm start` (which asks them before it
// builds the app, so that a wrong value or a port in use is said at once, not after the build).
import { existsSync } from 'node:fs';
import { loadConfig, type ServerConfig } from './config.ts';
import { bindPort } from './listen.ts';
import { checkDataDir } from './startChecks.ts';
import { causeOf, StartError, startFailureText } from './startError.ts';

/** Stops the start: one line per mistake on stderr, exit code 1. */
export function stopStart(err: unknown, logLevel?: string): never {
  process.stderr.write(startFailureText(err, logLevel));
  process.exit(1);
}

function loadEnvFile(): void {
  if (!existsSync('.env')) return;
  try {
    process.loadEnvFile('.env');
  } catch (err) {
    throw new StartError(`.env in ${process.cwd()} cannot be read: ${causeOf(err)}`);
  }
}

/** `.env` (in the working directory), the configuration and DATA_DIR; or the start stops. */
export function configure(): ServerConfig {
  try {
    loadEnvFile();
    const config = loadConfig();
    checkDataDir(config);
    return config;
  } catch (err) {
    stopStart(err);
  }
}

/** Whether the port can be bound, let go at once; or the start stops. */
export async function checkPort(config: ServerConfig): Promise<void> {
  const listener = await bindPort(config.port, config.host).catch((err: unknown) => stopStart(err, config.logLevel));
  await new Promise((resolve) => listener.http.close(resolve));
}
