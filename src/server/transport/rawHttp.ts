// The direct relay's HTTP/1.1 client for system models (OpenAI-compatible providers over
// https, or vLLM, llama.cpp, LM Studio on a LAN over http): the request on a kept-alive
// connection, the answer read into one shared buffer (the socket's `onread`, which TLS sockets
// honour too) and parsed in httpFraming.ts (status, headers, chunked or sized body).
// Why not node:http, which served this path before: for each network read it allocated two
// ArrayBuffers (the read and its parser's copy of the body) and ran the body through a
// Readable (push, a tick, 'readable', read()). At 100 paced streams that was a fifth of the
// server's CPU per relayed token (benchmark B5), and the thousands of dead ArrayBuffers made
// each scavenge spend 2-5 ms sweeping them, a pause every waiting token paid. Here a read
// allocates nothing: its body bytes are handed over as a view of the shared buffer,
// synchronously, and consumed (decoded into a string) before the next read can overwrite it.
import { SERVER_MESSAGES } from '../../core/serverMessages.ts';
import net from 'node:net';
import tls from 'node:tls';
import { StringDecoder } from 'node:string_decoder';
import { Dechunker, parseHead, type Head } from './httpFraming.ts';
import { IdleWatch, type Watch } from './idleWatch.ts';
import { CutShortError, type ChunkResult, type Send, type Upstream } from './upstreamTypes.ts';

/** Every socket reads into this buffer; each read is handled in full before the next. */
const READ_BUFFER = Buffer.allocUnsafe(64 * 1024);
/** A status line and headers longer than this are refused (Node's own limit is 16 KB). */
const MAX_HEAD = 64 * 1024;
/** An error body is read up to this much (it is shown cut, and logged). */
const MAX_ERROR_BODY = 1024 * 1024;
/** Idle kept-alive connections are closed after this, or the server's Keep-Alive hint less 1 s. */
const IDLE_KEEP_MS = 30_000;

const hangUp = () => Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
const abortError = () => Object.assign(new Error('The operation was aborted'), { name: 'AbortError', code: 'ABORT_ERR' });

/** What a connection's reads go to: the request on it, or nothing while it waits in the pool. */
interface Reader {
  /** Bytes [0, n) of READ_BUFFER; false pauses the socket. */
  read(n: number): boolean;
  /** The server closed its side, or the socket failed. */
  ended(err?: Error): void;
}

interface Connection {
  socket: net.Socket;
  reader: Reader | null;
  /** It served a request before: a failure before any answer may be a close while it was idle. */
  reused: boolean;
}

/** Where a connection goes: its pool key and how to open it. */
interface Origin {
  key: string;
  host: string;
  port: number;
  secure: boolean;
}

/** Options for tests: the certificate authorities a https provider's certificate must chain to. */
export interface RawHttpOptions {
  ca?: string | Buffer;
}

/** Kept-alive connections by origin, the most recently used last. */
class Pool {
  private readonly idle = new Map<string, Connection[]>();
  private readonly options: RawHttpOptions;
  constructor(options: RawHttpOptions) {
    this.options = options;
  }

  /** An idle connection to `origin`, or a new one. */
  take(origin: Origin): Connection {
    const idle = this.idle.get(origin.key);
    let conn: Connection | undefined;
    while (idle?.length && !conn) {
      const c = idle.pop()!;
      if (!c.socket.destroyed) conn = c;
    }
    if (idle?.length === 0) this.idle.delete(origin.key);
    conn ??= this.connect(origin);
    conn.socket.setTimeout(0);
    return conn;
  }

  release(key: string, conn: Connection, keepMs: number): void {
    conn.reader = null;
    conn.reused = true;
    conn.socket.setTimeout(keepMs);
    let idle = this.idle.get(key);
    if (!idle) this.idle.set(key, (idle = []));
    idle.push(conn);
  }

  drop(key: string, conn: Connection): void {
    conn.reader = null;
    const idle = this.idle.get(key);
    const at = idle?.indexOf(conn) ?? -1;
    if (at >= 0) idle!.splice(at, 1);
    if (idle?.length === 0) this.idle.delete(key);
    conn.socket.destroy();
  }

