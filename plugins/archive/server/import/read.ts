// An uploaded archive as a stream of conversations, without holding it: a zip (ChatGPT's or
// Claude's export, inflated with fflate's streaming Unzip) whose conversations*.json entries are
// read as they inflate, or a JSON file read as it arrives. What it is comes from its first
// bytes, never from its name. The bounds: bytes received, bytes actually inflated, entries,
// time (the caller's deadline), and those of items.ts; the event loop gets a turn every piece.
import { Unzip, UnzipInflate, type UnzipFile } from 'fflate';
import { ZIP_MAX_ENTRIES } from '../../common/limits.ts';
import { MESSAGES } from '../../common/messages.ts';
import { ItemReader, type Item } from './items.ts';
import { ArchiveRefused } from './refusal.ts';

export interface ReadLimits {
  maxBytes: number;
  maxInflated: number;
  /** When the import must stop (Date.now()), and what it says then. */
  deadline: number;
  seconds: number;
}

/**
 * A zip is inflated this much at a time (a bomb's piece inflates to at most ~4 MB at once), and
 * JSON parsed at most PARSE at a time (the tokenizer's cost grows faster than its input's
 * size); the event loop gets a turn every 3 ms of work (breather): a request waits for a few
 * of those, not for the import.
 */
const PIECE = 4 * 1024;
const PARSE = 4 * 1024;
const MB = 1024 * 1024;
/** The entries read: ChatGPT's and Claude's conversations files (split or not), shellchat's own. */
const WANTED = /(^|\/)(conversations(-\d+)?|shellchat[^/]*)\.json$/i;

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A turn of the event loop once `ms` passed since the last one: other requests are answered meanwhile. */
export function breather(ms = 3): () => Promise<void> | undefined {
  let last = performance.now();
  return () => {
    if (performance.now() - last < ms) return undefined;
    return turn().then(() => void (last = performance.now()));
  };
}

/** A parser error as the report says it (its text is the parser's, never the file's). */
function asRefusal(err: unknown): ArchiveRefused {
  if (err instanceof ArchiveRefused) return err;
  return new ArchiveRefused(MESSAGES.notJson(String((err as Error)?.message ?? err).slice(0, 200)));
}

/** The JSON text of one file, in order: pushed as it comes, its conversations out. */
class JsonText {
  private readonly decoder = new TextDecoder('utf-8', { fatal: false });
  private readonly items = new ItemReader();
  push(bytes: Uint8Array): Item[] {
    try {
      return this.items.push(this.decoder.decode(bytes, { stream: true }));
    } catch (err) {
      throw asRefusal(err);
    }
  }
  end(): Item[] {
    try {
      const rest = this.items.push(this.decoder.decode());
      return [...rest, ...this.items.end()];
    } catch (err) {
      throw asRefusal(err);
    }
  }
}

export async function* readArchive(body: ReadableStream<Uint8Array>, limits: ReadLimits): AsyncGenerator<Item> {
  const reader = body.getReader();
  let received = 0;
  let inflated = 0;
  let kind: 'zip' | 'json' | undefined;
  const json = new JsonText();
  const check = () => {
    if (Date.now() > limits.deadline) throw new ArchiveRefused(MESSAGES.tooSlow(limits.seconds), 413);
  };
  // The zip's side: what its callbacks inflated (synchronously, inside push), parsed after.
  const pending: { read: JsonText; data: Uint8Array; final: boolean }[] = [];
  const breathe = breather();
  /** Parses bytes a piece at a time, with a turn of the event loop now and then. */
  async function* parse(read: JsonText, data: Uint8Array, final: boolean): AsyncGenerator<Item> {
    for (let at = 0; at < data.length; at += PARSE) {
      yield* read.push(data.subarray(at, at + PARSE));
      const pause = breathe();
      if (pause) {
        check();
        await pause;
      }
    }
    if (final) yield* read.end();
  }
  let failure: ArchiveRefused | undefined;
  let entries = 0;
  let wanted = 0;
  const unzip = new Unzip();
  unzip.register(UnzipInflate);
  unzip.onfile = (file: UnzipFile) => {
    if (failure) return;
    if (++entries > ZIP_MAX_ENTRIES) return void (failure = new ArchiveRefused(MESSAGES.tooManyEntries, 413));
    const read = WANTED.test(file.name) ? new JsonText() : undefined;
    if (read) wanted++;
    file.ondata = (err, data, final) => {
      if (failure) return;
      try {
        if (err) throw new ArchiveRefused(MESSAGES.badZip(err.message));
        // Every inflated byte counts, read or not (a skipped entry may still be inflated to find its end).
        inflated += data.length;
        if (inflated > limits.maxInflated) throw new ArchiveRefused(MESSAGES.inflatedTooLarge(Math.round(limits.maxInflated / MB)), 413);
        if (read) pending.push({ read, data, final });
      } catch (e) {
        failure = asRefusal(e);
        file.terminate();
      }
    };
    if (read) {
      try {
        file.start();
      } catch (e) {
        failure = new ArchiveRefused(MESSAGES.badZip((e as Error).message));
      }
    }
  };

  try {
    for (;;) {
      // A sender that stalls is stopped at the deadline too, not only one that sends.
      let timer: ReturnType<typeof setTimeout> | undefined;
      const stalled = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new ArchiveRefused(MESSAGES.tooSlow(limits.seconds), 413)), Math.max(0, limits.deadline - Date.now()));
      });
      const { done, value } = await Promise.race([reader.read(), stalled]).finally(() => clearTimeout(timer));
      if (done) break;
      received += value.length;
      if (received > limits.maxBytes) throw new ArchiveRefused(MESSAGES.tooLarge(Math.round(limits.maxBytes / MB)), 413);
      if (kind === undefined && value.length) kind = value[0] === 0x50 && value[1] === 0x4b ? 'zip' : 'json';
      if (kind === 'json') {
        yield* parse(json, value, false);
        continue;
      }
      for (let at = 0; at < value.length; at += PIECE) {
        check();
        try {
          // A copy: fflate keeps the bytes it was given between pushes, and the stream may reuse its buffer.
          unzip.push(value.slice(at, at + PIECE));
        } catch (e) {
          failure ??= new ArchiveRefused(MESSAGES.badZip((e as Error).message));
        }
        if (failure) throw failure;
        for (const p of pending.splice(0)) yield* parse(p.read, p.data, p.final);
      }
    }
    if (kind === undefined) throw new ArchiveRefused(MESSAGES.notArchive);
    if (kind === 'json') {
      yield* json.end();
      return;
    }
    try {
      unzip.push(new Uint8Array(0), true);
    } catch (e) {
      failure ??= new ArchiveRefused(MESSAGES.badZip((e as Error).message));
    }
    if (failure) throw failure;
    for (const p of pending.splice(0)) yield* parse(p.read, p.data, p.final);
    if (!wanted) throw new ArchiveRefused(MESSAGES.notArchive);
  } finally {
    reader.cancel().catch(() => undefined);
  }
}
