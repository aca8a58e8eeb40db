// Ranked full-text search over the chunks of file stores, per engine (performance.md §5, B6).
// On SQLite a natural-language question is not sent as an OR of all its words (FTS5 would score
// nearly every row for "the/how/is"): stopwords go, each remaining term's document frequency is
// read from the fts5vocab table, terms too common to discriminate are dropped, the rarest terms
// are ANDed first and, when that finds too little, ORed; the store filter is a column term inside
// the MATCH, and the FTS query runs alone with its own LIMIT before the join.
import { sql } from 'kysely';
import type { StoreHit } from '../common/rules.ts';
import type { StoreDb } from './schema.ts';

const STOPWORDS = new Set(
  (
    'a about above after again against all am an and any are as at be because been before being below between both but by can could did do does doing down during each ' +
    'few for from further had has have having he her here hers herself him himself his how i if in into is it its itself just me more most my myself no nor not now of ' +
    'off on once only or other our ours ourselves out over own same she should so some such than that the their theirs them themselves then there these they this those ' +
    'through to too under until up very was we were what when where which while who whom why will with would you your yours yourself yourselves tell show find give please ' +
    'know want need get got use using used one also like may might must shall let lets much many'
  ).split(' '),
);

/** Words of a text as the unicode61 tokenizer sees them (lower case, letters and digits). */
export function words(text: string): string[] {
  return (text.toLowerCase().normalize('NFKD').replace(/\p{M}/gu, '').match(/[\p{L}\p{N}]+/gu) ?? []);
}

/** The search terms of a question: words without stopwords, each once. */
export function queryTerms(text: string): string[] {
  return [...new Set(words(text).filter((w) => !STOPWORDS.has(w) && w.length <= 64))];
}

/**
 * `text.replace(/\r\n?/g, '\n').replace(/[ \t]+/g, ' ').replace(/\n{3,}/g, '\n\n').trim()`,
 * in one pass into one buffer: those replaces over a 10 MB text list every match before
 * building each result (~150 MB and 0.4 s for a text of single spaces).
 */
function normalize(text: string): string {
  const out = new Uint16Array(text.length);
  let n = 0;
  // Every code unit or'ed: below 256, the text is Latin-1 and is made a one-byte string.
  let units = 0;
  // Line breaks written in a row (a third and more are dropped).
  let breaks = 0;
  for (let i = 0; i < text.length; i++) {
    let c = text.charCodeAt(i);
    if (c === 0x0d) {
      if (text.charCodeAt(i + 1) === 0x0a) i++;
      c = 0x0a;
    }
    if (c === 0x0a) {
      if (breaks++ < 2) out[n++] = c;
      continue;
    }
    breaks = 0;
    if (c === 0x20 || c === 0x09) {
      while (text.charCodeAt(i + 1) === 0x20 || text.charCodeAt(i + 1) === 0x09) i++;
      c = 0x20;
    }
    out[n++] = c;
    units |= c;
  }
  // UTF-16 code units as they are (lone surrogates too: Node does not check them).
  if (units < 0x100) return Buffer.from(out.subarray(0, n)).toString('latin1').trim();
  return Buffer.from(out.buffer, 0, n * 2).toString('utf16le').trim();
}

/** Splits text into chunks of about `size` characters on paragraph, line or sentence breaks. */
export function chunkText(text: string, size = 1000): string[] {
  return splitChunks(normalize(text), size);
}

/** Cuts normalized text into chunks (the part of chunkText after its normalization). */
export function splitChunks(clean: string, size: number): string[] {
  const chunks: string[] = [];
  let rest = clean;
  while (rest.length > size) {
    const window = rest.slice(0, size);
    let cut = Math.max(window.lastIndexOf('\n\n'), window.lastIndexOf('\n'), window.lastIndexOf('. '));
    if (cut < size * 0.5) cut = window.lastIndexOf(' ');
    if (cut < size * 0.5) cut = size;
    chunks.push(rest.slice(0, cut + 1).trim());
    rest = rest.slice(cut + 1);
  }
  if (rest.trim()) chunks.push(rest.trim());
  return chunks.filter(Boolean);
}

/**
 * About `width` characters of a chunk around its first matching term, as the document has them:
 * no highlight markers, which a table of results would show as `**` and the model would read.
 */
export function snippetOf(body: string, terms: string[], width = 240): string {
  const lower = body.toLowerCase();
  let at = -1;
  for (const t of terms) {
    const i = lower.indexOf(t);
    if (i >= 0 && (at < 0 || i < at)) at = i;
  }
  const start = Math.max(0, at < 0 ? 0 : at - Math.floor(width / 3));
  const piece = body.slice(start, start + width).replace(/\s+/g, ' ').trim();
  return `${start > 0 ? '…' : ''}${piece}${start + width < body.length ? '…' : ''}`;
}

const quoteTerm = (t: string) => `"${t.replace(/"/g, '""')}"`;

export interface SqlitePlan {
  /** MATCH expressions to try in order until enough rows come back. */
  matches: string[];
  terms: string[];
}