  private connect({ key, host, port, secure }: Origin): Connection {
    const conn: Connection = { socket: null as never, reader: null, reused: false };
    // Bytes while idle in the pool are not an answer to anything: the connection is dropped.
    const onread = { buffer: READ_BUFFER, callback: (n: number) => (conn.reader ? conn.reader.read(n) : (this.drop(key, conn), false)) };
    // TLS hands its decrypted reads to `onread` the same way; the certificate is checked
    // against the system's authorities (or the test's) and the host name.
    conn.socket = secure
      ? // tls.connect takes socket.connect()'s options, onread among them (its types omit it).
        tls.connect({ host, port, servername: net.isIP(host) ? undefined : host, ALPNProtocols: ['http/1.1'], ca: this.options.ca, onread } as tls.ConnectionOptions)
      : net.connect({ host, port, onread });
    conn.socket.setNoDelay(true);
    const ended = (err?: Error) => {
      const reader = conn.reader;
      conn.reader = null;
      this.drop(key, conn);
      reader?.ended(err);
    };
    conn.socket.on('end', () => ended());
    conn.socket.on('error', (err) => ended(err));
    conn.socket.on('close', () => ended());
    conn.socket.on('timeout', () => ended());
    return conn;
  }
}

/** Why a body is being read: to hand over read by read, or whole (an error's text). */
type BodySink = (chunk: Buffer) => ChunkResult;

/**
 * A POST over plain http on a kept-alive connection. A request whose reused connection turns
 * out to have been closed while idle (no answer came) is sent once more on a new one.
 */
