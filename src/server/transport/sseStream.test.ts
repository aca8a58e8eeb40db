// The SSE writer on a real node:http server, read from raw sockets so that the HTTP framing
// itself is checked: the events written to the socket as hand-made chunks must make a valid
// chunked body, leave a keep-alive connection usable for the next request, keep pipelined
// responses in order, and fall back to a plain body for an HTTP/1.0 client.
import http from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { nodeSseStream } from './sseStream.ts';

const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => (s.closeAllConnections(), s.close(r)))));
});

/** Each request streams the events its path names (`/a,b,é`), text parts across several writes. */
async function serve(): Promise<number> {
  const server = http.createServer((req, res) => {
    const stream = nodeSseStream(res, { 'content-type': 'text/event-stream' }, () => {});
    stream.emit({ type: 'status', text: 'Querying...' });
    for (const word of decodeURIComponent(req.url!.slice(1)).split(',')) stream.emit({ type: 'text', delta: word }, true);
    setImmediate(() => {
      stream.emit({ type: 'done', session: 1, time: 2 });
      stream.close();
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return (server.address() as AddressInfo).port;
}

/** Sends `raw` and collects what comes back until `complete` says it is all there (or the socket ends). */
function exchange(port: number, raw: string, complete: (text: string) => boolean): Promise<{ text: string; ended: boolean }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(raw));
    const chunks: Buffer[] = [];
    const text = () => Buffer.concat(chunks).toString('utf8');
    socket.on('data', (c: Buffer) => {
      chunks.push(c);
      if (complete(text())) {
        socket.destroy();
        resolve({ text: text(), ended: false });
      }
    });
    socket.on('end', () => resolve({ text: text(), ended: true }));
    socket.on('error', reject);
  });
}

/** A chunked body decoded strictly: sizes in bytes, CRLF after each chunk, the last chunk 0. */
function dechunk(body: string): { data: string; rest: string } {
  const bytes = Buffer.from(body, 'utf8');
  let at = 0;
  const parts: Buffer[] = [];
  for (;;) {
    const eol = bytes.indexOf('\r\n', at);
    if (eol < 0) throw new Error('unterminated chunk size');
    const size = Number.parseInt(bytes.subarray(at, eol).toString('latin1'), 16);
    if (!Number.isFinite(size)) throw new Error('bad chunk size');
    at = eol + 2;
    if (size === 0) {
      if (bytes.subarray(at, at + 2).toString('latin1') !== '\r\n') throw new Error('no CRLF after the last chunk');
      return { data: Buffer.concat(parts).toString('utf8'), rest: bytes.subarray(at + 2).toString('utf8') };
    }
    parts.push(bytes.subarray(at, at + size));
    at += size;
    if (bytes.subarray(at, at + 2).toString('latin1') !== '\r\n') throw new Error('no CRLF after a chunk');
    at += 2;
  }
}

const expected = (words: string[]) =>
  'event: status\ndata: {"text":"Querying..."}\n\n' +
  words.map((w) => `event: text\ndata: {"delta":${JSON.stringify(w)}}\n\n`).join('') +
  'event: done\ndata: {"session":1,"time":2}\n\n';

/** The responses in `text`, each split into its head and its dechunked body. */
function responses(text: string, count: number): { head: string; body: string }[] {
  const out: { head: string; body: string }[] = [];
  let rest = text;
  for (let i = 0; i < count; i++) {
    const split = rest.indexOf('\r\n\r\n');
    const head = rest.slice(0, split);
    const { data, rest: after } = dechunk(rest.slice(split + 4));
    out.push({ head, body: data });
    rest = after;
  }
  expect(rest).toBe('');
  return out;
}

const get = (path: string, version = '1.1') => `GET ${path} HTTP/${version}\r\nHost: x\r\n\r\n`;

it('writes a valid chunked body, byte sizes for multibyte text, and the connection stays usable', async () => {
  const port = await serve();
  const words = ['Hel', 'lo ', 'wörld ', '日本語', '😀'];
  const path = `/${encodeURIComponent(words.join(','))}`;
  // Two requests, the second sent only when the first response has ended, on one connection.
  const { text } = await new Promise<{ text: string }>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(get(path)));
    let all = Buffer.alloc(0);
    let sentSecond = false;
    socket.on('data', (c: Buffer) => {
      all = Buffer.concat([all, c]);
      const s = all.toString('utf8');
      const ends = s.split('\r\n0\r\n\r\n').length - 1;
      if (ends === 1 && !sentSecond) {
        sentSecond = true;
        socket.write(get('/again'));
      }
      if (ends === 2) {
        socket.destroy();
        resolve({ text: s });
      }
    });
    socket.on('error', reject);
  });
  const [first, second] = responses(text, 2);
  expect(first!.head).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
  expect(first!.head.toLowerCase()).toContain('transfer-encoding: chunked');
  expect(first!.body).toBe(expected(words));
  expect(second!.body).toBe(expected(['again']));
});

it('keeps pipelined responses whole and in order', async () => {
  const port = await serve();
  const { text } = await exchange(port, get('/one,two') + get('/three') + get('/four,five,six'), (s) => s.split('\r\n0\r\n\r\n').length - 1 === 3);
  expect(responses(text, 3).map((r) => r.body)).toEqual([expected(['one', 'two']), expected(['three']), expected(['four', 'five', 'six'])]);
});

it('answers an HTTP/1.0 client with a plain body that ends with the connection', async () => {
  const port = await serve();
  const { text, ended } = await exchange(port, get('/plain,text', '1.0'), () => false);
  expect(ended).toBe(true);
  const split = text.indexOf('\r\n\r\n');
  expect(text.slice(0, split).toLowerCase()).not.toContain('transfer-encoding');
  expect(text.slice(split + 4)).toBe(expected(['plain', 'text']));
});

it("sends the last events and the body's end in one socket write", async () => {
  const writes: string[][] = [];
  const server = http.createServer((_req, res) => {
    const stream = nodeSseStream(res, { 'content-type': 'text/event-stream' }, () => {});
    stream.emit({ type: 'text', delta: 'hi' }, true);
    setImmediate(() => {
      // From here on (the first write, corked by Node until the next tick, is out), what the
      // socket is asked to write: Writable's hooks, one _write per separate write, one
      // _writev for what a cork gathered.
      const socket = res.socket as unknown as { _write: (...a: unknown[]) => void; _writev: (...a: unknown[]) => void };
      const seen: string[] = [];
      const [write, writev] = [socket._write, socket._writev];
      socket._write = function (this: unknown, ...a: unknown[]) {
        seen.push('write');
        return write.apply(this, a);
      };
      socket._writev = function (this: unknown, ...a: unknown[]) {
        seen.push(`writev of ${(a[0] as unknown[]).length}`);
        return writev.apply(this, a);
      };
      res.on('finish', () => writes.push(seen));
      stream.emit({ type: 'done', session: 1, time: 2 });
      stream.close();
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { text } = await exchange((server.address() as AddressInfo).port, get('/'), (s) => s.endsWith('\r\n0\r\n\r\n'));
  const [response] = responses(text, 1);
  expect(response!.body).toBe('event: text\ndata: {"delta":"hi"}\n\nevent: done\ndata: {"session":1,"time":2}\n\n');
  expect(writes).toEqual([['writev of 2']]);
});
