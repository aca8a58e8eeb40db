// The plain-http client of system models (rawHttp.ts), against servers that write raw HTTP/1.1
// so that every framing case is under the test's control: chunked bodies cut anywhere,
// lengths, close-delimited bodies, interim answers, kept-alive connections and their reuse,
// malformed answers, cut answers, aborts.
import { readFileSync } from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import tls from 'node:tls';
import { afterEach, describe, expect, it } from 'vitest';
import { IdleWatch } from './idleWatch.ts';
import { Dechunker } from './httpFraming.ts';
import { rawHttpSend } from './rawHttp.ts';

describe('the chunked decoder', () => {
  const body = '5;name=value\r\nhello\r\n1\r\n \r\nB\r\nworld, and \r\n0\r\nX-Trailer: 1\r\n\r\n';
  const decoded = 'hello world, and ';

  /** Decodes `pieces` one after the other, as reads would bring them. */
  function decode(pieces: string[]): { text: string; ended: number[] } {
    const d = new Dechunker();
    let text = '';
    const ended: number[] = [];
    for (const piece of pieces) {
      const buf = Buffer.from(piece);
      const [end, last] = d.run(buf, 0, buf.length);
      text += buf.toString('latin1', 0, end);
      ended.push(last);
    }
    return { text, ended };
  }

  it('decodes a body cut into two reads at every place, and finds its end', () => {
    for (let cut = 0; cut <= body.length; cut++) {
      const { text, ended } = decode([body.slice(0, cut), body.slice(cut)]);
      expect(text).toBe(decoded);
      // The end is found in the read that holds the last byte, at its end.
      expect(ended.filter((e) => e >= 0)).toEqual([cut === body.length ? body.length : body.length - cut]);
    }
  });

  it('decodes a body that comes a byte at a time', () => {
    const { text, ended } = decode([...body]);
    expect(text).toBe(decoded);
    expect(ended.filter((e) => e >= 0)).toEqual([1]);
  });

  it('says where the body ended when more follows it', () => {
    const { ended } = decode([`${body}HTTP/1.1 200 OK`]);
    expect(ended).toEqual([body.length]);
  });

  it('refuses a size line that is not hexadecimal', () => {
    expect(() => decode(['zz\r\nhello\r\n'])).toThrow('The model provider sent a malformed chunked answer.');
    expect(() => decode(['5\r\nhelloXY'])).toThrow('The model provider sent a malformed chunked answer.');
  });
});

