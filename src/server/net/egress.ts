// The one egress-safe fetch for every server-side request to a URL a user supplied (DESIGN §4,
// security research §1B and §5). Checking the URL's text does not stop SSRF, so the address check
// happens inside the socket connect itself: the name is resolved, every answer is checked, and
// the socket connects only to those checked answers (no DNS rebinding window). Redirects are
// followed by hand so every hop goes through the same connect-time check.
import dns, { type LookupAddress, type LookupOptions } from 'node:dns';
import net from 'node:net';
import { Agent, buildConnector } from 'undici';
import { MessageError, type Message } from '../../core/messages.ts';
import { SERVER_MESSAGES } from '../../core/serverMessages.ts';

// Refusal reasons are messages too (reasonLoopback...), so that the browser shows them translated.
const R = SERVER_MESSAGES;

export class EgressError extends MessageError {
  override name = 'EgressError';
}

export interface EgressOptions {
  /** `host` or `host:port` entries that skip the address check (e.g. a trusted local model server). */
  allowHosts?: string[];
  /** Total time for non-streaming responses; time until headers for streaming ones. Default 30 s. */
  timeoutMs?: number;
  /** Longest wait between two chunks of a streaming response (SSE, NDJSON). Default 60 s. */
  idleTimeoutMs?: number;
  /** Largest response body, counted after decompression. Default 10 MiB. */
  maxResponseBytes?: number;
  /** Default 5. */
  maxRedirects?: number;
}

export const DEFAULT_MAX_RESPONSE_BYTES = 10 * 1024 * 1024; // 10,485,760: the one 10 MiB limit

// ---------------------------------------------------------------------------------------------
// Address classification. Done by hand over numbers, not with a library: validator libraries
// are where peers' bypasses came from (open-webui CVE-2026-45331, LibreChat CVE-2026-31943).

// Order matters: the first matching rule names the reason (metadata before link-local).
const V4_RULES: [base: string, bits: number, reason: Message][] = [
  ['169.254.169.254', 32, R.reasonMetadata],
  ['169.254.170.2', 32, R.reasonMetadata], // AWS ECS task metadata
  ['0.0.0.0', 8, R.reasonUnspecified],
  ['10.0.0.0', 8, R.reasonPrivate],
  ['100.64.0.0', 10, R.reasonCgnat], // includes Alibaba's 100.100.100.200 metadata
  ['127.0.0.0', 8, R.reasonLoopback],
  ['169.254.0.0', 16, R.reasonLinkLocal],
  ['172.16.0.0', 12, R.reasonPrivate],
  ['192.0.0.0', 24, R.reasonReserved],
  ['192.0.2.0', 24, R.reasonDocumentation],
  ['192.88.99.0', 24, R.reasonReserved],
  ['192.168.0.0', 16, R.reasonPrivate],
  ['198.18.0.0', 15, R.reasonBenchmarking],
  ['198.51.100.0', 24, R.reasonDocumentation],
  ['203.0.113.0', 24, R.reasonDocumentation],
  ['224.0.0.0', 4, R.reasonMulticast],
  ['240.0.0.0', 4, R.reasonReserved], // includes 255.255.255.255
];

function parseIPv4(text: string): number | null {
  const parts = text.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)) return null;
  return parts.reduce((n, p) => n * 256 + Number(p), 0);
}

const V4_MASKS = V4_RULES.map(([base, bits, reason]) => {
  const mask = (0xffffffff << (32 - bits)) >>> 0;
  return { mask, network: (parseIPv4(base)! & mask) >>> 0, reason };
});

function ipv4Refusal(n: number): Message | null {
  return V4_MASKS.find(({ mask, network }) => ((n & mask) >>> 0) === network)?.reason ?? null;
}

