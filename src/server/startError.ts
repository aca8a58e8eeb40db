// What stops the server at start, said as an operator reads it (DESIGN.md §4): one line that
// names the variable and the cause, never a stack trace. main.ts prints these.
import { readFileSync } from 'node:fs';
import { getSystemErrorName } from 'node:util';

/** An operator's mistake found at start: its message is the one line to print. */
export class StartError extends Error {
  override name = 'StartError';
}

/** System error codes in plain words (what a person can act on). */
const CAUSES: Record<string, string> = {
  EADDRINUSE: 'address already in use',
  EADDRNOTAVAIL: 'not an address of this machine',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on the device',
  ENOENT: 'no such file or directory',
  ENOTDIR: 'not a directory',
  EISDIR: 'is a directory',
  EEXIST: 'a file is in the way',
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'no such host',
  EAI_AGAIN: 'the host name could not be resolved (DNS)',
  ETIMEDOUT: 'timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  CERT_HAS_EXPIRED: 'its TLS certificate has expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'its TLS certificate is self-signed',
};

/**
 * The cause of a failure in a few words: a system error's code in plain words, else the
 * error's own message on one line. Several attempts (IPv4 and IPv6) count as their first.
 */
export function causeOf(err: unknown): string {
  const e = err as { code?: unknown; errno?: unknown; message?: unknown; errors?: unknown[] };
  if (typeof e?.code === 'string' && CAUSES[e.code]) return CAUSES[e.code]!;
  // A library's own code (nodemailer's ESOCKET) over the system's errno.
  const system = typeof e?.errno === 'number' && e.errno < 0 ? getSystemErrorName(e.errno) : '';
  if (CAUSES[system]) return CAUSES[system]!;
  if (Array.isArray(e?.errors) && e.errors.length && !e.message) return causeOf(e.errors[0]);
  const message = typeof e?.message === 'string' && e.message ? e.message : String(err);
  return oneLine(message);
}

/** Text on one line (a message from a library may hold line breaks). */
export const oneLine = (text: string): string => text.replace(/\s*\n\s*/g, ' ').trim();

/** A file the operator named: its text, or a StartError naming the variable and the cause. */
export function readOperatorFile(variable: string, file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    throw new StartError(`${variable} ${file} cannot be read: ${causeOf(err)}`);
  }
}

/**
 * The lines main.ts prints for a failed start: each line of the message prefixed (several
 * variables at fault are one line each); an unexpected error's stack only when LOG_LEVEL asks.
 */
export function startFailureText(err: unknown, logLevel = 'info'): string {
  const message = err instanceof Error ? err.message : String(err);
  const lines = message.split('\n').map((line) => line.trim()).filter(Boolean);
  const text = (lines.length ? lines : [causeOf(err)]).map((line) => `shellchat cannot start: ${line}\n`).join('');
  const stack = !(err instanceof StartError) && (logLevel === 'debug' || logLevel === 'trace') && err instanceof Error ? `${err.stack}\n` : '';
  return text + stack;
}
