// Starts the server: `.env`, configuration, database and migrations, HTTP, and a graceful
// shutdown on SIGTERM/SIGINT that lets in-flight requests finish.
import { existsSync } from 'node:fs';
import { serve } from '@hono/node-server';
import { createServer } from './app.ts';
import { loadConfig } from './config.ts';

if (existsSync('.env')) process.loadEnvFile('.env');

const config = loadConfig();
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
  http.close(() => void server.close().finally(() => process.exit(0)));
  // Idle keep-alive sockets would hold close() open: close them now, and each one that goes
  // idle once its in-flight request is answered. In-flight requests get 10 s.
  const closeIdle = () => (http as unknown as { closeIdleConnections?: () => void }).closeIdleConnections?.();
  closeIdle();
  setInterval(closeIdle, 100).unref();
  setTimeout(() => process.exit(0), 10_000).unref();
}
process.on('SIGTERM', () => shutdown('SIGTERM'));
process.on('SIGINT', () => shutdown('SIGINT'));
