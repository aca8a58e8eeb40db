// The search plugin's pure parts: a search text as index terms (any FTS syntax only words, a
// bounded count), snippets with the matched words' ranges, a result as a list item, and how
// the terminal prints items that run a command.
import { describe, expect, it } from 'vitest';
import { listText } from '../../src/cli/render.ts';
import { resultItem } from './common/index.ts';
import { SEARCH_TERMS_MAX } from './common/api.ts';
import { sqliteMatch } from './server/search.ts';
import { isCjk, markTerms, searchTerms, snippet } from './server/terms.ts';
import { cjkGrams, LOG_WORDS_MAX, logWords } from './server/words.ts';

describe('search terms', () => {
  it('keeps only words, folded, each once, at most SEARCH_TERMS_MAX', () => {
    expect(searchTerms('NEAR("docker" compose*) -swarm OR (Über')).toEqual(['near', 'docker', 'compose', 'swarm', 'or', 'uber']);
    expect(searchTerms('" * ( ) - : ^ {} \' \\ % _')).toEqual([]);
    expect(searchTerms(Array.from({ length: 50 }, (_, i) => `w${i}`).join(' '))).toHaveLength(SEARCH_TERMS_MAX);
    expect(searchTerms(`${'x'.repeat(65)} ok`)).toEqual(['ok']);
  });

  it('splits CJK from other letters, keeps CJK as written (Hangul is not decomposed), digits with their Latin word', () => {
    expect(searchTerms('MySQL数据库 "timeout"')).toEqual(['mysql', '数据库', 'timeout']);
    expect(searchTerms('검색을 h264中文v2 データベース')).toEqual(['검색을', 'h264', '中文', 'v2', 'データベース']);
    expect(isCjk('검색')).toBe(true);
    expect(isCjk('über')).toBe(false);
  });

  it("cuts a log's words for PostgreSQL's index as a search cuts its terms, a CJK run as its characters and their pairs", () => {
    const input = 'Crème BRÛLÉE, h264 and MySQL数据库; x_y "q"';
    const output = `Docker-compose ${'z'.repeat(65)}検索 v2`;
    const words = logWords({ input, output });
    expect(words.sort()).toEqual(['and', 'brulee', 'compose', 'creme', 'docker', 'h264', 'mysql', 'q', 'v2', 'x', 'y', '据', '据库', '库', '数', '数据', '検', '検索', '索'].sort());
    // A CJK term's grams are among the words of every log holding it.
    expect(cjkGrams('数据库')).toEqual(['数据', '据库']);
    expect(cjkGrams('検')).toEqual(['検']);
    for (const gram of [...cjkGrams('数据库'), ...cjkGrams('検索')]) expect(words).toContain(gram);
    // Every term a search of the same text looks for is a word of the log (ASCII and not).
    for (const text of [input, output, 'plain ascii TEXT only 42']) {
      const all = logWords({ input: text, output: '' });
      for (const term of searchTerms(text).filter((t) => !isCjk(t))) expect(all).toContain(term);
    }
    expect(logWords({ input: Array.from({ length: LOG_WORDS_MAX + 10 }, (_, i) => `w${i}`).join(' '), output: '' })).toHaveLength(LOG_WORDS_MAX);
  });

  it('quotes every term in the SQLite MATCH, under the owner tag', () => {
    expect(sqliteMatch(7, ['near', 'or'])).toBe('owner : "u7" AND {input output} : ("near" AND "or")');
  });
});

describe('snippets', () => {
  it('marks whole words only, whatever their case or accents', () => {
    expect(markTerms('Wombat, wombats and WÖMBAT', ['wombat'])).toEqual([
      [0, 6],
      [20, 26],
    ]);
  });

  it('marks CJK terms wherever they are in a run, longest first, without overlaps', () => {
    const text = '我们的数据库连接超时了, 数据 too; 검색을 했어요';
    const marks = markTerms(text, ['数据', '数据库', '검색', 'too']);
    expect(marks.map(([a, b]) => text.slice(a, b))).toEqual(['数据库', '数据', 'too', '검색']);
    const long = `${'前文'.repeat(200)}数据库${'后文'.repeat(200)}`;
    const { snippet: piece, marks: found } = snippet(long, ['数据库']);
    expect(piece.length).toBeLessThanOrEqual(162);
    expect(found.map(([a, b]) => piece.slice(a, b))).toEqual(['数据库']);
  });

  it('cuts around the first match on one line, without cutting a word or a surrogate pair', () => {
    const text = `${'🙂 alpha beta\n'.repeat(30)}the needle here${' gamma'.repeat(50)}`;
    const { snippet: piece, marks } = snippet(text, ['needle']);
    expect(piece.startsWith('…')).toBe(true);
    expect(piece.endsWith('…')).toBe(true);
    expect(piece).not.toContain('\n');
    expect(piece.length).toBeLessThanOrEqual(162);
    expect(marks.map(([a, b]) => piece.slice(a, b))).toEqual(['needle']);
    expect(piece.isWellFormed()).toBe(true);
    expect(/^…(🙂| |alpha|beta)/u.test(piece)).toBe(true);
  });

  it('gives the start when nothing matches, and stays quick on a huge log', () => {
    expect(snippet('short text', ['zzz'])).toEqual({ snippet: 'short text', marks: [] });
    const huge = 'lorem ipsum '.repeat(1_000_000);
    const started = performance.now();
    expect(snippet(huge, ['absent']).snippet.length).toBeLessThanOrEqual(162);
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});

describe('a result as a list item', () => {
  const match = { session: 1700000000000, time: 1700000000123, title: 'First question', field: 'input' as const, snippet: 'a <b>okapi</b> here', marks: [[5, 10]] as [number, number][] };

  it('keeps the marks on the same words after the session and time, and runs :search open', () => {
    const item = resultItem(match, 3);
    expect(item.text.startsWith('3. First question · ')).toBe(true);
    expect(item.marks!.map(([a, b]) => item.text.slice(a, b))).toEqual(['okapi']);
    expect(item.run).toBe(':search open 1700000000000 1700000000123');
  });

  it('prints one item a line with its command under it in the terminal, the marks in bold on colour', () => {
    const list = { kind: 'list' as const, title: 'Logs', items: [resultItem(match, 1)] };
    const plain = listText(list, 200);
    expect(plain.split('\n')).toEqual(['Logs', resultItem(match, 1).text, '  :search open 1700000000000 1700000000123']);
    expect(listText(list, 200, true)).toContain('\u001b[1mokapi\u001b[0m');
  });
});
