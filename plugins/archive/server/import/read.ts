// An uploaded archive as a stream of conversations, without holding it in memory: the body is
// first written to a scratch file as it arrives (spool.ts; the request then ends, so Node's
// request timeout never cuts a long import), then read from there: a zip (ChatGPT's or
// Claude's export) by its central directory (zipFile.ts), its conversations*.json entries
// parsed as they inflate, or a JSON file parsed as it is read. What it is comes from its first
// bytes, never from its name. The bounds: bytes received, bytes actually inflated, entries,
// time (the caller's deadline), and those of items.ts; the event loop gets a turn every piece.
import { UPLOAD_MAX_BYTES } from '../../../../src/core/index.ts';
import { MESSAGES } from '../../common/messages.ts';
import { ItemReader, type Item } from './items.ts';
import { ArchiveRefused } from './refusal.ts';
import type { Spooled } from './spool.ts';
import { entryBytes, zipEntries, type ZipEntry } from './zipFile.ts';

export interface ReadLimits {
  maxBytes: number;
  maxInflated: number;
  /** When the import must stop (Date.now()), and what it says then. */
  deadline: number;
  seconds: number;
}

/**
 * JSON is parsed at most PARSE at a time (the tokenizer's cost grows faster than its input's
 * size); the event loop gets a turn every 3 ms of work (breather): a request waits for a few
 * of those, not for the import.
 */
const PARSE = 4 * 1024;
const READ = 64 * 1024;
const MB = 1024 * 1024;
/** The entries read: ChatGPT's and Claude's conversations files (split or not), shellchat's own. */
const WANTED = /(^|\/)(conversations(-\d+)?|shellchat[^/]*)\.json$/i;
/**
 * A file a ChatGPT export carries: `file-<id>-<name>.png`, `file_<id>-<uuid>.jpeg`, in any folder
 * (`dalle-generations/`); any type: one an upload cannot be (a .webp) is left out and said.
 */
const ASSET = /(?:^|\/)(file[-_][A-Za-z0-9]+)[^/]*\.[A-Za-z0-9]+$/;

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

/** A picture the archive carries, by the id its conversations name it with. */
export type AssetReader = (id: string) => Promise<{ name: string; data: Uint8Array } | { name: string; tooLarge: true } | undefined>;

export interface Archive {
  items: AsyncGenerator<Item>;
  /** The archive's pictures (a ChatGPT zip's `file-...` images); nothing for a JSON file. */
  asset: AssetReader;
}

/** The archive in a spooled file: its conversations in order, and its pictures on demand. */
export function readArchive(spooled: Spooled, limits: ReadLimits): Archive {
  const file = spooled.file;
  let inflated = 0;
  const count = (bytes: number) => {
    // Every inflated byte counts, conversations and pictures alike.
    inflated += bytes;
    if (inflated > limits.maxInflated) throw new ArchiveRefused(MESSAGES.inflatedTooLarge(Math.round(limits.maxInflated / MB)), 413);
  };
  const check = () => {
    if (Date.now() > limits.deadline) throw new ArchiveRefused(MESSAGES.tooSlow(limits.seconds), 413);
  };
  const breathe = breather();
  /** Parses bytes a piece at a time, with a turn of the event loop now and then. */
  async function* parse(read: JsonText, data: Uint8Array): AsyncGenerator<Item> {
    for (let at = 0; at < data.length; at += PARSE) {
      yield* read.push(data.subarray(at, at + PARSE));
      const pause = breathe();
      if (pause) {
        check();
        await pause;
      }
    }
  }
  let entries: Promise<ZipEntry[]> | undefined;
  const directory = () => (entries ??= zipEntries(file, spooled.size));
  let assets: Map<string, ZipEntry> | undefined;

  async function* items(): AsyncGenerator<Item> {
    if (spooled.kind === 'json') {
      const json = new JsonText();
      for (let at = 0; at < spooled.size; at += READ) {
        check();
        yield* parse(json, await file.read(at, Math.min(READ, spooled.size - at)));
      }
      yield* json.end();
      return;
    }
    const wanted = (await directory()).filter((e) => WANTED.test(e.name));
    if (!wanted.length) throw new ArchiveRefused(MESSAGES.notArchive);
    for (const entry of wanted) {
      const json = new JsonText();
      for await (const data of entryBytes(file, entry, count)) {
        check();
        yield* parse(json, data);
      }
      yield* json.end();
    }
  }

  const asset: AssetReader = async (id) => {
    if (spooled.kind !== 'zip') return undefined;
    if (!assets) {
      assets = new Map();
      for (const e of await directory()) {
        const m = ASSET.exec(e.name);
        if (m && !assets.has(m[1]!)) assets.set(m[1]!, e);
      }
    }
    const entry = assets.get(id);
    if (!entry) return undefined;
    const pieces: Uint8Array[] = [];
    let size = 0;
    for await (const data of entryBytes(file, entry, count)) {
      size += data.length;
      // Past an upload's size it is refused anyway: not inflated further.
      if (size > UPLOAD_MAX_BYTES) return { name: entry.name.split('/').pop()!, tooLarge: true };
      pieces.push(data);
      // A picture's pieces come in one stretch otherwise: 10 MB of a bomb held the loop 0.2-0.6 s.
      await breathe();
    }
    return { name: entry.name.split('/').pop()!, data: Buffer.concat(pieces) };
  };

  return { items: items(), asset };
}
