// Code highlighting for the terminal (highlight.ts): languages loaded one at a time (with those
// they embed) colour code exactly as highlight.js with every language loaded does; the aliases
// are highlight.js's own; the colours are SGR, nested as chalk nests them.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { htmlToSgr, lazyHighlighter } from './highlight.ts';

const HERE = path.join(import.meta.dirname, 'highlight.ts');
const SAMPLES: [string, string][] = [
  ['const answer: number = 42; // the answer', 'ts'],
  ['export async function f(x) { return `a ${x}` }', 'js'],
  ['const el = <div className="a">{x}</div>;', 'jsx'],
  ['def f(x):  # comment', 'py'],
  ['<style>a { color: red }</style><script>let x = "<b>" && 1</script>', 'html'],
  ['echo "$HOME" | grep -v x && exit 1', 'sh'],
  ['key: [1, "two"]', 'yml'],
  ['SELECT * FROM t WHERE a = \'x\';', 'sql'],
  ['fn main() { println!("{}", 1); }', 'rs'],
  ['# Title with `code` and **bold**', 'md'],
  ['x = 1', 'nosuchlanguage'],
  ['SELECT 1;', 'mysql'],
  ['int main(void) { return 0; }', 'c'],
];

/** The same samples, and the aliases' languages, in a process where highlight.js loads whole. */
function withEveryLanguage(aliases: string[]): { colours: (string | null)[]; names: [string | null, string | null][] } {
  const script = `
    const { htmlToSgr } = await import(${JSON.stringify(HERE)});
    const { createRequire } = await import('node:module');
    const hljs = createRequire(${JSON.stringify(HERE)})('highlight.js');
    const samples = ${JSON.stringify(SAMPLES)};
    const aliases = ${JSON.stringify(aliases)};
    const { ALIASES } = await import(${JSON.stringify(HERE)});
    console.log(JSON.stringify({
      colours: samples.map(([c, l]) => hljs.getLanguage(l) ? htmlToSgr(hljs.highlight(c, { language: l, ignoreIllegals: true }).value) : null),
      names: aliases.map((a) => [hljs.getLanguage(a)?.name ?? null, hljs.getLanguage(ALIASES[a])?.name ?? null]),
    }));`;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }));
}

describe('code highlighting in the terminal', () => {
  it('colours code as highlight.js with every language loaded, loading languages as they are asked for', async () => {
    const { ALIASES } = await import('./highlight.ts');
    const highlight = lazyHighlighter();
    const ours = SAMPLES.map(([code, lang]) => highlight(code, lang) ?? null);
    const whole = withEveryLanguage(Object.keys(ALIASES));
    expect(ours).toEqual(whole.colours);
    expect(ours[0]).toContain('\u001b[34mconst\u001b[39m');
    expect(ours.at(-3)).toBeNull();
    // Each alias names the language highlight.js itself gives it.
    for (const [i, alias] of Object.keys(ALIASES).entries()) expect(whole.names[i]![0], alias).toBe(whole.names[i]![1]);
  });

  it('nests colours as chalk does, and decodes what highlight.js escaped', () => {
    expect(htmlToSgr('<span class="hljs-string">&quot;a <span class="hljs-subst">${<span class="hljs-number">1</span>}</span> &amp; &lt;b&gt;&#x27;</span>')).toBe(
      '\u001b[31m"a ${\u001b[32m1\u001b[39m\u001b[31m} & <b>\'\u001b[39m',
    );
    expect(htmlToSgr('<span class="language-xml">x <span class="hljs-tag">&lt;a&gt;</span></span>')).toBe('x \u001b[90m<a>\u001b[39m');
  });
});
