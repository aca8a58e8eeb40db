// Structured logs (pino). Anything that could carry a secret is redacted by path, and request
// logs carry the path without its query string (links carry tokens there).
import pino, { type DestinationStream, type Logger } from 'pino';

export const REDACT_PATHS = [
  'password',
  '*.password',
  'token',
  '*.token',
  'apiKey',
  '*.apiKey',
  'api_key',
  '*.api_key',
  'key',
  '*.key',
  'cookie',
  '*.cookie',
  'authorization',
  '*.authorization',
  'headers.cookie',
  'headers.authorization',
  'req.headers.cookie',
  'req.headers.authorization',
];

export function createLogger(level = 'info', destination?: DestinationStream): Logger {
  return pino({ level, redact: { paths: REDACT_PATHS, censor: '[redacted]' }, base: undefined }, destination);
}

export type { Logger };
