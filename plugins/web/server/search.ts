// The search backends, each a small adapter from the operator's service to one result shape:
// SearXNG's JSON API (self-hosted, no key) and the Brave Search API (a key). The backend is
// operator-trusted (plain fetch), but what it returns is not: titles and snippets are made
// plain text (tags, entities and control characters out) and capped before anyone sees them.
import { MessageError } from '../../../src/core/messages.ts';
import { MESSAGES } from '../common/messages.ts';
import type { SearchResult } from '../common/api.ts';
import { plainText } from './plain.ts';
import type { WebConfig } from './env.ts';

export interface SearchBackend {
  name: string;
  search(query: string, count: number, signal: AbortSignal): Promise<SearchResult[]>;
}

const TITLE_MAX = 200;
const SNIPPET_MAX = 400;

/** One result made safe: plain text, capped, an http(s) URL or nothing. */
function result(n: number, raw: { title?: unknown; url?: unknown; snippet?: unknown }): SearchResult | undefined {
  const url = typeof raw.url === 'string' ? URL.parse(raw.url) : null;
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) return undefined;
  const title = plainText(String(raw.title ?? '')).slice(0, TITLE_MAX) || url.hostname;
  return { n, title, url: url.href, site: url.hostname.replace(/^www\./, ''), snippet: plainText(String(raw.snippet ?? '')).slice(0, SNIPPET_MAX) };
}

function numbered(raws: { title?: unknown; url?: unknown; snippet?: unknown }[], count: number): SearchResult[] {
  const out: SearchResult[] = [];
  for (const raw of raws) {
    const made = result(out.length + 1, raw);
    if (made) out.push(made);
    if (out.length >= count) break;
  }
  return out;
}

async function getJson(url: string, headers: Record<string, string>, signal: AbortSignal): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, { headers: { accept: 'application/json', ...headers }, signal });
  } catch (err) {
    throw new MessageError(MESSAGES.backendFailed(signal.aborted ? 'timed out' : String((err as Error).message).slice(0, 200)));
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new MessageError(MESSAGES.backendFailed(`status ${response.status}`));
  }
  try {
    return await response.json();
  } catch {
    throw new MessageError(MESSAGES.backendFailed('not JSON'));
  }
}

/** SearXNG: GET <base>/search?q=...&format=json → { results: [{ title, url, content }] }. */
export const searxng = (base: string): SearchBackend => ({
  name: 'searxng',
  async search(query, count, signal) {
    const body = (await getJson(`${base}/search?q=${encodeURIComponent(query)}&format=json`, {}, signal)) as { results?: { title?: unknown; url?: unknown; content?: unknown }[] };
    const rows = Array.isArray(body?.results) ? body.results : [];
    return numbered(rows.map((r) => ({ title: r.title, url: r.url, snippet: r.content })), count);
  },
});

/** Brave: GET <base>/web/search?q=...&count=N with X-Subscription-Token → { web: { results: [{ title, url, description }] } }. */
export const brave = (base: string, key: string): SearchBackend => ({
  name: 'brave',
  async search(query, count, signal) {
    const url = `${base}/web/search?q=${encodeURIComponent(query)}&count=${count}`;
    const body = (await getJson(url, { 'x-subscription-token': key }, signal)) as { web?: { results?: { title?: unknown; url?: unknown; description?: unknown }[] } };
    const rows = Array.isArray(body?.web?.results) ? body.web.results : [];
    return numbered(rows.map((r) => ({ title: r.title, url: r.url, snippet: r.description })), count);
  },
});

/** The backend the operator configured (SearXNG first), or none. */
export function backendOf(config: WebConfig): SearchBackend | undefined {
  if (config.searxngUrl) return searxng(config.searxngUrl);
  if (config.braveKey) return brave(config.braveUrl, config.braveKey);
  return undefined;
}
