// Starts the server: `.env`, configuration, database and migrations, HTTP, and a graceful
// shutdown on SIGTERM/SIGINT that lets in-flight requests finish.
import { existsSync } from 'node:fs';
import { serve } from '@hono/node-server';
import { createServer } from './app.ts';
import { loadConfig } from './config.ts';

if (existsSync('.env')) process.loadEnvFile('.env');

// A wrong value stops the server with what is wrong, each variable named (env.ts), no stack.
let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig();
} catch (err) {
  process.stderr.write(`shellchat cannot start:\n${(err as Error).message}\n`);
  process.exit(1);
}
const server = await createServer(config);
if (server.generatedRootPassword) {
  // Printed once, on the terminal only (never through the structured log).
  process.stderr.write(
    `\nCreated the root account. Username: root  Password: ${server.generatedRootPassword}\n` +
      'Set ROOT_PASSWORD to choose it yourself; this password is not shown again.\n\n',
  );
}
const http = serve({ fetch: server.app.fetch, port: config.port, hostname: config.host }, (info) => {
  const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  server.log.info({ url: `http://${host}:${info.port}`, database: server.db.engine }, 'shellchat listening');
});

let closing = false;
function shutdown(signal: string): void {
  if (closing) return;
  closing = true;
  server.log.info({ signal }, 'finishing in-flight requests');
  let closed: Promise<void> | undefined;
  const closeDb = () => (closed ??= server.close());
  http.close(() => void closeDb().finally(() => process.exit(0)));
  // Idle keep-alive sockets would hold close() open: close them now, and each one that goes
  // idle once its in-flight request is answered. In-flight requests get SHUTDOWN_GRACE_MS (10 s
  // by default); answers still streaming then are stopped as a user's stop would (each keeps
  // what it said as its log and tells its browser), with 5 s more to save them.
  const closeIdle = () => (http as unknown as { closeIdleConnections?: () => void }).closeIdleConnections?.();
  closeIdle();
  setInterval(closeIdle, 100).unref();
  setTimeout(() => {
    void server.stopGenerations(5_000).then((stopped) => {
      if (stopped) server.log.info({ stopped }, 'stopped the answers still streaming; their answers so far are saved');
      (http as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
      void closeDb().finally(() => process.exit(0));
    });
    // Whatever still holds on (a database that does not answer) does not keep the process.
    setTimeout(() => process.exit(1), 10_000).unref();
  }, config.shutdownGraceMs).unref();
}
process.on('SIGTERM', () => shutdown('SIGTERM'));
process.on('SIGINT', () => shutdown('SIGINT'));
