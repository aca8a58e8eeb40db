// What /metrics counts, from the server's events (ctx.events) and its state (ctx.runtimeState),
// in a registry of its own. Every label comes from a small closed set: route patterns as
// registered, HTTP methods and statuses, provider kinds, outcomes. Never a user, a model name
// or free text.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { ServerPluginContext } from '../../../src/core/index.ts';

const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']);
/** Seconds: from a fast API answer to a slow upload; first tokens from a local model to a busy provider. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const FIRST_TOKEN_BUCKETS = [0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60];
const ANSWER_BUCKETS = [0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];

/** A label value kept to its set: an unexpected one is counted as 'other'. */
const within = (value: string, pattern: RegExp) => (pattern.test(value) ? value : 'other');

export function createMetrics(ctx: Pick<ServerPluginContext, 'events' | 'runtimeState'>): Registry {
  const register = new Registry();
  // The process's own: CPU, memory, handles, GC, and the event loop's lag (nodejs_eventloop_lag_*).
  collectDefaultMetrics({ register });
  const requests = new Counter({ name: 'shellchat_http_requests_total', help: 'API requests answered, by route pattern and status.', labelNames: ['method', 'route', 'status'], registers: [register] });
  const latency = new Histogram({ name: 'shellchat_http_request_duration_seconds', help: 'Time to an API response, by route pattern.', labelNames: ['method', 'route'], buckets: LATENCY_BUCKETS, registers: [register] });
  const streaming = new Gauge({ name: 'shellchat_answers_streaming', help: 'Answers a model is streaming now.', registers: [register] });
  const answers = new Counter({ name: 'shellchat_answers_total', help: 'Answers ended, by provider and outcome (done, failed, stopped).', labelNames: ['provider', 'outcome'], registers: [register] });
  const firstToken = new Histogram({ name: 'shellchat_answer_first_token_seconds', help: 'Time from asking the model to its first token.', labelNames: ['provider'], buckets: FIRST_TOKEN_BUCKETS, registers: [register] });
  const answerTime = new Histogram({ name: 'shellchat_answer_duration_seconds', help: 'Time from asking the model to the end of its answer.', labelNames: ['provider'], buckets: ANSWER_BUCKETS, registers: [register] });
  const tokens = new Counter({ name: 'shellchat_tokens_relayed_total', help: 'Tokens the providers counted for relayed answers, by direction (input, output).', labelNames: ['provider', 'direction'], registers: [register] });
  const providerErrors = new Counter({ name: 'shellchat_provider_errors_total', help: 'Errors a model provider answered (retried or not), by provider and HTTP status (none: no answer).', labelNames: ['provider', 'status'], registers: [register] });
  const payments = new Counter({ name: 'shellchat_payments_total', help: 'Payments settled, by outcome.', labelNames: ['outcome'], registers: [register] });
  const loginFailures = new Counter({ name: 'shellchat_login_failures_total', help: 'Logins refused, by reason (credentials, throttled).', labelNames: ['reason'], registers: [register] });
  new Gauge({
    name: 'shellchat_db_connections',
    help: 'The database pool now, by state (total, idle, waiting: requests waiting for a connection). None on SQLite.',
    labelNames: ['engine', 'state'],
    registers: [register],
    collect() {
      this.reset();
      const { database } = ctx.runtimeState();
      if (!database.connections) return;
      for (const state of ['total', 'idle', 'waiting'] as const) this.set({ engine: database.engine, state }, database.connections[state]);
    },
  });
  new Gauge({
    name: 'shellchat_redis_up',
    help: 'Whether the shared Redis connection (REDIS_URL) is ready now (1) or away (0). Absent without REDIS_URL.',
    // A label, so that the series is absent (not 0) without REDIS_URL: a gauge without labels always shows.
    labelNames: ['connection'],
    registers: [register],
    collect() {
      this.reset();
      const { redis } = ctx.runtimeState();
      if (redis.configured) this.set({ connection: 'shared' }, redis.ready ? 1 : 0);
    },
  });

  const provider = (p: string) => within(p, /^[a-z][a-z0-9-]{0,31}$/);
  ctx.events.on('request', ({ method, route, status, ms }) => {
    const m = METHODS.has(method) ? method : 'other';
    requests.inc({ method: m, route, status: String(status) });
    latency.observe({ method: m, route }, ms / 1000);
  });
  ctx.events.on('answer.start', () => streaming.inc());
  ctx.events.on('answer.firstToken', (e) => firstToken.observe({ provider: provider(e.provider) }, e.ms / 1000));
  ctx.events.on('answer.end', (e) => {
    const p = provider(e.provider);
    streaming.dec();
    answers.inc({ provider: p, outcome: e.outcome });
    answerTime.observe({ provider: p }, e.ms / 1000);
    if (e.inputTokens > 0) tokens.inc({ provider: p, direction: 'input' }, e.inputTokens);
    if (e.outputTokens > 0) tokens.inc({ provider: p, direction: 'output' }, e.outputTokens);
  });
  ctx.events.on('provider.error', (e) => providerErrors.inc({ provider: provider(e.provider), status: e.status === null ? 'none' : within(String(e.status), /^[1-5]\d\d$/) }));
  ctx.events.on('payment', (e) => payments.inc({ outcome: within(e.outcome, /^[a-z]{1,16}$/) }));
  ctx.events.on('login.failed', (e) => loginFailures.inc({ reason: e.reason }));
  return register;
}
