// The hand-written client's framing (httpFraming.ts) held to cases from llhttp's test suite
// (the parser of Node and undici: test/response/*.md and test/request/transfer-encoding.md),
// those that apply to a client reading answers: chunk extensions and trailers, size lines,
// both Transfer-Encoding and Content-Length, bad or repeated lengths, bodies that end with the
// connection, answers that never have a body. Each chunked case is also cut at every byte.
import { describe, expect, it } from 'vitest';
import { Dechunker, parseHead } from './httpFraming.ts';

function dechunk(body: string, cut?: number): { text: string; end: number } {
  const d = new Dechunker();
  let text = '';
  let end = -1;
  let offset = 0;
  for (const piece of cut === undefined ? [body] : [body.slice(0, cut), body.slice(cut)]) {
    const buf = Buffer.from(piece, 'latin1');
    const [out, last] = d.run(buf, 0, buf.length);
    text += buf.toString('latin1', 0, out);
    if (last >= 0 && end < 0) end = offset + last;
    offset += buf.length;
  }
  return { text, end };
}

const CHUNKED: [string, string, string][] = [
  ['chunk extensions (llhttp: "chunked with extensions")', '5;ilovew3=somuchlove\r\nhello\r\n6;blahblah;blah\r\n world\r\n0\r\n\r\n', 'hello world'],
  ['a quoted extension value', '5;foo="bar"\r\nhello\r\n0\r\n\r\n', 'hello'],
  ['extensions after whitespace', '5 ;a=1\r\nhello\r\n0\r\n\r\n', 'hello'],
  ['trailers after the last chunk (llhttp: "chunked with trailing headers")', '5\r\nhello\r\n0\r\nVary: *\r\nContent-Type: text/plain\r\n\r\n', 'hello'],
  ['upper-case and zero-padded sizes', 'A\r\n0123456789\r\n000A\r\nabcdefghij\r\n0\r\n\r\n', '0123456789abcdefghij'],
  ['bare LF line ends, which llhttp takes in lenient mode', '5\nhello\n0\n\n', 'hello'],
  ['UTF-8 kept byte for byte', '4\r\n\xc3\xa9t\xc3\r\n1\r\n\xa9\r\n0\r\n\r\n', '\xc3\xa9t\xc3\xa9'],
];

describe('chunked bodies (llhttp cases)', () => {
  for (const [name, body, text] of CHUNKED) {
    it(name, () => {
      for (let cut = 0; cut <= body.length; cut++) expect(dechunk(body, cut), `cut at ${cut}`).toEqual({ text, end: body.length });
    });
  }

  it('refuses what llhttp refuses: a size that is not hexadecimal, or too large, and data longer than its size', () => {
    for (const bad of ['zz\r\nhello\r\n', '-5\r\nhello\r\n', 'FFFFFFFFFFFFFFFFF\r\n', '5\r\nhelloXY\r\n0\r\n\r\n', ';ext\r\nhello\r\n']) {
      expect(() => dechunk(bad), JSON.stringify(bad)).toThrow('The model provider sent a malformed chunked answer.');
    }
  });
});

describe('answer heads (llhttp cases)', () => {
  const head = (text: string) => parseHead(text, 30_000);
  it('reads Transfer-Encoding over Content-Length when both come (RFC 9112 6.3)', () => {
    expect(head('HTTP/1.1 200 OK\r\nContent-Length: 10\r\nTransfer-Encoding: chunked')).toMatchObject({ length: 'chunked' });
    expect(head('HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked')).toMatchObject({ length: 'chunked' });
  });

  it('refuses a bad or repeated differing Content-Length', () => {
    for (const value of ['1 2', '-1', '0x10', '5, 6', '']) {
      expect(head(`HTTP/1.1 200 OK\r\nContent-Length: ${value}`), value).toBeInstanceOf(Error);
    }
    expect(head('HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 6')).toBeInstanceOf(Error);
  });

  it('reads a body to the connection’s end without a length, and none after 204 or 304', () => {
    expect(head('HTTP/1.1 200 OK\r\nContent-Type: text/event-stream')).toMatchObject({ length: 'close' });
    expect(head('HTTP/1.0 200 OK')).toMatchObject({ length: 'close', keepAlive: false });
    expect(head('HTTP/1.1 204 No Content\r\nContent-Length: 7')).toMatchObject({ length: 0 });
    expect(head('HTTP/1.1 304 Not Modified\r\nTransfer-Encoding: chunked')).toMatchObject({ length: 0 });
  });

  it('keeps the connection unless told to close, and reads the Keep-Alive hint', () => {
    expect(head('HTTP/1.1 200 OK\r\nContent-Length: 0')).toMatchObject({ keepAlive: true, keepMs: 30_000 });
    expect(head('HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0')).toMatchObject({ keepAlive: false });
    expect(head('HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 0')).toMatchObject({ keepAlive: true });
    expect(head('HTTP/1.1 200 OK\r\nKeep-Alive: timeout=5\r\nContent-Length: 0')).toMatchObject({ keepMs: 4_000 });
  });

  it('refuses what is not an HTTP/1.x status line', () => {
    for (const line of ['HTTP/2 200', 'ICY 200 OK', 'HTTP/1.1 20 OK', 'HTTP/1.1 2000 OK', '']) expect(head(line), line).toBeInstanceOf(Error);
  });

  it('takes a header named __proto__ as a header only', () => {
    const parsed = head('HTTP/1.1 200 OK\r\n__proto__: x\r\nContent-Length: 0');
    expect(parsed).not.toBeInstanceOf(Error);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });
});
