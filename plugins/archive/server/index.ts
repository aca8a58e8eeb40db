// The archive API (issue 39): GET /api/archive/export streams the caller's own conversations
// (one, or all) as shellchat's JSON or Markdown; POST /api/archive/import reads an uploaded
// export as it arrives and writes it conversation by conversation (import/), answering with
// the report. Both are the caller's own only: root exports and imports its own, like anyone.
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import type { AppEnv, ServerPluginContext, ServerPluginModule, UserRow } from '../../../src/core/index.ts';
import type { ImportedRow, ImportReport } from '../common/api.ts';
import { REPORT_ROWS_MAX } from '../common/limits.ts';
import { MESSAGES } from '../common/messages.ts';
import archiveEnv from './env.ts';
import { exportText, rootOf } from './export.ts';
import { answerFields } from '../../../src/core/api/client.ts';
import { readArchive } from './import/read.ts';
import { ArchiveRefused } from './import/refusal.ts';
import { ImportGate } from './import/gate.ts';
import { runImport } from './import/run.ts';
import { spool, UploadCut, type Spooled } from './import/spool.ts';
import { picturesMigration, sourcesMigration, type ArchiveDb } from './table.ts';

type C = Context<AppEnv>;

export { MESSAGES };

export const IMPORT_PATH = '/api/archive/import';

const exportQuery = z.object({
  format: z.enum(['json', 'md']).default('json'),
  session: z.coerce.number().int().positive().optional(),
  all: z.enum(['1', 'true']).optional(),
});
const importQuery = z.object({ name: z.string().max(255).optional(), progress: z.enum(['1', 'true']).optional() });

/** The export's file name: what and when, never anything the caller typed. */
const fileName = (what: string, format: string, now: number) => `shellchat-${what}-${new Date(now).toISOString().slice(0, 10)}.${format}`;

