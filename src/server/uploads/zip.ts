// A ZIP archive read the careful way (a DOCX is one): its directory is read for names and
// offsets only, and an entry is inflated through fflate's streaming inflater in small slices of
// input, counting the bytes it actually produces against a budget shared by every entry read;
// past the budget the inflater is stopped and the document refused. The sizes the directory
// claims are never trusted (the file's author writes them): a 1 KB entry that inflates to 1 GB
// costs the budget and no more. Entries are read one at a time, on demand, and nothing nested
// is ever opened.
import { Inflate } from 'fflate';
import { RefusedError } from './refusal.ts';

/** Input given to the inflater at a time: at most ~1,032 times this comes out of one push. */
const SLICE = 1024;
/** A stored (not deflated) entry is given in pieces of this size. */
const STORED_PIECE = 1024 * 1024;

interface Entry {
  method: number;
  flags: number;
  compressed: number;
  offset: number;
}

const damaged = () => new RefusedError({ kind: 'damaged', type: 'DOCX' });

export class ZipArchive {
  readonly #data: Uint8Array;
  readonly #view: DataView;
  readonly #entries = new Map<string, Entry>();
  readonly #budget: number;
  #produced = 0;

  /** Reads the directory; throws a RefusedError for a damaged archive or too many entries. */
  constructor(data: Uint8Array, options: { maxUnpacked: number; maxEntries: number }) {
    this.#data = data;
    this.#view = new DataView(data.buffer, data.byteOffset, data.byteLength);
    this.#budget = options.maxUnpacked;
    const view = this.#view;
    if (data.byteLength < 22 || view.getUint32(0, true) !== 0x04034b50) throw damaged();
    // The end-of-central-directory record: 22 bytes plus a comment of at most 65,535.
    let end = -1;
    for (let i = data.byteLength - 22; i >= Math.max(0, data.byteLength - 22 - 65_535); i--) {
      if (view.getUint32(i, true) === 0x06054b50) {
        end = i;
        break;
      }
    }
    if (end < 0) throw damaged();
    const count = view.getUint16(end + 10, true);
    // ZIP64 (0xffff entries, 0xffffffff offsets) is never needed by a 10 MB document.
    if (count === 0xffff) throw damaged();
    if (count > options.maxEntries) throw new RefusedError({ kind: 'entries', max: options.maxEntries });
    let at = view.getUint32(end + 16, true);
    for (let n = 0; n < count; n++) {
      if (at + 46 > end || view.getUint32(at, true) !== 0x02014b50) throw damaged();
      const nameLength = view.getUint16(at + 28, true);
      const entry: Entry = {
        flags: view.getUint16(at + 8, true),
        method: view.getUint16(at + 10, true),
        compressed: view.getUint32(at + 20, true),
        offset: view.getUint32(at + 42, true),
      };
      const name = new TextDecoder().decode(data.subarray(at + 46, at + 46 + nameLength));
      if (!this.#entries.has(name)) this.#entries.set(name, entry);
      at += 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    }
  }

  has(name: string): boolean {
    return this.#entries.has(name);
  }

  get names(): string[] {
    return [...this.#entries.keys()];
  }

  /** Bytes produced so far by every entry read. */
  get produced(): number {
    return this.#produced;
  }

  /**
   * An entry's bytes, in the pieces the inflater gives them, inflated as they are asked for:
   * a reader that stops early (or is refused) leaves the rest of the entry packed.
   */
  *pieces(name: string): Generator<Uint8Array> {
    const entry = this.#entries.get(name);
    if (!entry) throw damaged();
    const view = this.#view;
    const data = this.#data;
    // Encrypted entries cannot be read; the local header says where the data starts.
    if (entry.flags & 1) throw damaged();
    if (entry.offset + 30 > data.byteLength || view.getUint32(entry.offset, true) !== 0x04034b50) throw damaged();
    const start = entry.offset + 30 + view.getUint16(entry.offset + 26, true) + view.getUint16(entry.offset + 28, true);
    // The claimed compressed size only bounds where to look (within the file), never what comes out.
    const stop = Math.min(data.byteLength, start + entry.compressed);
    if (start > stop) throw damaged();
    const count = (piece: Uint8Array) => {
      this.#produced += piece.byteLength;
      if (this.#produced > this.#budget) throw new RefusedError({ kind: 'unpacked', mb: Math.round(this.#budget / 1024 / 1024) });
    };
    if (entry.method === 0) {
      for (let at = start; at < stop; at += STORED_PIECE) {
        const piece = data.subarray(at, Math.min(stop, at + STORED_PIECE));
        count(piece);
        yield piece;
      }
      return;
    }
    if (entry.method !== 8) throw damaged();
    const out: Uint8Array[] = [];
    const inflater = new Inflate((piece) => {
      count(piece);
      if (piece.byteLength) out.push(piece);
    });
    // fflate's state after a push: `f` the last block's final bit, `l` set while inside a block.
    // The stream has ended once its final block is done; bytes after it (a claimed compressed
    // size longer than the stream) are not fed on, which would copy them again on every push.
    const state = (inflater as unknown as { s: { f?: number; l?: unknown } }).s;
    const push = (input: Uint8Array, final: boolean) => {
      try {
        inflater.push(input, final);
      } catch (err) {
        if (err instanceof RefusedError) throw err;
        // fflate's own errors: an invalid deflate stream.
        throw damaged();
      }
    };
    for (let at = start; at < stop && !(state.f && !state.l); at += SLICE) {
      push(data.subarray(at, Math.min(stop, at + SLICE)), false);
      while (out.length) yield out.shift()!;
    }
    push(new Uint8Array(0), true);
    while (out.length) yield out.shift()!;
    // A stream whose final block never came is a truncated entry.
    if (!(state.f && !state.l)) throw damaged();
  }

  /**
   * Inflates the entries (discarding what comes out) to learn that together they stay within
   * the budget: a bomb is refused for what it is in the time it takes to inflate the budget,
   * before any of it is parsed. The budget is then whole again for reading them.
   */
  checkUnpacked(names: string[]): void {
    try {
      for (const name of names) for (const piece of this.pieces(name)) void piece;
    } finally {
      this.#produced = 0;
    }
  }

  /** An entry as UTF-8 text, decoded piece by piece as it is asked for. */
  *textPieces(name: string): Generator<string> {
    const decoder = new TextDecoder('utf-8');
    for (const piece of this.pieces(name)) yield decoder.decode(piece, { stream: true });
    yield decoder.decode();
  }

  /** An entry's bytes. */
  read(name: string): Uint8Array {
    const pieces: Uint8Array[] = [];
    let length = 0;
    for (const piece of this.pieces(name)) {
      pieces.push(piece);
      length += piece.byteLength;
    }
    const out = new Uint8Array(length);
    let at = 0;
    for (const piece of pieces) {
      out.set(piece, at);
      at += piece.byteLength;
    }
    return out;
  }

  /** An entry as UTF-8 text. */
  readText(name: string): string {
    return [...this.textPieces(name)].join('');
  }
}
