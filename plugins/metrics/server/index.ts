// The metrics plugin's server: with METRICS_TOKEN, GET /metrics answers the registry of
// collect.ts in Prometheus' text format to a request bearing the token (401 otherwise), on
// the server's port or on METRICS_PORT. Without METRICS_TOKEN nothing is counted or served.
import { serve } from '@hono/node-server';
import { Hono, type Context } from 'hono';
import type { ServerPluginModule } from '../../../src/core/index.ts';
import { createMetrics } from './collect.ts';
import metricsEnv from './env.ts';

/** Compares the whole of both strings whatever their first difference (no early exit to time). */
export function sameSecret(given: string, expected: string): boolean {
  let diff = given.length ^ expected.length;
  for (let i = 0; i < expected.length; i++) diff |= (given.charCodeAt(i % Math.max(given.length, 1)) || 0) ^ expected.charCodeAt(i);
  return diff === 0;
}

const plugin: ServerPluginModule = {
  register(ctx) {
    const { token, port, host } = metricsEnv.of(ctx);
    if (!token) return;
    const registry = createMetrics(ctx);
    const scrape = async (c: Context) => {
      const header = c.req.header('authorization') ?? '';
      const given = header.startsWith('Bearer ') ? header.slice(7).trim() : '';
      if (!sameSecret(given, token)) {
        c.header('WWW-Authenticate', 'Bearer realm="metrics"');
        return c.text('Unauthorized\n', 401);
      }
      c.header('Cache-Control', 'no-store');
      return c.body(await registry.metrics(), 200, { 'Content-Type': registry.contentType });
    };
    if (!port) {
      ctx.app.get('/metrics', scrape);
      return;
    }
    const own = new Hono().get('/metrics', scrape);
    const listener = serve({ fetch: own.fetch, port, hostname: host }, (info) => ctx.log.info({ port: info.port, host }, 'metrics listening'));
    listener.on('error', (err: Error) => ctx.log.error({ err: { message: err.message }, port }, 'metrics port cannot listen'));
    ctx.onClose(() => new Promise<void>((resolve) => listener.close(() => resolve())));
  },
};

export default plugin;
