// The framing of an HTTP/1.1 answer, for rawHttp.ts: its status line and headers, and the
// decoding of a chunked body in place.

export interface Head {
  status: number;
  headers: Record<string, string>;
  /** The connection may carry the next request once this answer has been read. */
  keepAlive: boolean;
  keepMs: number;
  /** Body framing: chunked, a length, or until the server closes. */
  length: number | 'chunked' | 'close';
}

/**
 * The status line and headers (without the blank line that ends them). Names are lowercased
 * and repeated ones joined; a kept-alive connection's idle time is the server's Keep-Alive
 * hint less a second, at most `idleKeepMs`.
 */
export function parseHead(text: string, idleKeepMs: number): Head | Error {
  const lines = text.split('\r\n');
  const m = /^HTTP\/1\.([01]) (\d{3})(?: |$)/.exec(lines[0] ?? '');
  if (!m) return new Error('The model provider sent a malformed HTTP answer.');
  // Without a prototype: a header named __proto__ or constructor is only a header.
  const headers: Record<string, string> = Object.create(null);
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
  }
  const connection = (headers.connection ?? '').toLowerCase();
  const status = Number(m[2]);
  let length: Head['length'] = 'close';
  // These answers never have a body, whatever their headers say (RFC 9112, 6.3).
  if (status === 204 || status === 304) length = 0;
  else if (/\bchunked\b/i.test(headers['transfer-encoding'] ?? '')) length = 'chunked';
  else if (headers['content-length'] !== undefined) {
    if (!/^\d+$/.test(headers['content-length'])) return new Error('The model provider sent a malformed HTTP answer.');
    length = Number(headers['content-length']);
  }
  const hint = /\btimeout=(\d+)/i.exec(headers['keep-alive'] ?? '');
  return {
    status,
    headers,
    keepAlive: m[1] === '1' ? !/\bclose\b/.test(connection) : /\bkeep-alive\b/.test(connection),
    keepMs: hint ? Math.max(0, Math.min(idleKeepMs, Number(hint[1]) * 1000 - 1000)) : idleKeepMs,
    length,
  };
}

const HEX: Record<number, number> = {};
for (let i = 0; i < 16; i++) HEX['0123456789abcdef'.charCodeAt(i)] = HEX['0123456789ABCDEF'.charCodeAt(i)] = i;

/**
 * Decodes a chunked body in place: the data of the chunks one read held is moved to the front
 * of what that read brought (the write position never passes the read position), so it goes
 * on as one piece. Returns [end of the data, where the body ended or -1]; throws on a bad
 * size line.
 */
export class Dechunker {
  private state: 'size' | 'ext' | 'data' | 'dataCr' | 'dataLf' | 'trailer' = 'size';
  private size = 0;
  private digits = 0;
  private left = 0;
  private lineLength = 0;

  run(buf: Buffer, from: number, to: number): [number, number] {
    let out = from;
    let i = from;
    while (i < to) {
      if (this.state === 'data') {
        const take = Math.min(this.left, to - i);
        if (out !== i) buf.copyWithin(out, i, i + take);
        out += take;
        i += take;
        this.left -= take;
        if (this.left === 0) this.state = 'dataCr';
        continue;
      }
      const c = buf[i++]!;
      switch (this.state) {
        case 'size':
          if (c in HEX && this.digits < 12) {
            this.size = this.size * 16 + HEX[c]!;
            this.digits++;
          } else if ((c === 59 /* ; */ || c === 32 || c === 9) && this.digits) this.state = 'ext';
          else if (c === 13 && this.digits) this.state = 'ext';
          else if (c === 10 && this.digits) this.endSizeLine();
          else throw new Error('The model provider sent a malformed chunked answer.');
          break;
        case 'ext':
          if (c === 10) this.endSizeLine();
          break;
        case 'dataCr':
          if (c === 13) this.state = 'dataLf';
          else if (c === 10) this.state = 'size';
          else throw new Error('The model provider sent a malformed chunked answer.');
          break;
        case 'dataLf':
          if (c !== 10) throw new Error('The model provider sent a malformed chunked answer.');
          this.state = 'size';
          break;
        case 'trailer':
          if (c === 10) {
            if (this.lineLength === 0) return [out, i];
            this.lineLength = 0;
          } else if (c !== 13) this.lineLength++;
          break;
      }
    }
    return [out, -1];
  }

  /** A size line ended: its chunk's data follows, or the trailer after the last chunk. */
  private endSizeLine(): void {
    this.state = this.size === 0 ? 'trailer' : 'data';
    this.left = this.size;
    this.size = 0;
    this.digits = 0;
    this.lineLength = 0;
  }
}
