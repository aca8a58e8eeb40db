import fc from 'fast-check';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { markdownToHast, mathCacheSize, renderMarkdown } from './pipeline.ts';

/** The app's own wrapper and Copy button around each code block (CodeBlock.tsx), exactly. */
const COPY_WRAPPER = /<div class="md-code">(<pre[\s\S]*?<\/pre>)<button type="button" class="md-copy" data-testid="code-copy">Copy<\/button><\/div>/g;
const withCopy = (markdown: string) => renderToStaticMarkup(renderMarkdown(markdown));
/** The rendered markup without the app's Copy buttons: what is left came from the model's text. */
const html = (markdown: string) => withCopy(markdown).replace(COPY_WRAPPER, '$1');

/** Every URL-valued attribute in the output. */
const urls = (out: string) => [...out.matchAll(/\s(?:href|src|action|formaction|xlink:href|poster|srcset)="([^"]*)"/gi)].map((m) => m[1]!);

describe('markdown pipeline', () => {
  it('typesets a formula once and reuses it, keeping at most 256 short formulas', () => {
    const once = html('Then $a^2 + b^2$ and $$\\frac{1}{2}$$ here.\n\n$$\n\\sum_i x_i\n$$');
    // The cached copy renders the same, and is not changed by what later passes do to a tree.
    expect(html('Then $a^2 + b^2$ and $$\\frac{1}{2}$$ here.\n\n$$\n\\sum_i x_i\n$$')).toBe(once);
    expect(once).toContain('katex-display');
    // 300 new formulas in one text: each is typeset and kept, the oldest let go past 256.
    html(Array.from({ length: 300 }, (_, i) => `$x_{${i}}$`).join(' '));
    // A long formula (as a hostile log may hold) is typeset, not kept: past the 2,000
    // characters a kept key may have. Its length is spaces, which KaTeX skips: a formula of
    // 2,000 symbols costs it seconds and says nothing more about the cache.
    const long = `$x +${' '.repeat(2100)}y$`;
    expect(html(long)).toContain('class="katex"');
    const { entries, longestKey } = mathCacheSize();
    expect(entries).toBe(256);
    expect(longestKey).toBeLessThanOrEqual(2000);
  });


  it('renders GFM: tables, task lists, strikethrough, autolinks', () => {
    const out = html('| a | b |\n| --- | ---: |\n| 1 | **2** |\n\n- [x] done\n- [ ] todo\n\n~~old~~ www.example.com');
    expect(out).toContain('<table><thead><tr><th>a</th><th style="text-align:right">b</th></tr></thead>');
    expect(out).toContain('<td style="text-align:right"><strong>2</strong></td>');
    expect(out).toContain('<li class="task-list-item"><input type="checkbox" disabled="" checked=""/> done</li>');
    expect(out).toContain('<del>old</del>');
    expect(out).toContain('<a href="http://www.example.com" target="_blank" rel="noopener noreferrer nofollow">www.example.com</a>');
  });

  it('highlights fenced code with Prism classes, and leaves unknown languages plain', () => {
    const out = html('```ts\nconst answer: number = 42; // yes\n```');
    expect(out).toContain('<pre class="language-ts"><code class="language-ts code-highlight">');
    expect(out).toContain('<span class="token keyword">const</span>');
    expect(out).toContain('<span class="token number">42</span>');
    expect(out).toContain('<span class="token comment">// yes</span>');
    const plain = html('```nosuchlang\n<b>x</b>\n```');
    expect(plain).toContain('<code class="language-nosuchlang code-highlight">');
    expect(plain).toContain('&lt;b&gt;x&lt;/b&gt;');
  });

  it('does not highlight very long code blocks (rehype-prism-plus is quadratic in lines)', () => {
    const out = html(['```ts', ...Array.from({ length: 400 }, (_, i) => `const v${i} = ${i};`), '```'].join('\n'));
    expect(out).toContain('<code class="language-ts">const v0 = 0;');
    expect(out).not.toContain('token');
  });

  it("reads prices as text, not math (Pandoc's dollar rule), and leaves code as written", () => {
    const prices = html('It costs $5 and $10. Between $1,000 and $2,000, or $5-$10.');
    expect(prices).toBe('<p>It costs $5 and $10. Between $1,000 and $2,000, or $5-$10.</p>');
    expect(prices).not.toContain('katex');
    const mixed = html('So $x$ and $2x+1$ cost $5.');
    expect(mixed.match(/class="katex"/g)).toHaveLength(2);
    expect(mixed).toMatch(/<\/span> cost \$5\.<\/p>$/);
    const code = html('Run `echo $5 and $10` then:\n\n```sh\necho "$HOME costs $5"\n```\n\n    indented $5 and $10\n\nand \\$3.');
    expect(code).toContain('<code>echo $5 and $10</code>');
    expect(code).toContain('$HOME</span> costs <span class="token variable">$5</span>&quot;');
    expect(code).toContain('<span class="code-line">indented $5 and $10\n');
    // No escape the rule added shows anywhere.
    expect(code).not.toContain('\\');
    expect(code).toContain('<p>and $3.</p>');
    expect(code).not.toContain('katex');
    // A display block's TeX is left as written: its single dollars are TeX's.
    expect(html('$$\n\\text{from $5 and $10}\n$$')).toContain('<annotation encoding="application/x-tex">\\text{from $5 and $10}</annotation>');
  });

  it('typesets inline and display math with KaTeX', () => {
    const out = html('Inline $x_1^2$ here.\n\n$$\n\\int_0^1 f(x)\\,dx\n$$');
    expect(out).toMatch(/<p>Inline <span class="katex"><span class="katex-mathml"><math[^>]*><semantics><mrow><msubsup><mi>x<\/mi>/);
    expect(out).toContain('<span class="katex-display"><span class="katex">');
    expect(out).toContain('<annotation encoding="application/x-tex">\\int_0^1 f(x)\\,dx</annotation>');
    // A ```math fence is display math too.
    expect(html('```math\na^2+b^2\n```')).toContain('katex-display');
  });

  it('shows invalid LaTeX as escaped text, and refuses KaTeX commands that need trust', () => {
    const bad = html('$\\frac{<img src=x onerror=alert(1)>$');
    expect(bad).not.toMatch(/<img/i);
    for (const tex of ['\\href{javascript:alert(1)}{x}', '\\url{javascript:alert(1)}', '\\htmlData{onclick=alert(1)}{x}', '\\includegraphics{javascript:alert(1)}', '\\htmlStyle{background:url(x)}{x}']) {
      const out = html(`$${tex}$`);
      // The TeX source shows as text (in the annotation and the error); no element or attribute comes from it.
      expect(out, tex).not.toMatch(/<a[\s>]|\shref=|\son\w+=|<img|style="[^"]*url\(/i);
    }
    const loop = html('$\\def\\a{\\a\\a}\\a$');
    expect(loop).toContain('katex-error');
  });

  it('shows raw HTML as literal text (block and inline), never as elements', () => {
    const out = html('<div onclick="x()">\n<script>alert(1)</script>\n</div>\n\nText <img src=x onerror=alert(1)> and <b>bold</b>.');
    expect(out).toContain('<p>&lt;div onclick=&quot;x()&quot;&gt;<br/>&lt;script&gt;alert(1)&lt;/script&gt;<br/>&lt;/div&gt;</p>');
    expect(out).toContain('<p>Text &lt;img src=x onerror=alert(1)&gt; and &lt;b&gt;bold&lt;/b&gt;.</p>');
    expect(html('<!-- comment -->')).toBe('<p>&lt;!-- comment --&gt;</p>');
    expect(out).not.toMatch(/<(div|script|img|b)[\s>]/);
  });

  it('keeps only http, https and mailto links, with target=_blank and rel=noopener noreferrer nofollow', () => {
    const out = html(
      '[a](https://ok.test/a) [b](http://ok.test/b) [m](mailto:me@ok.test) [j](javascript:alert(1)) [J](JaVaScRiPt:alert(1)) ' +
        '[e](&#106;avascript:alert(1)) [d](data:text/html,<script>alert(1)</script>) [v](vbscript:msgbox(1)) ' +
        '[r](/api/logout) [p](//evil.test/x) [f](file:///etc/passwd) <javascript:alert(1)> [ref][x]\n\n[x]: javascript:alert(1)',
    );
    expect(urls(out)).toEqual(['https://ok.test/a', 'http://ok.test/b', 'mailto:me@ok.test']);
    expect((out.match(/target="_blank" rel="noopener noreferrer nofollow"/g) ?? []).length).toBe(3);
  });

  it('keeps only http(s) images, without referrer, and shows the alt text of the others', () => {
    const markdown = '![ok](https://img.test/a.png) ![js](javascript:alert(1)) ![data](data:image/svg+xml,<svg onload=alert(1)>) ![rel](/x.png)';
    const images: unknown[] = [];
    const collect = (node: { type: string; tagName?: string; properties?: unknown; children?: unknown[] }) => {
      if (node.type === 'element' && node.tagName === 'img') images.push(node.properties);
      for (const child of node.children ?? []) collect(child as never);
    };
    collect(markdownToHast(markdown) as never);
    expect(images).toEqual([{ src: 'https://img.test/a.png', alt: 'ok', referrerPolicy: 'no-referrer', loading: 'lazy', decoding: 'async' }]);
    // Rendered, an image of another origin (outside a page, every one is) waits for a click
    // (issue 34): a button naming its host, after its alt text; nothing is requested.
    const out = html(markdown);
    expect(out).toContain('<span class="held-image-alt">ok</span><button type="button" title="https://img.test/a.png">Load the image from img.test</button>');
    expect(out).not.toMatch(/<img/);
    expect(urls(out)).toEqual([]);
    expect(out).toContain(' js ');
    expect(out).toContain(' rel');
    expect(html('![" onerror="__xss()](x)')).not.toMatch(/<img|onerror="/);
  });

  it('prefixes ids against DOM clobbering, and keeps footnote links working', () => {
    const out = html('Note[^__xss].\n\n[^__xss]: The note.');
    const ids = [...out.matchAll(/\sid="([^"]*)"/g)].map((m) => m[1]!);
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids) expect(id.startsWith('user-content-')).toBe(true);
    for (const href of urls(out)) expect(ids).toContain(href.slice(1));
  });

  it('gives each code block a Copy button of its own, which the text cannot forge', () => {
    const out = withCopy('```ts\nconst a = 1;\n```\n\n    indented code\n\nText `inline` only.');
    expect(out.match(/<div class="md-code"><pre[ >]/g)).toHaveLength(2);
    expect(out.match(/data-testid="code-copy"/g)).toHaveLength(2);
    expect(out).not.toMatch(/<code>inline<\/code><\/pre>|md-code"><code/);
    // The same markup written by a model stays text or is stripped.
    const forged = withCopy('<div class="md-code"><pre>x</pre><button type="button" class="md-copy" data-testid="code-copy">Copy</button></div>');
    expect(forged).not.toContain('<button');
    expect(forged).not.toMatch(/<[^>]*\sdata-testid=/);
    expect(forged).not.toMatch(/<div class="md-code">/);
  });

  it('returns hast without raw nodes or event handlers', () => {
    const tree = JSON.stringify(markdownToHast('<b onmouseover="x">x</b> $\\frac12$ ```js\nx\n```'));
    expect(tree).not.toContain('"type":"raw"');
    expect(tree).not.toMatch(/"on[a-z]+":/i);
  });

  it('property: any mix of markdown, HTML and TeX fragments renders without handlers, bad URLs or script-capable elements', () => {
    const fragment = fc.constantFrom(
      '<', '>', '"', "'", '`', '```', '~~~', '$', '$$', '\n', '\n\n', ' ', '[', ']', '(', ')', '!', '*', '_', '|', '-', '>', '#', '\\',
      'javascript:', 'JaVaScRiPt:', '&#106;', 'data:text/html,', 'vbscript:', 'https://ok.test/', '//evil.test',
      '<img src=x onerror=alert(1)>', '<script>', '</script>', '<svg onload=alert(1)>', '<iframe src=javascript:x>', '<a href=',
      'onerror=', 'onclick="', 'style="background:url(x)"', '\\href{', '\\url{', '\\htmlData{', '\\includegraphics{', '}', '{',
      '[x]: ', '[^1]', '[^1]: ', '<https://a.test>', '<javascript:x>', '- ', '1. ', '| --- |', '\u0000', '\u202e', '&lt;', '&colon;',
    );
    fc.assert(
      fc.property(fc.array(fragment, { maxLength: 40 }), (parts) => {
        const out = html(parts.join(''));
        expect(out).not.toMatch(/<(script|iframe|object|embed|form|style|base|meta|link|foreignObject|textarea|button)[\s>]/i);
        // Attribute names only (a title may quote the TeX source, escaped).
        expect(out.replace(/="[^"]*"/g, '=""')).not.toMatch(/<[^>]*\son[a-z]+=/i);
        for (const url of urls(out)) expect(url).toMatch(/^(https?:|mailto:|#)/);
      }),
      { numRuns: 1000, seed: 42 },
    );
  });
});
