// The web plugin on the server (issue 37): search through the operator's backend, reading
// pages through the egress-safe fetch, and what the model gets of both. Routes for `:web`
// (search, open, the list of reads), the system functions web_search and web_fetch (off until
// `:function use`), and a context provider that hands the next question the pages read for it
// and runs the search a `+web[query]` asks for. Every search and read is counted (ledger.ts).
import { Hono } from 'hono';
import { z } from 'zod';
import { MessageError, saidBy, type AppEnv, type ServerPluginContext, type ServerPluginModule, type SessionOwner, type ServerTool } from '../../../src/core/index.ts';
import { QUERY_MAX, READS_LISTED, URL_MAX, type SearchResult } from '../common/api.ts';
import { MESSAGES } from '../common/messages.ts';
import { WEB_FUNCTIONS } from '../common/functions.ts';
import { markedUrls } from '../common/marker.ts';
import { pageText, resultsText, webDirective } from './context.ts';
import webEnv, { type WebConfig } from './env.ts';
import { extractPoolOf, pageReader } from './extractPool.ts';
import { budgetOf, createLedger, type Ledger, type TurnBudget } from './ledger.ts';
import { cutOf, readPage, type Page } from './read.ts';
import { createReads, readsMigration, type Reads, type WebDb } from './reads.ts';
import { backendOf } from './search.ts';

interface Web {
  config: WebConfig;
  ledger: Ledger;
  reads: Reads;
  search(owner: SessionOwner, query: string, budget: TurnBudget | undefined, signal: AbortSignal): Promise<SearchResult[]>;
  read(owner: SessionOwner, url: string, budget: TurnBudget | undefined, signal: AbortSignal): Promise<Page>;
}

const made = new WeakMap<ServerPluginContext, Web>();

