// The web plugin's variables (issue 37): which search backend answers `:web "query"`,
// `web_search` and `+web[query]` (operator-trusted, fetched with plain `fetch`), and the caps
// on what a page read may cost (its bytes, time and text) and on how much one person may use.
import { definePluginEnv, doc, httpUrl, number, text } from '../../../src/core/envVars.ts';
import { parseUsageLimits } from '../../../src/core/usage.ts';
import { z } from 'zod';

/** WEB_USAGE_LIMITS: USAGE_LIMITS's form, counting searches and page reads together. */
const limits = z
  .string()
  .optional()
  .transform((value, ctx) => {
    try {
      return parseUsageLimits(value ?? 'anonymous:30,150,400;user:300,-,-');
    } catch (err) {
      // The start line names the variable already: the message says only what is wrong with it.
      ctx.addIssue({ code: 'custom', message: (err as Error).message.replace(/^USAGE_LIMITS: /, '') });
      return z.NEVER;
    }
  });

const webEnv = definePluginEnv(
  {
    SEARXNG_URL: doc(httpUrl(''), '', 'A SearXNG instance\'s base URL for web search (its JSON API, `/search?format=json`, must be enabled); operator-trusted, plain `fetch`. Preferred over Brave when both are set'),
    BRAVE_SEARCH_API_KEY: doc(text(), '', 'Brave Search API key: web search through Brave when SEARXNG_URL is not set. Without either, the web commands say that search is not configured'),
    BRAVE_SEARCH_URL: doc(httpUrl('https://api.search.brave.com/res/v1'), '`https://api.search.brave.com/res/v1`', 'Brave Search API base (`/web/search`)'),
    WEB_RESULTS: doc(number(8, 1, 20, true), '`8`', 'Search results listed and given to the model per search'),
    WEB_SEARCH_TIMEOUT_MS: doc(number(10_000, 500, 60_000, true), '`10000`', 'Longest wait for the search backend, in milliseconds'),
    WEB_PAGE_MAX_BYTES: doc(number(3 * 1024 * 1024, 16 * 1024, 10 * 1024 * 1024, true), '`3145728` (3 MiB)', 'Bytes of a page read at most (through the egress-safe fetch); a longer page is read up to here and said to be cut. An HTML page is read only as far as its text is taken from (480,000 bytes: 120,000 characters of HTML)'),
    WEB_PAGE_TIMEOUT_MS: doc(number(15_000, 500, 60_000, true), '`15000`', 'Longest time to read one page (all redirects and the body), in milliseconds'),
    WEB_PAGE_MAX_CHARS: doc(number(20_000, 500, 200_000, true), '`20000`', 'Characters of one page\'s text given to the model; what is cut is said'),
    WEB_TURN_MAX_CHARS: doc(number(40_000, 1000, 400_000, true), '`40000`', 'Characters of web text (pages and results) given to the model in one question, all together'),
    WEB_TURN_MAX_CALLS: doc(number(8, 1, 50, true), '`8`', 'Searches and page reads one question may make (the model\'s calls and `+web[...]`); a visitor gets WEB_VISITOR_TURN_MAX_CALLS'),
    WEB_VISITOR_TURN_MAX_CALLS: doc(number(3, 0, 50, true), '`3`', 'Searches and page reads one question of a visitor (not logged in) may make'),
    WEB_EXTRACT_WORKERS: doc(number(2, 1, 16, true), '`2`', 'Worker threads HTML pages are turned into text in, at once (more wait, up to 128)'),
    WEB_EXTRACT_TIMEOUT_MS: doc(number(5_000, 100, 60_000, true), '`5000`', 'Longest time one page\'s HTML may take to become text, in milliseconds: past it its worker thread is ended and replaced, and the read says so'),
    WEB_USAGE_LIMITS: doc(limits, '`anonymous:30,150,400;user:300,-,-`', 'Searches and page reads per role and rolling day, week and month, in USAGE_LIMITS\'s form (`role:daily,weekly,monthly;...`); counted in the usage ledger; root has none'),
  },
  (e) => ({
    searxngUrl: e.SEARXNG_URL,
    braveKey: e.BRAVE_SEARCH_API_KEY,
    braveUrl: e.BRAVE_SEARCH_URL,
    results: e.WEB_RESULTS,
    searchTimeoutMs: e.WEB_SEARCH_TIMEOUT_MS,
    pageMaxBytes: e.WEB_PAGE_MAX_BYTES,
    pageTimeoutMs: e.WEB_PAGE_TIMEOUT_MS,
    pageMaxChars: e.WEB_PAGE_MAX_CHARS,
    turnMaxChars: e.WEB_TURN_MAX_CHARS,
    turnMaxCalls: e.WEB_TURN_MAX_CALLS,
    visitorTurnMaxCalls: e.WEB_VISITOR_TURN_MAX_CALLS,
    usageLimits: e.WEB_USAGE_LIMITS,
    extractWorkers: e.WEB_EXTRACT_WORKERS,
    extractTimeoutMs: e.WEB_EXTRACT_TIMEOUT_MS,
  }),
);

export default webEnv;
export type WebConfig = ReturnType<typeof webEnv.config>;
