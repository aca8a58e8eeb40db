import { it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { renderMarkdown } from './pipeline.ts';
const cases = [
  '| a | b |\n|---|---|\n| 1 | 2 |',
  '```ts\nconst x: number = 1;\n```',
  'inline $x_1^2$ and\n\n$$\n\\int_0^1 f\n$$\n',
  '<script>alert(1)</script>\n\nhello <b onclick="x()">b</b>',
  '[a](javascript:alert(1)) [b](https://x.test) ![i](data:image/png;base64,AAA) ![j](https://x.test/a.png) [c](/rel) [d](//evil.test) <https://auto.test> [e](mailto:a@b.c)',
  '$\\href{javascript:alert(1)}{x}$ $\\url{javascript:x}$ $\\htmlData{foo=bar}{x}$',
  'para\n$$\nx\n$$\n',
  '- [ ] task\n- [x] done',
  'a[^1]\n\n[^1]: note',
  '```unknownlang\nx\n```',
  '$\\color{red;background:url(x)}{x}$ $<img src=x onerror=alert(1)>$',
];
it('scratch', () => {
  for (const c of cases) console.log('IN:', JSON.stringify(c), '\nOUT:', renderToStaticMarkup(renderMarkdown(c)).slice(0, 1500), '\n');
});
