// Whether bytes are JSON, decided without building the value. JSON.parse of a hostile 10 MB
// upload (`[{},{},...]`, `[[[[...]]]]`) takes up to a second of the server's thread and some
// 400 MB of memory to build a value that is thrown away; this scanner reads the bytes once,
// keeps one byte per open array or object, and allocates nothing else. It takes exactly what
// JSON.parse takes (RFC 8259), after a UTF-8 byte order mark, which TextDecoder drops; the
// caller has checked that the bytes are UTF-8.

const SPACE = new Uint8Array(256);
for (const c of [0x20, 0x09, 0x0a, 0x0d]) SPACE[c] = 1;
const HEX = new Uint8Array(256);
for (const c of '0123456789abcdefABCDEF') HEX[c.charCodeAt(0)] = 1;
/** What may follow a backslash in a string, `u` (four hex digits) included. */
const ESCAPE = new Uint8Array(256);
for (const c of '"\\/bfnrtu') ESCAPE[c.charCodeAt(0)] = 1;

const ARRAY = 1;
const OBJECT = 2;

const isDigit = (c: number | undefined) => c !== undefined && c >= 0x30 && c <= 0x39;

/**
 * `maxValues`: at most this many values (containers and scalars) in all, for a body whose shape
 * is known: parsing a million tiny values costs far more than their bytes (the store's form).
 */
export function isJson(d: Uint8Array, limits: { maxValues?: number } = {}): boolean {
  const n = d.length;
  let values = 0;
  const maxValues = limits.maxValues ?? Infinity;
  let i = d[0] === 0xef && d[1] === 0xbb && d[2] === 0xbf ? 3 : 0;
  // The kinds of the open containers, innermost last (at most one per byte).
  const open = new Uint8Array(n);
  let depth = 0;
  const space = () => {
    while (i < n && SPACE[d[i]!]) i++;
  };
  const string = (): boolean => {
    i++;
    while (i < n) {
      const c = d[i++]!;
      if (c === 0x22) return true;
      if (c < 0x20) return false;
      if (c === 0x5c) {
        const e = d[i++];
        if (e === undefined || !ESCAPE[e]) return false;
        if (e === 0x75) {
          for (let k = 0; k < 4; k++) if (i >= n || !HEX[d[i++]!]) return false;
        }
      }
    }
    return false;
  };
  const number = (): boolean => {
    if (d[i] === 0x2d) i++;
    if (d[i] === 0x30) i++;
    else if (isDigit(d[i])) while (isDigit(d[i])) i++;
    else return false;
    if (d[i] === 0x2e) {
      i++;
      if (!isDigit(d[i])) return false;
      while (isDigit(d[i])) i++;
    }
    if (d[i] === 0x65 || d[i] === 0x45) {
      i++;
      if (d[i] === 0x2b || d[i] === 0x2d) i++;
      if (!isDigit(d[i])) return false;
      while (isDigit(d[i])) i++;
    }
    return true;
  };
  const word = (w: string): boolean => {
    for (let k = 0; k < w.length; k++) if (d[i + k] !== w.charCodeAt(k)) return false;
    i += w.length;
    return true;
  };
  /** An object's key and colon, at a `"`. */
  const key = (): boolean => {
    if (d[i] !== 0x22 || !string()) return false;
    space();
    if (d[i] !== 0x3a) return false;
    i++;
    return true;
  };

  for (;;) {
    // A value.
    if (++values > maxValues) return false;
    space();
    const c = d[i];
    if (c === 0x7b) {
      i++;
      space();
      if (d[i] === 0x7d) i++;
      else {
        open[depth++] = OBJECT;
        if (!key()) return false;
        continue;
      }
    } else if (c === 0x5b) {
      i++;
      space();
      if (d[i] === 0x5d) i++;
      else {
        open[depth++] = ARRAY;
        continue;
      }
    } else if (c === 0x22) {
      if (!string()) return false;
    } else if (c === 0x74) {
      if (!word('true')) return false;
    } else if (c === 0x66) {
      if (!word('false')) return false;
    } else if (c === 0x6e) {
      if (!word('null')) return false;
    } else if (c === 0x2d || isDigit(c)) {
      if (!number()) return false;
    } else return false;
    // After a value: the end, a comma, or the end of the containers it closes.
    for (;;) {
      space();
      if (depth === 0) return i === n;
      const after = d[i];
      if (after === 0x2c) {
        i++;
        if (open[depth - 1] === OBJECT) {
          space();
          if (!key()) return false;
        }
        break;
      }
      if ((after === 0x5d && open[depth - 1] === ARRAY) || (after === 0x7d && open[depth - 1] === OBJECT)) {
        depth--;
        i++;
        continue;
      }
      return false;
    }
  }
}