/** IPv6 text (any form, with or without a zone or an embedded dotted quad) to a 128-bit number. */
function parseIPv6(text: string): bigint | null {
  let s = text.split('%')[0]!;
  if (!net.isIPv6(s)) return null;
  const lastColon = s.lastIndexOf(':');
  const v4 = parseIPv4(s.slice(lastColon + 1));
  if (v4 !== null) s = `${s.slice(0, lastColon + 1)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  const [head = '', tail] = s.split('::');
  const headParts = head ? head.split(':') : [];
  const tailParts = tail ? tail.split(':') : [];
  const zeros = tail === undefined ? 0 : 8 - headParts.length - tailParts.length;
  const groups = [...headParts, ...Array<string>(zeros).fill('0'), ...tailParts];
  if (groups.length !== 8) return null;
  return groups.reduce((n, g) => (n << 16n) | BigInt(parseInt(g, 16)), 0n);
}

function v6(text: string): bigint {
  return parseIPv6(text)!;
}

function inV6(n: bigint, base: string, bits: number): boolean {
  const shift = BigInt(128 - bits);
  return n >> shift === v6(base) >> shift;
}

function ipv6Refusal(n: bigint): Message | null {
  if (n === 0n) return R.reasonUnspecified;
  if (n === 1n) return R.reasonLoopback;
  // Forms that carry an IPv4 address are judged by that address (published bypasses used each).
  const embedded = (form: (reason: Message) => Message, offset: number) => {
    const reason = ipv4Refusal(Number((n >> BigInt(offset)) & 0xffffffffn));
    return reason && form(reason);
  };
  if (inV6(n, '::ffff:0:0', 96)) return embedded(R.reasonMapped, 0);
  if (inV6(n, '64:ff9b::', 96)) return embedded(R.reasonNat64, 0);
  if (inV6(n, '2002::', 16)) return embedded(R.reason6to4, 80);
  if (inV6(n, '64:ff9b:1::', 48)) return R.reasonLocalNat64;
  if (inV6(n, '2001::', 32)) return R.reasonTeredo;
  if (inV6(n, '2001:db8::', 32) || inV6(n, '3fff::', 20)) return R.reasonDocumentation;
  if (inV6(n, 'fc00::', 7)) return R.reasonPrivate; // unique local, incl. AWS fd00:ec2::254
  if (inV6(n, 'fe80::', 10)) return R.reasonLinkLocal;
  if (inV6(n, 'fec0::', 10)) return R.reasonSiteLocal;
  if (inV6(n, 'ff00::', 8)) return R.reasonMulticast;
  // Everything outside global unicast 2000::/3 (IPv4-compatible ::a.b.c.d, discard-only 100::/64,
  // ...) and the IETF protocol block 2001::/23 is reserved.
  if (!inV6(n, '2000::', 3) || inV6(n, '2001::', 23)) return R.reasonReserved;
  return null;
}

/** Why connecting to this IP address is refused, or null if it is a public address. */
export function refusalReason(address: string): Message | null {
  const v4 = parseIPv4(address);
  if (v4 !== null) return ipv4Refusal(v4);
  const n = parseIPv6(address);
  return n === null ? R.reasonInvalid : ipv6Refusal(n);
}

function stripBrackets(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

/** The resolver's failures in words a user can act on, not 'getaddrinfo ENOTFOUND <host>'. */
async function lookupAll(host: string): Promise<LookupAddress[]> {
  try {
    return await dns.promises.lookup(host, { all: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOTFOUND' || code === 'ENODATA') throw new EgressError(SERVER_MESSAGES.noSuchHost(host));
    if (code === 'EAI_AGAIN') throw new EgressError(SERVER_MESSAGES.dnsSilent(host));
    throw err;
  }
}

/** Resolves a host name (or takes a literal IP) and refuses if ANY answer is not public. */
export async function resolvePublicAddresses(hostname: string): Promise<LookupAddress[]> {
  const host = stripBrackets(hostname);
  const family = net.isIP(host);
  // Read dns.promises at call time so tests can substitute answers.
  const answers = family ? [{ address: host, family }] : await lookupAll(host);
  if (answers.length === 0) throw new EgressError(SERVER_MESSAGES.unresolved(host));
  for (const { address } of answers) {
    const reason = refusalReason(address);
    if (reason === null) continue;
    // A name is refused without what it resolves to: the server's resolver may see names (and
    // the addresses behind them) that whoever sent the URL must not learn.
    throw new EgressError(family ? SERVER_MESSAGES.refused(address, reason) : SERVER_MESSAGES.refusedVia(host));
  }
  return answers;
}

// net.connect's `lookup` hook: the addresses it hands back are the ones just checked.
function checkedLookup(
  hostname: string,
  options: LookupOptions,
  callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
): void {
  resolvePublicAddresses(hostname).then((answers) => {
    const wanted = options.family === 4 || options.family === 6 ? answers.filter((a) => a.family === options.family) : answers;
    const first = wanted[0];
    if (!first) return callback(new EgressError(SERVER_MESSAGES.unresolvedFamily(hostname, String(options.family))), []);
    if (options.all) callback(null, wanted);
    else callback(null, first.address, first.family);
  }, (err: Error) => callback(err, []));
}

// ---------------------------------------------------------------------------------------------
// The dispatcher: every new connection is vetted here, so pooled connections were vetted too.

function parseAllowHosts(entries: string[]): { host: string; port?: string }[] {
  return entries.map((entry) => {
    // Let the URL parser normalise the host exactly as it will for request URLs.
    const bare = !entry.startsWith('[') && entry.split(':').length > 2 ? `[${entry}]` : entry;
    const url = URL.parse(`http://${bare}`);
    if (!url || url.pathname !== '/' || url.username) throw new Error(`Invalid allowHosts entry "${entry}": use host or host:port.`);
    return { host: stripBrackets(url.hostname), port: /:\d+$/.test(bare) ? url.port || '80' : undefined };
  });
}