export function rawHttpSend(idle: IdleWatch, options: RawHttpOptions = {}): Send {
  const pool = new Pool(options);
  return (url, headers, body, signal) =>
    new Promise<Upstream>((resolve, reject) => {
      const target = new URL(url);
      const secure = target.protocol === 'https:';
      if (!secure && target.protocol !== 'http:') return reject(new Error(`Unsupported protocol: ${target.protocol}`));
      const host = target.hostname.replace(/^\[|\]$/g, '');
      const port = Number(target.port || (secure ? 443 : 80));
      const key = `${target.protocol}//${host}:${port}`;
      const origin: Origin = { key, host, port, secure };
      for (const [name, value] of Object.entries(headers)) {
        if (/[\r\n]/.test(name) || /[\r\n]/.test(value)) return reject(new Error(`Invalid header: ${name}`));
      }
      let head = `POST ${target.pathname}${target.search} HTTP/1.1\r\nHost: ${target.host}\r\nConnection: keep-alive\r\nContent-Length: ${Buffer.byteLength(body)}\r\n`;
      for (const [name, value] of Object.entries(headers)) if (name.toLowerCase() !== 'content-length') head += `${name}: ${value}\r\n`;
      const request = `${head}\r\n${body}`;

      const attempt = (retried: boolean) => {
        if (signal.aborted) return reject(abortError());
        const conn = pool.take(origin);
        const socket = conn.socket;

        let settled = false;
        let headText = '';
        let parsed: Head | null = null;
        let dechunker: Dechunker | null = null;
        let left = 0;
        let sink: BodySink | null = null;
        let early: Buffer | null = null;
        let holds = 0;
        // Reading stopped by this request: at the headers, or by a hold.
        let paused = false;
        // The end of the body, or the error that ended the reading, once known.
        let finished: { err?: unknown } | null = null;
        let onFinish: ((err?: unknown) => void) | null = null;
        const watch: Watch = idle.watch(() => fail(new Error(`The model provider sent nothing for ${idle.limitMs / 1000} s.`)));

        const done = (err?: unknown) => {
          if (finished) return;
          finished = { err };
          idle.unwatch(watch);
          signal.removeEventListener('abort', onAbort);
          onFinish?.(err);
        };
        const fail = (err: unknown) => {
          conn.reader = null;
          pool.drop(key, conn);
          if (!settled) {
            settled = true;
            idle.unwatch(watch);
            signal.removeEventListener('abort', onAbort);
            return reject(err);
          }
          done(err);
        };
        const onAbort = () => fail(abortError());
        signal.addEventListener('abort', onAbort, { once: true });

        // The body bytes [from, to) of `buf` (READ_BUFFER, or a copy of what came with the
        // headers), handed to the sink as one piece. Returns whether to go on reading.
        const bodyBytes = (buf: Buffer, from: number, to: number): boolean => {
          let end = to;
          // Where the body ended in this piece, if it did.
          let last = -1;
          try {
            if (dechunker) [end, last] = dechunker.run(buf, from, to);
            else if (typeof parsed!.length === 'number') {
              end = Math.min(to, from + left);
              left -= end - from;
              if (left === 0) last = end;
            }
            if (end > from && sink!(buf.subarray(from, end)) === 'stop') {
              // The rest of this answer is not wanted: the connection cannot be reused for it.
              pool.drop(key, conn);
              done();
              return false;
            }
          } catch (err) {
            fail(err);
            return false;
          }
          if (last >= 0) {
            // Anything after the body would be an answer to nothing: that connection is not
            // reused. A reused one goes on reading, idle, to notice the server closing it.
            const reuse = last === to && parsed!.keepAlive && parsed!.keepMs >= 1000;
            if (reuse) pool.release(key, conn, parsed!.keepMs);
            else pool.drop(key, conn);
            done();
            return reuse;
          }
          paused = holds > 0;
          return !paused;
        };

        conn.reader = {
          read(n) {
            watch.activity++;
            if (parsed) return bodyBytes(READ_BUFFER, 0, n);
            headText += READ_BUFFER.toString('latin1', 0, n);
            let end = headText.indexOf('\r\n\r\n');
            let result: Head | Error | undefined;
            // An interim answer (100 Continue and the like) is skipped.
            while (end >= 0 && !((result = parseHead(headText.slice(0, end), IDLE_KEEP_MS)) instanceof Error) && result.status < 200) {
              headText = headText.slice(end + 4);
              end = headText.indexOf('\r\n\r\n');
            }
            if (end < 0 || !result) {
              if (headText.length > MAX_HEAD) fail(new Error('The model provider sent an HTTP header that is too long.'));
              return true;
            }
            if (result instanceof Error) {
              fail(result);
              return false;
            }
            parsed = result;
            if (parsed.length === 'chunked') dechunker = new Dechunker();
            else if (typeof parsed.length === 'number') left = parsed.length;
            // What came with the headers waits, copied out of the shared buffer, for the
            // reader that pump() or text() brings; reading pauses until then.
            const rest = headText.length - (end + 4);
            early = Buffer.from(READ_BUFFER.subarray(n - rest, n));
            headText = '';
            paused = true;
            settled = true;
            resolve(upstreamOf(parsed));
            return false;
          },
          ended(err) {
            if (!parsed) {
              // No answer at all on a connection that had served one: closed while idle.
              const code = (err as NodeJS.ErrnoException | undefined)?.code ?? '';
              if (!settled && !retried && conn.reused && !signal.aborted && (!err || code === 'ECONNRESET' || code === 'EPIPE')) {
                settled = true;
                idle.unwatch(watch);
                signal.removeEventListener('abort', onAbort);
                return attempt(true);
              }
              return fail(err ?? hangUp());
            }
            if (parsed.length === 'close' && !err) return done();
            fail(err && (err as NodeJS.ErrnoException).code !== 'ECONNRESET' ? err : new CutShortError(SERVER_MESSAGES.cutShort.text));
          },
        };

        const resume = () => {
          if (!paused || finished || holds > 0) return;
          paused = false;
          socket.resume();
        };
        const upstreamOf = (h: Head): Upstream => {
          const pumpWith = (onChunk: BodySink) =>
            new Promise<void>((res, rej) => {
              if (sink) return rej(new Error('The answer is being read already.'));
              sink = onChunk;
              onFinish = (err) => (err === undefined ? res() : rej(err));
              if (finished) return onFinish(finished.err);
              const first = early!;
              early = null;
              if (bodyBytes(first, 0, first.length)) {
                paused = false;
                socket.resume();
              }
            });
          return {
            status: h.status,
            headers: h.headers,
            text: async () => {
              const decoder = new StringDecoder('utf8');
              let text = '';
              await pumpWith((chunk) => {
                if (text.length < MAX_ERROR_BODY) text += decoder.write(chunk);
              }).catch(() => {});
              return text + decoder.end();
            },
            pump: (onChunk) => pumpWith(onChunk),
            hold: (until) => {
              holds++;
              const letGo = () => {
                holds--;
                resume();
              };
              until.then(letGo, letGo);
            },
          };
        };
        socket.write(request);
      };
      attempt(false);
    });
}