/** The plugin's parts for this server (one set, shared by the routes and the turn's hooks). */
function webOf(ctx: ServerPluginContext): Web {
  const existing = made.get(ctx);
  if (existing) return existing;
  const config = webEnv.of(ctx);
  const ledger = createLedger(config, { withUseLocks: ctx.withUseLocks, now: () => ctx.now(), visitorsPerAddress: ctx.config.visitorsPerAddress });
  const backend = backendOf(config);
  const tools = { extractText: (name: string, data: Uint8Array) => ctx.attachments.extractText(name, data), pageOf: pageReader(extractPoolOf(ctx, config)) };
  const web: Web = {
    config,
    ledger,
    reads: createReads(ctx.db as unknown as WebDb, () => ctx.now()),
    async search(owner, query, budget, signal) {
      if (!backend) throw new MessageError(MESSAGES.notConfigured);
      await ledger.spend(owner, 'web_search', budget);
      return backend.search(query, config.results, AbortSignal.any([signal, AbortSignal.timeout(config.searchTimeoutMs)]));
    },
    async read(owner, url, budget, signal) {
      if (!/^https?:\/\//i.test(url)) throw new MessageError(MESSAGES.badUrl);
      await ledger.spend(owner, 'web_fetch', budget);
      return readPage(ctx.egressFetch, tools, url, { maxBytes: config.pageMaxBytes, timeoutMs: config.pageTimeoutMs, wantChars: config.pageMaxChars }, signal);
    },
  };
  made.set(ctx, web);
  return web;
}

const searchBody = z.object({ query: z.string().trim().min(1).max(QUERY_MAX) });
const openBody = z.object({ url: z.string().trim().min(1).max(URL_MAX) });

/** A refusal's status: a limit is 429, a missing backend 503, a page or a backend that failed 502. */
function statusOf(err: unknown): 429 | 503 | 502 | 400 {
  const said = saidBy(err);
  const code = typeof said === 'string' ? '' : said.code;
  if (code === 'web.limit' || code === 'web.turnLimit') return 429;
  if (code === 'web.notConfigured') return 503;
  if (code === 'web.badUrl') return 400;
  return 502;
}

export function webRoutes(ctx: ServerPluginContext) {
  const { validate, answer, refuse, sessions } = ctx;
  const failed = (c: Parameters<typeof refuse>[0], err: unknown) => {
    if (!(err instanceof MessageError)) ctx.log.warn({ err: { message: String((err as Error)?.message) } }, 'web request failed');
    return refuse(c, statusOf(err), err instanceof MessageError ? saidBy(err) : MESSAGES.notFetched(MESSAGES.unexpected));
  };
  return new Hono<AppEnv>()
    .post('/api/web/search', validate('json', searchBody), async (c) => {
      const web = webOf(ctx);
      const { query } = c.req.valid('json');
      try {
        const results = await web.search(sessions.owner(c), query, undefined, c.req.raw.signal);
        return answer(c, { backend: backendOf(web.config)?.name ?? '', results });
      } catch (err) {
        return failed(c, err);
      }
    })
    .post('/api/web/open', validate('json', openBody), async (c) => {
      const web = webOf(ctx);
      const owner = sessions.owner(c);
      try {
        const page = await web.read(owner, c.req.valid('json').url, undefined, c.req.raw.signal);
        const text = page.text.slice(0, web.config.pageMaxChars);
        const { cut, cuts } = cutOf(page.text.length > text.length ? [...page.cuts, { why: 'chars', past: page.text.length - text.length, max: web.config.pageMaxChars }] : page.cuts);
        await web.reads.add(owner, { ...page, text, cut }, true);
        return answer(c, { title: page.title, url: page.url, chars: text.length, cut, cuts, pending: true, created_at: ctx.now() });
      } catch (err) {
        return failed(c, err);
      }
    })
    .get('/api/web/reads', async (c) => {
      const reads = await webOf(ctx).reads.list(sessions.owner(c), READS_LISTED);
      return answer(c, { reads });
    });
}

export type WebRoutes = ReturnType<typeof webRoutes>;

/** web_search and web_fetch as the model calls them: failures come back as words, the turn goes on. */
function webTools(ctx: ServerPluginContext): Record<string, ServerTool> {
  const web = webOf(ctx);
  const spec = (name: string) => WEB_FUNCTIONS.find((f) => f.name === name)!;
  const who = (context: { user: SessionOwner['user']; owner?: SessionOwner }): SessionOwner =>
    context.owner ?? { user: context.user, deviceId: '', root: false };
  const arg = (args: unknown, name: string, max: number): string => {
    const value = args && typeof args === 'object' ? (args as Record<string, unknown>)[name] : undefined;
    if (typeof value !== 'string' || !value.trim()) throw new MessageError(`The argument "${name}" is required.`);
    return value.trim().slice(0, max);
  };
  const run = async (work: () => Promise<string>): Promise<{ result: string }> => {
    try {
      return { result: await work() };
    } catch (err) {
      if (err instanceof MessageError) return { result: `Error: ${String(saidBy(err))}` };
      throw err;
    }
  };
  return {
    web_search: {
      description: spec('web_search').description!,
      parameters: spec('web_search').parameters!,
      execute: (args, context) =>
        run(async () => {
          const query = arg(args, 'query', QUERY_MAX);
          const budget = budgetOf(context.signal);
          const results = await web.search(who(context), query, budget, context.signal);
          return resultsText(query, results, budget, web.config.turnMaxChars);
        }),
    },
    web_fetch: {
      description: spec('web_fetch').description!,
      parameters: spec('web_fetch').parameters!,
      execute: (args, context) =>
        run(async () => {
          const url = arg(args, 'url', URL_MAX);
          const budget = budgetOf(context.signal);
          const owner = who(context);
          const page = await web.read(owner, url, budget, context.signal);
          const text = pageText(page, budget, web.config.pageMaxChars, web.config.turnMaxChars);
          if (owner.user || owner.deviceId) await web.reads.add(owner, { ...page, text: page.text.slice(0, web.config.pageMaxChars) }, false);
          return text;
        }),
    },
  };
}

const plugin: ServerPluginModule = {
  migrations: { '0001_web_reads': readsMigration },
  routes: webRoutes,
  register(ctx) {
    const web = webOf(ctx);
    for (const [name, tool] of Object.entries(webTools(ctx))) ctx.generation.addTool(name, tool);
    // A visitor's reads go on into the account they log in to, as their conversation does.
    ctx.sessions.onAdopt((db, deviceId, userId) => web.reads.adopt(db, deviceId, userId));
    // A `+web[query]` that cannot search (no backend, the web usage limit or the per-question
    // limit reached) is refused before anything is asked or spent, in `:web`'s words: the person
    // asked for the web, and an answer without it would read as if it had searched. The
    // question comes back into the input to send later or without it.
    ctx.generation.addGuard(async ({ request, owner }) => {
      if (!webDirective(request.user_input)) return undefined;
      if (!backendOf(web.config)) return MESSAGES.notConfigured;
      try {
        await web.ledger.check(owner);
        return undefined;
      } catch (err) {
        if (err instanceof MessageError) return saidBy(err);
        throw err;
      }
    });
    // The pages this question carries the markers of (`+page[url]`), and the search a `+web[query]` asks for.
    ctx.generation.addContextProvider(async ({ request, owner, signal, status }) => {
      if (!owner) return;
      const budget = budgetOf(signal);
      // The search first: one that fails (the backend down or answering an error, a limit
      // reached by a question sent at the same time) refuses the question with its one line, as
      // the guard does, while the model has not been asked yet; the pages the question names
      // still wait for it when it is sent again.
      const query = webDirective(request.user_input);
      let results: SearchResult[] = [];
      if (query) {
        status(MESSAGES.searching);
        results = await web.search(owner, query, budget, signal);
      }
      const system: string[] = [];
      for (const page of await web.reads.takeNamed(owner, markedUrls(request.user_input))) {
        system.push(pageText({ url: page.url, title: page.title, text: page.body, cut: page.cut }, budget, web.config.pageMaxChars, web.config.turnMaxChars));
      }
      if (query) system.push(resultsText(query, results, budget, web.config.turnMaxChars));
      return system.length ? { system } : undefined;
    });
  },
};

export default plugin;