function createDispatcher(allowHosts: string[]): Agent {
  const allowed = parseAllowHosts(allowHosts);
  const connectTimeout = 10_000;
  const direct = buildConnector({ timeout: connectTimeout });
  const checked = buildConnector({ timeout: connectTimeout, lookup: checkedLookup });
  return new Agent({
    connect(opts, callback) {
      const host = stripBrackets(opts.hostname);
      const port = opts.port || (opts.protocol === 'https:' ? '443' : '80');
      if (allowed.some((a) => a.host === host && (a.port === undefined || a.port === port))) return direct(opts, callback);
      if (net.isIP(host)) {
        // net.connect skips `lookup` for literal IPs, so check those here.
        const reason = refusalReason(host);
        if (reason) return callback(new EgressError(SERVER_MESSAGES.refused(host, reason)), null);
        return direct(opts, callback);
      }
      return checked(opts, callback);
    },
  });
}

// ---------------------------------------------------------------------------------------------
// The fetch wrapper: schemes, redirects, header hygiene, time and size limits.

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
// Only these caller headers survive a redirect to another origin: none of them can carry a
// credential (API keys travel in Authorization, x-api-key, x-goog-api-key, api-key, cookies...).
const CROSS_ORIGIN_SAFE_HEADERS = ['accept', 'accept-language', 'content-language', 'content-type', 'user-agent'];
const BODY_HEADERS = ['content-type', 'content-length', 'content-encoding', 'content-language', 'content-location'];
const STREAMING_TYPES = /^\s*(text\/event-stream|application\/(x-)?ndjson|application\/(x-)?jsonl(ines)?)\b/i;

function checkedUrl(text: string, base?: string): URL {
  let url: URL;
  try {
    url = new URL(text, base);
  } catch {
    throw new EgressError(SERVER_MESSAGES.invalidUrl); // the text is not echoed: it may hold credentials
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new EgressError(SERVER_MESSAGES.badScheme(url.protocol.slice(0, -1)));
  }
  // fetch would reject these with a message that repeats the credentials.
  if (url.username || url.password) throw new EgressError(SERVER_MESSAGES.credentials(url.host));
  return url;
}

/** The first EgressError in an error's cause chain (fetch wraps connect errors in TypeError). */
function unwrap(err: unknown): unknown {
  for (let e = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof EgressError) return e;
  }
  return err;
}

