// Generated XSS corpus for the renderer tests (security.md §1A and test plan #1): base vectors
// in the classes peers were hit by, each placed in several markdown contexts. Every payload
// calls `__xss(<n>)` (or `alert`), so any execution is counted by the test page.

/** `X` in a vector is replaced by a call that reports the payload's number. */
const BASE: string[] = [
  // Classic script and event handlers (raw HTML must stay literal text).
  '<script>X</script>',
  '<SCRIPT SRC=data:,X></SCRIPT>',
  '<scr<script>ipt>X</scr</script>ipt>',
  '<img src=x onerror=X>',
  '<img src="x" onerror="X">',
  '<IMG SRC=x ONERROR=X>',
  '<img/src/onerror=X>',
  '<img src=x onerror=X//',
  '<img src="x` `<script>X</script>"` `>',
  '<img srcset="x" onerror=X>',
  '<picture><source srcset=x><img src=x onerror=X></picture>',
  '<body onload=X>',
  '<input autofocus onfocus=X>',
  '<select autofocus onfocus=X>',
  '<textarea autofocus onfocus=X>',
  '<details open ontoggle=X>',
  '<video><source onerror=X></video>',
  '<audio src=x onerror=X>',
  '<marquee onstart=X>',
  '<x onclick=X>click</x>',
  '<div onmouseover="X">hover</div>',
  '<a onmouseover=X>x</a>',
  '"><img src=x onerror=X>',
  "'><script>X</script>",
  '</p><img src=x onerror=X><p>',
  '<!--<img src=x onerror=X>-->',
  '<![CDATA[<img src=x onerror=X>]]>',
  '<textarea><img src=x onerror=X></textarea>',
  '<template><img src=x onerror=X></template>',
  '<noscript><p title="</noscript><img src=x onerror=X>">',
  '<style><img src=x onerror=X></style>',
  '<title><img src=x onerror=X></title>',
  // SVG and MathML vectors, mXSS.
  '<svg onload=X>',
  '<svg><script>X</script></svg>',
  '<svg><animate onbegin=X attributeName=x dur=1s>',
  '<svg><set attributeName=onmouseover to=X>',
  '<svg><a xlink:href="javascript:X"><text x=20 y=20>x</text></a></svg>',
  '<svg><use href="data:image/svg+xml,<svg id=x xmlns=http://www.w3.org/2000/svg><image href=1 onerror=X /></svg>#x" />',
  '<svg><foreignObject><img src=x onerror=X></foreignObject></svg>',
  '<svg><style><img src=x onerror=X></style></svg>',
  '<math><mtext><table><mglyph><style><img src=x onerror=X>',
  '<math><mtext><mglyph><style><!--</style><img src=x onerror=X>',
  '<math href="javascript:X">click</math>',
  '<math><maction actiontype="statusline" xlink:href="javascript:X">x</maction></math>',
  '<form><math><mtext></form><form><mglyph><style></math><img src=x onerror=X>',
  // Frames, objects, base, meta, forms, links.
  '<iframe src="javascript:X"></iframe>',
  '<iframe srcdoc="<script>parent.X</script>"></iframe>',
  '<object data="javascript:X"></object>',
  '<object data="data:text/html,<script>parent.X</script>"></object>',
  '<embed src="javascript:X">',
  '<base href="javascript:X//">',
  '<meta http-equiv="refresh" content="0;url=javascript:X">',
  '<form action="javascript:X"><button>go</button></form>',
  '<form><button formaction=javascript:X>go</button></form>',
  '<isindex action=javascript:X type=image>',
  '<link rel=stylesheet href="javascript:X">',
  '<a href="javascript:X">link</a>',
  '<a href="&#106;avascript:X">link</a>',
  '<a href="jav&#x09;ascript:X">link</a>',
  '<a href=" &#14;  javascript:X">link</a>',
  '<table background="javascript:X"><tr><td>x</td></tr></table>',
  // CSS injection.
  '<div style="background:url(javascript:X)">x</div>',
  '<span style="x:expression(X)">x</span>',
  '<style>@import "javascript:X";</style>',
  '<style>*{background:url("javascript:X")}</style>',
  '<div style="behavior:url(x.htc)" onclick=X>x</div>',
  // Markdown links and images with bad schemes, in every syntax.
  '[link](javascript:X)',
  '[link](JaVaScRiPt:X)',
  '[link](javascript&colon;X)',
  '[link](&#106;avascript:X)',
  '[link](&#x6A;&#x61;vascript:X)',
  '[link](java\tscript:X)',
  '[link](java&#9;script:X)',
  '[link](<javascript:X>)',
  '[link](< javascript:X>)',
  '[link](javascript://%0aX)',
  '[link](javascript:X "title")',
  '[link](\u200bjavascript:X)',
  '[link](ｊavascript:X)',
  '[link](data:text/html,<script>X</script>)',
  '[link](data:text/html;base64,PHNjcmlwdD5fX3hzcygxKTwvc2NyaXB0Pg==)',
  '[link](vbscript:X)',
  '[link](VBScript:X)',
  '[link](file:///etc/passwd)',
  '[link](//evil.test/X)',
  '[link](https://ok.test" onclick="X)',
  "[link](https://ok.test 'onmouseover=X')",
  '![img](javascript:X)',
  '![img](data:image/svg+xml,<svg onload=X>)',
  '![img](data:image/png;base64,iVBORw0KGgo=)',
  '![" onerror="X](x)',
  '![x" onerror="X](https://ok.test/a.png)',
  '![img](x" onerror="X)',
  '[![img](javascript:X)](javascript:X)',
  '<javascript:X>',
  '<JAVASCRIPT:X>',
  '<data:text/html,X>',
  '<vbscript:X>',
  '[ref][r]\n\n[r]: javascript:X',
  '![ref][r]\n\n[r]: javascript:X',
  '[r]\n\n[r]: data:text/html,<script>X</script>',
  '[r][]\n\n[r]: <javascript:X> "title"',
  '[r]: javascript:X\n\n[r]',
  'www.evil.test/<img src=x onerror=X>',
  // Markdown structures carrying HTML.
  '```"><img src=x onerror=X>\ncode\n```',
  '```js onload=X\ncode\n```',
  '``` <script>X</script>\n<img src=x onerror=X>\n```',
  '`<img src=x onerror=X>`',
  '**<img src=x onerror=X>**',
  '# <script>X</script>',
  '- [ ] <img src=x onerror=X>',
  'note[^1]\n\n[^1]: <img src=x onerror=X>',
  'note[^<img src=x onerror=X>]',
  '<div>\n\n[link](javascript:X)\n\n</div>',
  '<a href="[x](javascript:X)">x</a>',
  '<details><summary>x</summary>\n\n<img src=x onerror=X>\n</details>',
  '[<img src=x onerror=X>](https://ok.test)',
  '[link](https://ok.test)<img src=x onerror=X>',
  '<https://ok.test/"><img src=x onerror=X>>',
  // KaTeX: trust-gated commands, bad arguments, error paths.
  '$\\href{javascript:X}{x}$',
  '$$\n\\url{javascript:X}\n$$',
  '$\\htmlData{onclick=X}{x}$',
  '$\\htmlData{x=1, onmouseover=X}{x}$',
  '$\\includegraphics{javascript:X}$',
  '$\\includegraphics[height=1em]{data:image/svg+xml,<svg onload=X>}$',
  '$\\htmlClass{x" onclick="X}{x}$',
  '$\\htmlId{x" onclick="X}{x}$',
  '$\\htmlStyle{background:url(javascript:X)}{x}$',
  '$\\color{red" onclick="X}{x}$',
  '$\\textcolor{red;background:url(javascript:X)}{x}$',
  '$\\text{<img src=x onerror=X>}$',
  '$\\frac{<script>X</script>$',
  '$\\def\\x{\\href{javascript:X}{y}}\\x$',
  '$\\newcommand{\\h}{\\href}\\h{javascript:X}{x}$',
  '$\\gdef\\a{\\a\\a}\\a X$',
  '```math\n\\href{javascript:X}{x}\n```',
  '$\\operatorname{<img src=x onerror=X>}$',
  '$\\verb|<img src=x onerror=X>|$',
  '$$\n\\begin{array}{c}<img src=x onerror=X>\\end{array}\n$$',
  '$\\unicode{<img src=x onerror=X>}$',
  '$\\rule{100000em}{100000em} X$',
  // Encoded and unicode variants.
  '&lt;img src=x onerror=X&gt;',
  '&#60;script&#62;X&#60;/script&#62;',
  '%3Cscript%3EX%3C/script%3E',
  '\\u003cscript\\u003eX\\u003c/script\\u003e',
  '＜script＞X＜/script＞',
  '<scr\u0000ipt>X</script>',
  '\u202e<img src=x onerror=X>',
  '<img src=x one\u200brror=X>',
  '<im\u200dg src=x onerror=X>',
  // Forged shell/tool UI markup.
  '<div class="out-error" role="alert" onclick=X>Session expired</div>',
  '<div data-testid="input" contenteditable onfocus=X autofocus>',
];

