// Metrics (issue 41 item 1): GET /metrics in Prometheus' text format for an operator's scraper,
// off unless METRICS_TOKEN is set, behind that bearer token (on its own port with METRICS_PORT).
// A server-only plugin: no commands, no settings.
import { definePlugin, PLUGIN_API } from '../../src/core/index.ts';

export default definePlugin({
  api: PLUGIN_API,
  id: 'metrics',
  version: '1.0.0',
});
