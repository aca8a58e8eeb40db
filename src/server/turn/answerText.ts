// The answer of a turn as it streams in, kept for the log, as UTF-8 in buffers of its own.
// Why not strings: a plain `text += delta` keeps two heap objects per token (the piece and a
// rope node), and even pieces joined every 64 tokens live long enough to be copied by the
// young-generation collector, whose pauses stop every stream at once. With 300 answers
// streaming, those pauses took 9.0 ms on average with the answers kept as strings, and 5.0 ms
// in buffers (benchmark B5): a token's text dies as soon as it is copied in, and the buffers
// live outside the collected heap.
// Chunks grow from 1 KB to 64 KB; a chunk that is done is kept at its exact size, so a long
// answer holds at most one chunk of unused room (one buffer doubling as it fills would hold
// up to the answer's size again). Buffers come from allocUnsafeSlow, not slices of Node's
// shared pool, which the answer would keep alive.
const FIRST_CHUNK = 1024;
const LARGEST_CHUNK = 64 * 1024;
const SHORT_PIECE = 64;

export class AnswerText {
  /** Filled chunks, each trimmed to what it holds (whole characters only). */
  private readonly filled: Buffer[] = [];
  private current: Buffer | null = null;
  private used = 0;
  // A piece that ended inside a surrogate pair: its high half waits for the next piece, so the
  // pair is encoded whole (a lone half would become U+FFFD).
  private highSurrogate = '';

  add(piece: string): void {
    if (this.highSurrogate) {
      piece = this.highSurrogate + piece;
      this.highSurrogate = '';
    }
    const last = piece.charCodeAt(piece.length - 1);
    if (last >= 0xd800 && last <= 0xdbff) {
      this.highSurrogate = piece.slice(-1);
      piece = piece.slice(0, -1);
    }
    const units = piece.length;
    if (!units) return;
    // Room for the worst case, three bytes per UTF-16 unit (a surrogate pair is four bytes for
    // two units), so the piece's byte length need not be computed first.
    if (!this.current || this.current.length - this.used < units * 3) {
      if (this.current) this.filled.push(this.used === this.current.length ? this.current : exactCopy(this.current, this.used));
      const size = this.current ? Math.min(LARGEST_CHUNK, this.current.length * 2) : FIRST_CHUNK;
      this.current = Buffer.allocUnsafeSlow(Math.max(size, units * 3));
      this.used = 0;
    }
    // A short ASCII piece (most tokens) is copied here: two calls into native code per token
    // (byteLength, write) cost more than the copy. With the retry check off the text path,
    // this saved 1.5-3% of the server's CPU per paced token (bench/abRelay.ts). Long pieces (a
    // burst of tokens in one read) are encoded natively, which is faster per character.
    const buffer = this.current;
    let at = this.used;
    let i = 0;
    for (const end = units > SHORT_PIECE ? 0 : units; i < end; i++) {
      const code = piece.charCodeAt(i);
      if (code >= 0x80) break;
      buffer[at++] = code;
    }
    if (i < units) at += buffer.write(i ? piece.slice(i) : piece, at, 'utf8');
    this.used = at;
  }

  get text(): string {
    let text = '';
    for (const chunk of this.filled) text += chunk.toString('utf8');
    if (this.current) text += this.current.toString('utf8', 0, this.used);
    return text + this.highSurrogate;
  }
}

function exactCopy(chunk: Buffer, length: number): Buffer {
  const exact = Buffer.allocUnsafeSlow(length);
  chunk.copy(exact, 0, 0, length);
  return exact;
}