const CONTEXTS: ((v: string) => string)[] = [
  (v) => v,
  (v) => `Some text before ${v} and after.`,
  (v) => `- item\n- ${v}\n\n> ${v}`,
  (v) => `| a | b |\n| --- | --- |\n| ${v.replace(/\|/g, '\\|').replace(/\n/g, ' ')} | x |`,
  (v) => `Title\n=====\n\n\`\`\`\n${v}\n\`\`\`\n\n${v}\n\n$$\n${v}\n$$\n`,
];

export interface Payload {
  id: number;
  text: string;
}

/** BASE x CONTEXTS payloads, numbered from 1, each calling `__xss(<n>)` (and some `alert`). */
export function xssPayloads(): Payload[] {
  const payloads: Payload[] = [];
  for (const context of CONTEXTS) {
    for (const base of BASE) {
      const id = payloads.length + 1;
      const call = id % 10 === 0 ? `alert(${id})` : `__xss(${id})`;
      payloads.push({ id, text: context(base.replaceAll('X', call)) });
    }
  }
  return payloads;
}

/** URL-shaped payloads for surfaces that take URLs (image previews). */
export function urlPayloads(): string[] {
  const urls = [
    'javascript:__xss(1)',
    'JaVaScRiPt:__xss(2)',
    ' javascript:__xss(3)',
    '\tjavascript:__xss(4)',
    'data:text/html,<script>__xss(5)</script>',
    'data:image/svg+xml,<svg onload=__xss(6)>',
    'vbscript:__xss(7)',
    '" onerror="__xss(8)',
    'https://ok.test/a.png" onerror="__xss(9)',
    'x onerror=__xss(10)',
    '//evil.test/x.png',
    'https://ok.test/<img src=x onerror=__xss(11)>.png',
  ];
  return [...urls, ...xssPayloads().map((p) => p.text)];
}