/**
 * The SQLite query plan for a question within some stores: terms by document frequency,
 * the too-common dropped (above `maxDf` of the corpus, unless nothing else is left), at most
 * `k` of the rarest: AND first, then OR.
 */
export async function planSqlite(db: StoreDb, question: string, storeIds: number[], options: { k?: number; maxDfShare?: number } = {}): Promise<SqlitePlan> {
  const k = options.k ?? 4;
  const terms = queryTerms(question);
  if (!terms.length || !storeIds.length) return { matches: [], terms };
  const dfs = await sql<{ term: string; doc: number }>`SELECT term, doc FROM store_chunks_vocab WHERE term IN (${sql.join(terms)})`.execute(db);
  const df = new Map(dfs.rows.map((r) => [r.term, Number(r.doc)]));
  const present = terms.filter((t) => df.has(t)).sort((a, b) => df.get(a)! - df.get(b)!);
  if (!present.length) return { matches: [], terms };
  const total = Number((await sql<{ n: number }>`SELECT max(rowid) AS n FROM store_chunks_fts`.execute(db)).rows[0]?.n ?? 0);
  const cutoff = Math.max(1000, total * (options.maxDfShare ?? 0.02));
  let chosen = present.filter((t) => df.get(t)! <= cutoff).slice(0, k);
  if (!chosen.length) chosen = present.slice(0, 1);
  const scope = `tag : (${storeIds.map((id) => `s${id}`).join(' OR ')})`;
  const and = `${scope} AND body : (${chosen.map(quoteTerm).join(' AND ')})`;
  const or = `${scope} AND body : (${chosen.map(quoteTerm).join(' OR ')})`;
  return { matches: chosen.length > 1 ? [and, or] : [and], terms: present };
}

export interface ChunkRow {
  id: number;
  store_id: number;
  file: string;
  body: string;
}

/** Top `limit` chunks of the given stores for a question, best first. */
export async function searchChunks(db: StoreDb, engine: 'sqlite' | 'postgres' | 'mysql', question: string, storeIds: number[], limit = 5): Promise<(ChunkRow & { terms: string[] })[]> {
  if (!storeIds.length) return [];
  if (engine === 'sqlite') {
    const plan = await planSqlite(db, question, storeIds);
    const seen = new Set<number>();
    const ids: number[] = [];
    for (const match of plan.matches) {
      const rows = await sql<{ rowid: number }>`SELECT rowid FROM store_chunks_fts WHERE store_chunks_fts MATCH ${match} ORDER BY rank LIMIT ${limit}`.execute(db);
      for (const r of rows.rows) if (!seen.has(r.rowid) && ids.length < limit) (seen.add(r.rowid), ids.push(r.rowid));
      if (ids.length >= limit) break;
    }
    return withBodies(db, ids, plan.terms);
  }
  const terms = queryTerms(question);
  if (!terms.length) return [];
  if (engine === 'postgres') {
    const ids: number[] = [];
    for (const op of [' & ', ' | ']) {
      const query = terms.map((t) => t.replace(/[^\p{L}\p{N}]/gu, '')).filter(Boolean).join(op);
      const rows = await sql<{ id: number }>`SELECT id FROM store_chunks WHERE store_id IN (${sql.join(storeIds)}) AND tsv @@ to_tsquery('simple', ${query})
        ORDER BY ts_rank(tsv, to_tsquery('simple', ${query})) DESC LIMIT ${limit}`.execute(db);
      for (const r of rows.rows) if (!ids.includes(r.id) && ids.length < limit) ids.push(r.id);
      if (ids.length >= limit) break;
    }
    return withBodies(db, ids, terms);
  }
  const rows = await sql<{ id: number }>`SELECT id FROM store_chunks WHERE store_id IN (${sql.join(storeIds)}) AND MATCH(body) AGAINST (${terms.join(' ')} IN NATURAL LANGUAGE MODE)
    ORDER BY MATCH(body) AGAINST (${terms.join(' ')} IN NATURAL LANGUAGE MODE) DESC LIMIT ${limit}`.execute(db);
  return withBodies(db, rows.rows.map((r) => r.id), terms);
}

async function withBodies(db: StoreDb, ids: number[], terms: string[]): Promise<(ChunkRow & { terms: string[] })[]> {
  if (!ids.length) return [];
  const rows = await db
    .selectFrom('store_chunks')
    .innerJoin('store_files', 'store_files.id', 'store_chunks.file_id')
    .select(['store_chunks.id as id', 'store_chunks.store_id as store_id', 'store_files.name as file', 'store_chunks.body as body'])
    .where('store_chunks.id', 'in', ids)
    .execute();
  const byId = new Map(rows.map((r) => [Number(r.id), r]));
  return ids.flatMap((id) => {
    const r = byId.get(Number(id));
    return r ? [{ id: Number(r.id), store_id: Number(r.store_id), file: r.file, body: r.body, terms }] : [];
  });
}

export function toHits(rows: (ChunkRow & { terms: string[] })[], storeName: (id: number) => string): StoreHit[] {
  return rows.map((r) => ({ store: storeName(r.store_id), source: r.file, snippet: snippetOf(r.body, r.terms) }));
}