const servers: net.Server[] = [];
const sockets: net.Socket[] = [];
afterEach(async () => {
  // The client keeps connections alive: the server's ends are closed for it to close.
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

// A certificate for localhost and 127.0.0.1, made for these tests only (valid until 2126).
const TLS_DIR = path.resolve(import.meta.dirname, '../../../tests/fixtures/tls');
const tlsFiles = { key: readFileSync(path.join(TLS_DIR, 'key.pem')), cert: readFileSync(path.join(TLS_DIR, 'cert.pem')) };

/**
 * A server that answers each request (its whole text, by number from 1) with `answer`; over
 * TLS with the test certificate when `secure`.
 */
async function rawServer(answer: (socket: net.Socket, request: string, n: number) => void, secure = false) {
  const seen = { requests: [] as string[], connections: 0, closed: 0 };
  const onConnection = (socket: net.Socket) => {
    seen.connections++;
    sockets.push(socket);
    socket.on('close', () => seen.closed++);
    socket.on('error', () => {});
    let text = '';
    socket.on('data', (d) => {
      text += d.toString('latin1');
      const head = text.indexOf('\r\n\r\n');
      if (head < 0) return;
      const length = Number(/content-length: (\d+)/i.exec(text.slice(0, head))?.[1] ?? 0);
      if (text.length < head + 4 + length) return;
      const request = text.slice(0, head + 4 + length);
      text = text.slice(head + 4 + length);
      seen.requests.push(request);
      answer(socket, request, seen.requests.length);
    });
  };
  const server = secure ? tls.createServer(tlsFiles, onConnection) : net.createServer(onConnection);
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http${secure ? 's' : ''}://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat/completions?x=1`, seen };
}

const send = rawHttpSend(new IdleWatch(60_000));
const signal = () => new AbortController().signal;
const tick = (ms = 20) => new Promise((r) => setTimeout(r, ms));

async function readAll(upstream: Awaited<ReturnType<typeof send>>): Promise<string> {
  let text = '';
  await upstream.pump((chunk) => void (text += Buffer.from(chunk).toString()));
  return text;
}

describe('rawHttp requests', () => {
  it('sends the method, path, host, headers and body, and reads a sized answer', async () => {
    const { url, seen } = await rawServer((s) => s.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 11\r\n\r\n{"ok":true}'));
    const upstream = await send(url, { authorization: 'Bearer k', 'content-type': 'application/json' }, '{"q":"é"}', signal());
    expect(upstream.status).toBe(200);
    expect(upstream.headers['content-type']).toBe('application/json');
    expect(await readAll(upstream)).toBe('{"ok":true}');
    const [request] = seen.requests;
    expect(request).toMatch(/^POST \/v1\/chat\/completions\?x=1 HTTP\/1\.1\r\n/);
    expect(request).toContain(`\r\nHost: 127.0.0.1:${new URL(url).port}\r\n`);
    expect(request).toContain('\r\nauthorization: Bearer k\r\n');
    // The length is counted in bytes, not characters.
    expect(request).toContain('\r\nContent-Length: 10\r\n');
    expect(Buffer.from(request!, 'latin1').toString().endsWith('\r\n\r\n{"q":"é"}')).toBe(true);
  });

  it('keeps the connection for the next request, unless the server says close', async () => {
    const { url, seen } = await rawServer((s, _, n) =>
      s.write(`HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n${n === 2 ? 'Connection: close\r\n' : ''}\r\n3\r\nn=${n}\r\n0\r\n\r\n`),
    );
    for (let i = 1; i <= 3; i++) {
      expect(await readAll(await send(url, {}, '{}', signal()))).toBe(`n=${i}`);
      await tick();
    }
    // The first two on one connection; the third on a new one, as the second answer said close.
    expect(seen.connections).toBe(2);
  });

  it('notices a kept connection the server closes while it is idle, and does not use it', async () => {
    const { url, seen } = await rawServer((s, _, n) => {
      s.write(`HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nn=${n}`);
      if (n === 1) setTimeout(() => s.end(), 10);
    });
    expect(await readAll(await send(url, {}, '{}', signal()))).toBe('n=1');
    await tick(60);
    expect(await readAll(await send(url, {}, '{}', signal()))).toBe('n=2');
    // Two requests, each answered at the first try.
    expect(seen.requests).toHaveLength(2);
    expect(seen.connections).toBe(2);
  });

  it('skips an interim answer, and reads a body that ends when the server closes', async () => {
    const { url } = await rawServer((s) => {
      s.write('HTTP/1.1 100 Continue\r\n\r\n');
      setTimeout(() => s.end('HTTP/1.0 200 OK\r\nContent-Type: text/event-stream\r\n\r\ndata: a\n\ndata: b\n\n'), 10);
    });
    const upstream = await send(url, {}, '{}', signal());
    expect(upstream.status).toBe(200);
    expect(await readAll(upstream)).toBe('data: a\n\ndata: b\n\n');
  });

  it('reads no body after a 204, and keeps the connection', async () => {
    const { url, seen } = await rawServer((s, _, n) => s.write(n === 1 ? 'HTTP/1.1 204 No Content\r\nTransfer-Encoding: chunked\r\n\r\n' : 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok'));
    const empty = await send(url, {}, '{}', signal());
    expect(empty.status).toBe(204);
    expect(await empty.text()).toBe('');
    await tick();
    expect(await readAll(await send(url, {}, '{}', signal()))).toBe('ok');
    expect(seen.connections).toBe(1);
  });

  it('keeps what came with the headers until the body is read', async () => {
    const { url } = await rawServer((s) => s.write('HTTP/1.1 429 Too Many Requests\r\nRetry-After: 3\r\nTransfer-Encoding: chunked\r\n\r\n6\r\nslow d\r\n4\r\nown!\r\n0\r\n\r\n'));
    const upstream = await send(url, {}, '{}', signal());
    await tick(50);
    expect(upstream.status).toBe(429);
    expect(upstream.headers['retry-after']).toBe('3');
    expect(await upstream.text()).toBe('slow down!');
  });

  it('reports an answer that is not HTTP, and one cut short, plainly', async () => {
    const garbage = await rawServer((s) => s.end('SSH-2.0-OpenSSH\r\n\r\n'));
    await expect(send(garbage.url, {}, '{}', signal())).rejects.toThrow('The model provider sent a malformed HTTP answer.');
    const cut = await rawServer((s) => {
      s.write('HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\ndata: a\n\n');
      setTimeout(() => s.destroy(), 10);
    });
    const upstream = await send(cut.url, {}, '{}', signal());
    let text = '';
    await expect(upstream.pump((chunk) => void (text += Buffer.from(chunk).toString()))).rejects.toThrow('The model provider ended the stream early.');
    expect(text).toBe('data: a\n\n');
  });

  it('closes the connection when the request is aborted or the rest of the answer is not wanted', async () => {
    const { url, seen } = await rawServer((s) => s.write('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nabcd\r\n'));
    const abort = new AbortController();
    const upstream = await send(url, {}, '{}', abort.signal);
    const pumped = upstream.pump(() => abort.abort());
    await expect(pumped).rejects.toMatchObject({ name: 'AbortError' });
    const stopped = await send(url, {}, '{}', signal());
    await stopped.pump(() => 'stop');
    await tick();
    expect(seen).toMatchObject({ connections: 2, closed: 2 });
  });

  it('refuses a header value that would end the header line', async () => {
    const { url, seen } = await rawServer(() => {});
    await expect(send(url, { authorization: 'Bearer k\r\nX-Evil: 1' }, '{}', signal())).rejects.toThrow('Invalid header: authorization');
    expect(seen.connections).toBe(0);
  });
});

describe('rawHttp over TLS', () => {
  const chunked = (n: number) => `HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n9\r\ndata: ${n}\n\n\r\n0\r\n\r\n`;

  it('streams from a https provider whose certificate chains to a trusted authority, on a kept connection', async () => {
    const { url, seen } = await rawServer((s, _, n) => s.write(chunked(n)), true);
    const secureSend = rawHttpSend(new IdleWatch(60_000), { ca: tlsFiles.cert });
    for (const n of [1, 2]) {
      expect(await readAll(await secureSend(url, {}, '{}', signal()))).toBe(`data: ${n}\n\n`);
      await tick();
    }
    expect(seen.connections).toBe(1);
    // By host name too: the certificate names localhost.
    expect(await readAll(await secureSend(url.replace('127.0.0.1', 'localhost'), {}, '{}', signal()))).toBe('data: 3\n\n');
  });

  it('refuses a certificate that no trusted authority signed', async () => {
    const { url, seen } = await rawServer((s, _, n) => s.write(chunked(n)), true);
    await expect(send(url, {}, '{}', signal())).rejects.toThrow(/self[- ]signed certificate/);
    expect(seen.requests).toHaveLength(0);
  });
});
