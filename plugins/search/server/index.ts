// `GET /api/log/search`: one's own logs that hold every word of a search, ranked, with snippets;
// `GET /api/log/search/open`: one of them, to open it. A login is needed (spec part 6), and each
// user, root too, finds only their own logs; a visitor's logs are found once an account adopted
// them at login (the index follows the logs' owner: schema.ts).
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import type { AppEnv, ServerPluginContext, ServerPluginModule, UserRow } from '../../../src/core/index.ts';
import { SEARCH_TEXT_MAX, type OpenedLog } from '../common/api.ts';
import { MESSAGES } from '../common/messages.ts';
import { cjkMigration } from './cjkSchema.ts';
import { pgWordsMigration } from './pgWords.ts';
import { searchMigration } from './schema.ts';
import { logSearch } from './search.ts';
import { searchTerms } from './terms.ts';
import { logWords } from './words.ts';

export { MESSAGES };

const searchQuery = z.object({ text: z.string().trim().min(1).max(SEARCH_TEXT_MAX) });
const openQuery = z.object({ session: z.coerce.number().int().nonnegative(), time: z.coerce.number().int().nonnegative() });

function images(json: string): string[] {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

export function searchRoutes(ctx: ServerPluginContext) {
  const { db, engine, validate, requireUser, answer, refuse } = ctx;
  const finder = logSearch(db, engine);
  // PostgreSQL's index holds the words the server cut (pgWords.ts); the other engines tokenize fast enough themselves.
  if (engine === 'postgres') ctx.sessions.addLogColumn({ name: 'search_words', value: logWords });
  const me = (c: Context<AppEnv>) => c.get('user') as UserRow;

  return new Hono<AppEnv>()
    .get('/api/log/search', requireUser, validate('query', searchQuery), async (c) => {
      const terms = searchTerms(c.req.valid('query').text);
      return answer(c, { logs: await finder.search(me(c).id, terms) });
    })
    .get('/api/log/search/open', requireUser, validate('query', openQuery), async (c) => {
      const { session, time } = c.req.valid('query');
      const user = me(c);
      const log = await db
        .selectFrom('logs')
        .select(['session', 'time', 'model', 'input', 'output', 'images'])
        .where('session', '=', session)
        .where('time', '=', time)
        .where('user_id', '=', user.id)
        .executeTakeFirst();
      if (!log) return refuse(c, 404, MESSAGES.noLog);
      const head = await db
        .selectFrom('logs')
        .select((eb) => eb.fn.max('time').as('head'))
        .where('session', '=', session)
        .executeTakeFirst();
      const opened: OpenedLog = {
        session: Number(log.session),
        time: Number(log.time),
        model: log.model,
        input: log.input,
        output: log.output,
        images: images(log.images),
        head: Number(head?.head ?? log.time),
      };
      return answer(c, opened);
    });
}

export type SearchRoutes = ReturnType<typeof searchRoutes>;

const plugin: ServerPluginModule = {
  migrations: { '0001_log_index': searchMigration, '0002_cjk_index': cjkMigration, '0003_pg_words': pgWordsMigration },
  routes: searchRoutes,
};

export default plugin;
