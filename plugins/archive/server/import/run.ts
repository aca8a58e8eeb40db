// One import, from the archive's conversations to the report's rows: each conversation converted,
// then written in batches (write.ts), its pictures stored first (assets.ts), one batch written
// while the next is read; every row is handed on as soon as its batch is written, so a client
// can show progress while it runs.
import type { MessageData, ServerPluginContext, UserRow } from '../../../../src/core/index.ts';
import type { ImportedRow } from '../../common/api.ts';
import { MESSAGES } from '../../common/messages.ts';
import type { ArchiveDb } from '../table.ts';
import { storeAssets, type Stored } from './assets.ts';
import type { ImportedConversation } from './model.ts';
import { pictureStore } from './pictures.ts';
import type { Archive } from './read.ts';
import { ArchiveRefused, ConversationRefused } from './refusal.ts';
import { convert } from './sources.ts';
import { alreadyThere, writeAll, type Deadline, type Written } from './write.ts';
import { breather } from './read.ts';

/** Conversations written together, at most, and their characters: what a batch holds in memory. */
const BATCH_CONVERSATIONS = 100;
const BATCH_CHARS = 4 * 1024 * 1024;

type Read = { conversation: ImportedConversation; stored?: Stored };
type Entry = Read | { refused: MessageData };

export interface ImportRun {
  db: ArchiveDb;
  ctx: ServerPluginContext;
  user: UserRow;
  archive: Archive;
  /** The origin of the pictures' upload URLs. */
  origin: string;
  deadline: Deadline;
  /** When the import must stop (Date.now()). */
  stopsAt: number;
  row(entry: ImportedRow): void;
}

const charsOf = (c: ImportedConversation) => c.sessions.reduce((n, s) => n + s.logs.reduce((m, l) => m + l.input.length + l.output.length, 0), 0);

export async function runImport(run: ImportRun): Promise<void> {
  const { ctx, db, user } = run;
  let batch: Entry[] = [];
  let chars = 0;
  const breathe = breather();
  const pictures = pictureStore(db, ctx.uploads, user.id, run.origin);
  const options = () => ({ now: ctx.now(), deadline: run.deadline, columns: ctx.sessions.logColumns });

  /** Writes one batch and says its rows, in the archive's order. */
  const write = async (entries: Entry[]) => {
    const read = entries.filter((e): e is Read => 'conversation' in e);
    const there = await alreadyThere(db, user, read.map((e) => e.conversation));
    // The same conversation twice in one archive: the second is the first, already there.
    const firstOf = new Map<string, Read>();
    const todo: Read[] = [];
    read.forEach((e, i) => {
      const key = `${e.conversation.source}\u0000${e.conversation.sourceId}`;
      if (there.has(i) || firstOf.has(key)) return;
      firstOf.set(key, e);
      todo.push(e);
    });
    for (const e of todo) e.stored = await storeAssets(e.conversation, run.archive.asset, pictures);
    const results = new Map<Read, Written | Error>();
    try {
      (await writeAll(db, user, todo.map((e) => e.conversation), options())).forEach((w, i) => results.set(todo[i]!, w));
    } catch (err) {
      if (err instanceof ArchiveRefused) {
        // Stopped at the deadline: nothing of this batch was written, its pictures go too.
        await pictures.forget(todo.flatMap((e) => e.stored?.uploads ?? []));
        throw err;
      }
      // One of them could not be written: each alone, so that only that one is refused.
      try {
        for (const e of todo) {
          try {
            results.set(e, (await writeAll(db, user, [e.conversation], options()))[0]!);
          } catch (one) {
            if (one instanceof ArchiveRefused) throw one;
            ctx.log.warn({ err: { message: (one as Error).message } }, 'archive import: a conversation failed');
            results.set(e, one as Error);
          }
        }
      } finally {
        // The pictures of those not written (failed, or stopped before) go, but not one a written one links to too.
        const written = (e: Read) => results.has(e) && !(results.get(e) instanceof Error);
        const kept = new Set(todo.filter(written).flatMap((e) => e.stored?.linked ?? []));
        await pictures.forget(todo.filter((e) => !written(e)).flatMap((e) => e.stored?.uploads ?? []).filter((id) => !kept.has(id)));
      }
    }
    let i = 0;
    for (const e of entries) {
      if (!('conversation' in e)) {
        run.row({ title: '', source: '', status: 'refused', reason: e.refused });
        continue;
      }
      const { title, source } = e.conversation;
      const written = results.get(e);
      const at = i++;
      if (written instanceof Error) run.row({ title, source, status: 'refused', reason: MESSAGES.wrongShape('it could not be written').toData() });
      else if (written?.status === 'imported') {
        const note = e.stored?.left ? MESSAGES.picturesLeftOut(e.stored.left, e.stored.reason ?? '').toData() : undefined;
        run.row({ title, source, status: 'imported', session: written.session, sessions: written.sessions, logs: written.logs, ...(note ? { note } : {}) });
      } else {
        const first = results.get(firstOf.get(`${source}\u0000${e.conversation.sourceId}`)!);
        const session = there.get(at) ?? (first && !(first instanceof Error) ? first.session : undefined);
        run.row({ title, source, status: 'skipped', ...(session !== undefined ? { session } : {}) });
      }
    }
  };

  // One batch is written while the next is read (the database works beside the parser: on
  // PostgreSQL the import then costs about the larger of the two, not their sum); never more.
  let writing: Promise<void> = Promise.resolve();
  let failed: { err: unknown } | undefined;
  const written = async () => {
    await writing;
    if (failed) throw failed.err;
  };
  const flush = async () => {
    await written();
    const entries = batch;
    batch = [];
    chars = 0;
    if (entries.length) writing = write(entries).catch((err: unknown) => void (failed = { err }));
  };

  try {
    for await (const item of run.archive.items) {
      await breathe();
      // Refused while read or converted: its row keeps its place among the batch's.
      if ('refused' in item) batch.push({ refused: item.refused.toData() });
      else {
        try {
          const conversation = convert(item.value, ctx.now());
          batch.push({ conversation });
          chars += charsOf(conversation);
        } catch (err) {
          if (!(err instanceof ConversationRefused)) throw err;
          batch.push({ refused: err.said.toData() });
        }
      }
      if (batch.length >= BATCH_CONVERSATIONS || chars >= BATCH_CHARS) await flush();
    }
  } catch (err) {
    // The archive stopped (a bound passed): what was read before it is still written, then the stop is said.
    if (err instanceof ArchiveRefused && Date.now() <= run.stopsAt && !failed) await flush();
    await writing;
    throw err;
  }
  await flush();
  await written();
}
