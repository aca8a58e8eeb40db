// Response headers that keep a model's (or anyone's) output from running script in the page:
// a strict Content-Security-Policy, no framing, no MIME sniffing, no referrer leaks.
import type { MiddlewareHandler } from 'hono';
import type { ServerConfig } from './config.ts';

export function contentSecurityPolicy(config: ServerConfig): string {
  const remoteOrigins = [...new Set(config.remotes.map((r) => new URL(r.entry).origin))];
  // PayPal's JS SDK (the subscription plugin's page) when payments are on: its script, the
  // frames its buttons open, and the calls they make.
  const { on, paypal } = config.subscriptions;
  const payment = on && paypal.clientId ? paymentOrigins(paypal.sdkUrl) : [];
  const scripts = ["'self'", ...remoteOrigins, ...payment].join(' ');
  const ollama = config.ollamaBaseUrl ? new URL(config.ollamaBaseUrl).origin : '';
  return [
    "default-src 'self'",
    `script-src ${scripts}`,
    // React sets the input's height through the style attribute.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' https: data: blob:",
    "font-src 'self' data:",
    // The browser talks to the local model server and the local MCP helper directly (spec part 7).
    ...(payment.length ? [`frame-src ${payment.join(' ')}`] : []),
    `connect-src 'self' ${remoteOrigins.join(' ')} ${payment.join(' ')} http://localhost:11434 http://127.0.0.1:11434 ${ollama} http://localhost:11318 http://127.0.0.1:11318 ${new URL(config.mcpHelperUrl).origin}`.replace(/ +/g, ' ').trim(),
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The SDK's origin, and PayPal's own hosts when it is PayPal's. */
function paymentOrigins(sdkUrl: string): string[] {
  const origin = new URL(sdkUrl).origin;
  return /(^|\.)paypal\.com$/.test(new URL(sdkUrl).hostname) ? [origin, 'https://*.paypal.com', 'https://*.paypalobjects.com'] : [origin];
}

/** The headers every response carries. */
function securityHeaderValues(config: ServerConfig): Record<string, string> {
  return {
    'Content-Security-Policy': contentSecurityPolicy(config),
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'no-referrer',
    'Cross-Origin-Opener-Policy': 'same-origin',
  };
}

export function securityHeaders(config: ServerConfig): MiddlewareHandler {
  const headers = Object.entries(securityHeaderValues(config));
  // Set before the handler runs, so every response the context builds carries them. Setting
  // them afterwards would make Hono copy the finished response (its body becomes a stream),
  // which costs the Node adapter its fast path: ~300 µs instead of ~60 µs for a small answer.
  return async (c, next) => {
    for (const [name, value] of headers) c.header(name, value);
    await next();
  };
}