export function archiveRoutes(ctx: ServerPluginContext) {
  const { validate, requireUser, answer, refuse } = ctx;
  const db = ctx.db as unknown as ArchiveDb;
  const limits = archiveEnv.of(ctx);
  const me = (c: C) => c.get('user') as UserRow;
  const gate = new ImportGate(limits.running);

  return new Hono<AppEnv>()
    .get('/api/archive/export', requireUser, validate('query', exportQuery), async (c) => {
      const { format, session, all } = c.req.valid('query');
      const user = me(c);
      const now = ctx.now();
      let root: number | undefined;
      if (!all) {
        // One conversation: the one the given session is in, which must be the caller's own.
        root = session === undefined ? undefined : await rootOf(ctx.db, user, session);
        if (root === undefined) return refuse(c, 404, MESSAGES.nothingToExport);
      }
      const pieces = exportText(ctx.db, user, { root, format, now });
      const encoder = new TextEncoder();
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          try {
            const next = await pieces.next();
            if (next.done) controller.close();
            else controller.enqueue(encoder.encode(next.value));
          } catch (err) {
            ctx.log.error({ err: { message: (err as Error).message } }, 'archive export failed');
            controller.error(err);
          }
        },
        async cancel() {
          await pieces.return(undefined);
        },
      });
      const name = fileName(root === undefined ? 'all' : String(root), format, now);
      return new Response(body, {
        headers: {
          'Content-Type': format === 'json' ? 'application/json; charset=utf-8' : 'text/markdown; charset=utf-8',
          'Content-Disposition': `attachment; filename="${name}"`,
          'Cache-Control': 'no-store',
        },
      }) as unknown as ReturnType<typeof answer<undefined>>;
    })
    .post(IMPORT_PATH, requireUser, validate('query', importQuery), async (c) => {
      const user = me(c);
      const body = c.req.raw.body;
      if (!body) return refuse(c, 400, MESSAGES.notArchive);
      // A place among the imports running, taken before a byte is read or a file made.
      const place = gate.enter(user.id);
      if ('refused' in place) {
        c.header('Retry-After', String(place.retryAfter));
        return place.refused === 'mine' ? refuse(c, 429, MESSAGES.busy) : refuse(c, 503, MESSAGES.serverBusy(place.retryAfter));
      }
      const started = Date.now();
      const deadline = started + limits.seconds * 1000;
      let spooled: Spooled;
      const file = await ctx.scratchFile().catch((err: unknown) => {
        place.release();
        throw err;
      });
      try {
        spooled = await spool(body, file, { ...limits, deadline });
      } catch (err) {
        await file.remove().finally(place.release);
        if (err instanceof ArchiveRefused) return refuse(c, err.status, err.said);
        if (!(err instanceof UploadCut)) throw err;
        // Nobody to answer, and no fault of the server's: 499 as proxies log it (client closed request).
        ctx.log.info({ user: user.username, received: file.size }, 'archive import cut off by the client');
        return new Response(null, { status: 499 }) as unknown as ReturnType<typeof answer<undefined>>;
      }
      const stream = c.req.valid('query').progress !== undefined;
      const origin = ctx.publicUrl || new URL(c.req.url).origin;
      const report: ImportReport = { conversations: [], imported: 0, skipped: 0, refused: 0 };
      // What a streamed answer has not sent yet, and who waits for it (the response's pull).
      const lines: string[] = [];
      let wake: (() => void) | undefined;
      let gone = false;
      const say = (line: object) => {
        // Nobody reads any more (the client went away): the import goes on to its end, unsaid.
        if (!stream || gone) return;
        lines.push(JSON.stringify(line) + '\n');
        wake?.();
      };
      // The report's rows, up to a bound (a hostile archive of tiny items would make it huge); the counts are all.
      const row = (entry: ImportedRow) => {
        report[entry.status]++;
        if (report.conversations.length < REPORT_ROWS_MAX) report.conversations.push(entry);
        else report.unlisted = (report.unlisted ?? 0) + 1;
        say({ row: entry });
      };
      const stopAt = {
        check: () => {
          if (Date.now() > deadline) throw new ArchiveRefused(MESSAGES.tooSlow(limits.seconds), 413);
        },
      };
      /** The import to its end: undefined, or the refusal of an archive of which nothing was read. */
      const work = (async (): Promise<ArchiveRefused | undefined> => {
        try {
          await runImport({ db, ctx, user, archive: readArchive(spooled, { ...limits, deadline }), origin, deadline: stopAt, stopsAt: deadline, row });
          if (!report.conversations.length) return new ArchiveRefused(MESSAGES.noConversations);
        } catch (err) {
          if (!(err instanceof ArchiveRefused)) throw err;
          // Nothing read yet: the archive is refused; else what was written stays and the report says where it stopped.
          if (!report.conversations.length) return err;
          report.stopped = MESSAGES.stopped(err.said).toData();
        } finally {
          await file.remove().finally(place.release);
        }
        if (report.imported) ctx.audit.record(c, { kind: 'archive.import', target: `user:${user.username}`, after: { imported: report.imported, skipped: report.skipped, refused: report.refused } });
        return undefined;
      })();
      const summary = () => MESSAGES.summary(report.imported, report.skipped, report.refused);
      if (!stream) {
        const refused = await work;
        if (refused) return refuse(c, refused.status, refused.said);
        return answer(c, report, summary());
      }
      // Streamed (?progress): a line per conversation as it is written, then the answer itself.
      // Refused before any conversation: the plain refusal, with its status.
      const first = await Promise.race([work.then(() => 'done' as const), new Promise<'row'>((resolve) => (wake = () => resolve('row')))]);
      wake = undefined;
      if (first === 'done') {
        const refused = await work;
        if (refused) return refuse(c, refused.status, refused.said);
      }
      let ended = false;
      work.then(
        (refused) => {
          say(refused ? { success: false, ...answerFields('error', refused.said) } : { success: true, ...answerFields('message', summary()), result: report });
          ended = true;
          wake?.();
        },
        (err: unknown) => {
          ctx.log.error({ err: { message: (err as Error).message } }, 'archive import failed');
          say({ success: false, ...answerFields('error', MESSAGES.wrongShape('the import failed')) });
          ended = true;
          wake?.();
        },
      );
      const encoder = new TextEncoder();
      const out = new ReadableStream<Uint8Array>({
        async pull(controller) {
          while (!lines.length && !ended) await new Promise<void>((resolve) => (wake = resolve));
          wake = undefined;
          if (lines.length) controller.enqueue(encoder.encode(lines.splice(0).join('')));
          else controller.close();
        },
        cancel() {
          gone = true;
          lines.length = 0;
        },
      });
      return new Response(out, { headers: { 'Content-Type': 'application/x-ndjson; charset=utf-8', 'Cache-Control': 'no-store' } }) as unknown as ReturnType<typeof answer<ImportReport>>;
    });
}

export type ArchiveRoutes = ReturnType<typeof archiveRoutes>;

function registerArchive(ctx: ServerPluginContext): void {
  const limits = archiveEnv.of(ctx);
  // The importer counts the bytes as it reads them (import/read.ts): a chunked upload is not held whole.
  ctx.setBodyLimit(IMPORT_PATH, limits.maxBytes, { streamed: true });
  const db = ctx.db as unknown as ArchiveDb;
  ctx.accounts.onDelete(async (userId) => {
    await db.deleteFrom('archive_sources').where('user_id', '=', userId).execute();
    await db.deleteFrom('archive_pictures').where('user_id', '=', userId).execute();
  });
}

const plugin: ServerPluginModule = {
  migrations: { '0001_sources': sourcesMigration, '0002_pictures': picturesMigration },
  routes: archiveRoutes,
  register: registerArchive,
};

export default plugin;
