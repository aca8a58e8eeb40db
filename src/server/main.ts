// Starts the server: `.env`, configuration, the port, database and migrations, the start line,
// and a graceful shutdown on SIGTERM/SIGINT that lets in-flight requests finish. What stops a
// start is one line on stderr naming the variable and the cause (startError.ts), exit code 1.
import pino from 'pino';
import type { Server } from './app.ts';
import { bindPort, type Listener } from './listen.ts';
import { configure, stopStart } from './prepare.ts';
import { startWarnings } from './startChecks.ts';

const config = configure();
const warnings = startWarnings(config);
let listener: Listener;
let server: Server;
try {
  // The port first: in use, it stops the start before the database is touched or root made.
  listener = await bindPort(config.port, config.host);
  // Loaded once the configuration and the port are known good: a mistake there is said at once.
  const { createServer } = await import('./app.ts');
  // At a terminal the log is written as it comes (pino's default writes later), so that the
  // lines printed after it (where the app is, root's password) come after it; piped, it stays
  // asynchronous, as a busy server wants it.
  server = await createServer(config, process.stdout.isTTY ? { logDestination: pino.destination({ dest: 1, sync: true }) } : {});
} catch (err) {
  stopStart(err, config.logLevel);
}
const http = listener.http;
listener.serve(server.app.fetch as never);
http.on('error', (err) => server.log.error({ err: { message: err.message } }, 'HTTP server error'));
for (const warning of await warnings) server.log.warn({}, warning);
// Before saying it listens: a supervisor may stop it as soon as it reads that line.
process.on('SIGTERM', () => shutdown('SIGTERM'));
process.on('SIGINT', () => shutdown('SIGINT'));
server.log.info({ url: listener.url, database: server.db.engine }, 'shellchat listening');
// A person at a terminal reads where the app is; logs read by a machine stay JSON lines.
if (process.stdout.isTTY) process.stdout.write(`shellchat is at ${listener.url}\n`);
if (server.generatedRootPassword) {
  // Printed once, last, on the terminal only (never through the structured log): the port is
  // bound and root was made by the last step of the start, so nothing can fail after it.
  process.stderr.write(
    `\nCreated the root account. Username: root  Password: ${server.generatedRootPassword}\n` +
      'Set ROOT_PASSWORD to choose it yourself; this password is not shown again.\n\n',
  );
}

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
