// The metrics plugin's variables: the bearer token that turns GET /metrics on, and an optional
// port of its own (so that the scrape need not pass through the public listener).
import { definePluginEnv, doc, number, text } from '../../../src/core/envVars.ts';

export default definePluginEnv(
  {
    METRICS_TOKEN: doc(text(), 'unset (no `/metrics`)', 'Turns on `GET /metrics` (Prometheus text format): the scraper sends it as `Authorization: Bearer <token>`; a request without it is refused (401). At least 16 characters'),
    METRICS_PORT: doc(number(0, 0, 65535, true), '0 (the server\'s own port)', 'With METRICS_TOKEN: serve `/metrics` on this port instead of the server\'s (still behind the token)'),
    METRICS_HOST: doc(text('127.0.0.1'), '127.0.0.1', 'The address METRICS_PORT listens on (0.0.0.0 for a scraper on another machine)'),
  },
  (e) => {
    if (e.METRICS_TOKEN && e.METRICS_TOKEN.length < 16) throw new Error('METRICS_TOKEN must be at least 16 characters');
    return { token: e.METRICS_TOKEN, port: e.METRICS_PORT, host: e.METRICS_HOST };
  },
);