export function createEgressFetch(options: EgressOptions = {}): typeof fetch {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const idleTimeoutMs = options.idleTimeoutMs ?? 60_000;
  const maxBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const maxRedirects = options.maxRedirects ?? 5;
  const dispatcher = createDispatcher(options.allowHosts ?? []);

  return async function egressFetch(input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> {
    const request = input instanceof Request ? input : undefined;
    let url = checkedUrl(request ? request.url : input instanceof URL ? input.href : String(input));
    let method = (init.method ?? request?.method ?? 'GET').toUpperCase();
    const headers = new Headers(init.headers ?? request?.headers);
    let body: BodyInit | null | undefined = init.body !== undefined ? init.body : request?.body ? await request.arrayBuffer() : undefined;
    const redirectMode = init.redirect ?? request?.redirect ?? 'follow';

    // One controller carries our time limits; the caller's signal still cancels as usual.
    const limit = new AbortController();
    const callerSignal = init.signal ?? request?.signal;
    const signal = callerSignal ? AbortSignal.any([limit.signal, callerSignal]) : limit.signal;
    const timedOut = () => new EgressError(SERVER_MESSAGES.timedOut(url.host, timeoutMs));
    const totalTimer = setTimeout(() => limit.abort(timedOut()), timeoutMs);

    try {
      for (let hops = 0; ; hops++) {
        let res: Response;
        try {
          const hopInit = { ...init, method, headers, body, signal, redirect: 'manual', dispatcher };
          res = await fetch(url, hopInit as RequestInit);
        } catch (err) {
          throw unwrap(err);
        }
        const location = res.headers.get('location');
        if (!REDIRECT_STATUSES.has(res.status) || location === null || redirectMode === 'manual') {
          return guardResponse(res, url, hops > 0);
        }
        await res.body?.cancel();
        if (redirectMode === 'error') throw new EgressError(SERVER_MESSAGES.redirect(url.host));
        if (hops >= maxRedirects) throw new EgressError(SERVER_MESSAGES.redirects(maxRedirects));

        const next = checkedUrl(location, url.href);
        // Fetch-standard method rewriting: 303 (and 301/302 after POST) become a body-less GET.
        if ((res.status === 303 && method !== 'GET' && method !== 'HEAD') || ((res.status === 301 || res.status === 302) && method === 'POST')) {
          method = 'GET';
          body = undefined;
          for (const name of BODY_HEADERS) headers.delete(name);
        } else if (body instanceof ReadableStream) {
          throw new EgressError(SERVER_MESSAGES.resend);
        }
        if (next.origin !== url.origin) {
          // The caller's credentials belong to the origin they chose, never to where it redirects.
          for (const name of [...headers.keys()]) if (!CROSS_ORIGIN_SAFE_HEADERS.includes(name)) headers.delete(name);
        }
        url = next;
      }
    } catch (err) {
      clearTimeout(totalTimer);
      throw err;
    }

    /** Applies the size cap and the body-phase timeouts to the final response. */
    function guardResponse(res: Response, finalUrl: URL, redirected: boolean): Response {
      const streaming = STREAMING_TYPES.test(res.headers.get('content-type') ?? '');
      if (streaming) clearTimeout(totalTimer); // from here on only the idle timeout applies
      if (!res.body) {
        clearTimeout(totalTimer);
        return res;
      }
      const declared = Number(res.headers.get('content-length') ?? 0);
      if (declared > maxBytes) {
        clearTimeout(totalTimer);
        limit.abort();
        throw new EgressError(SERVER_MESSAGES.tooLargeDeclared(finalUrl.host, declared, maxBytes));
      }
      const reader = res.body.getReader();
      let received = 0;
      const done = () => clearTimeout(totalTimer);
      const guarded = new ReadableStream<Uint8Array>(
        {
          async pull(controller) {
            const idle = streaming
              ? setTimeout(() => limit.abort(new EgressError(SERVER_MESSAGES.idle(finalUrl.host, idleTimeoutMs))), idleTimeoutMs)
              : undefined;
            try {
              const chunk = await reader.read();
              if (chunk.done) {
                done();
                controller.close();
                return;
              }
              received += chunk.value.byteLength;
              if (received > maxBytes) {
                const err = new EgressError(SERVER_MESSAGES.tooLargeRead(finalUrl.host, maxBytes));
                limit.abort(err); // tears the connection down
                done();
                controller.error(err);
                return;
              }
              controller.enqueue(chunk.value);
            } catch (err) {
              done();
              controller.error(signal.aborted ? signal.reason : err);
            } finally {
              clearTimeout(idle);
            }
          },
          cancel(reason) {
            done();
            return reader.cancel(reason);
          },
        },
        { highWaterMark: 0 }, // pull only when the caller reads, so chunks pass straight through
      );
      const wrapped = new Response(guarded, { status: res.status, statusText: res.statusText, headers: res.headers });
      Object.defineProperty(wrapped, 'url', { value: finalUrl.href });
      Object.defineProperty(wrapped, 'redirected', { value: redirected });
      return wrapped;
    }
  } as typeof fetch;
}
