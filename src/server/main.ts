// Starts the server: `.env`, configuration, HTTP, and a graceful shutdown on SIGTERM/SIGINT
// that lets in-flight requests finish.
import { existsSync } from 'node:fs';
import { serve } from '@hono/node-server';
import { createApp } from './app.ts';
import { loadConfig } from './config.ts';

if (existsSync('.env')) process.loadEnvFile('.env');

const config = loadConfig();
const app = createApp(config);
const server = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, (info) => {
  const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  console.log(`shellchat listening on http://${host}:${info.port}`);
});

let closing = false;
function shutdown(signal: string): void {
  if (closing) return;
  closing = true;
  console.log(`${signal}: finishing in-flight requests`);
  server.close(() => process.exit(0));
  // Idle keep-alive sockets would hold close() open; in-flight ones get 10 s.
  (server as unknown as { closeIdleConnections?: () => void }).closeIdleConnections?.();
  setTimeout(() => process.exit(0), 10_000).unref();
}
process.on('SIGTERM', () => shutdown('SIGTERM'));
process.on('SIGINT', () => shutdown('SIGINT'));
