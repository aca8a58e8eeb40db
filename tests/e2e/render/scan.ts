// What the renderer test page looks for in the DOM after rendering payloads: tags, attributes
// and URLs that must never be there, except the app's own two buttons in their exact shapes.

const BAD_TAGS = new Set([
  'script', 'iframe', 'frame', 'frameset', 'object', 'embed', 'applet', 'base', 'meta', 'link', 'form', 'style',
  'template', 'noscript', 'textarea', 'button', 'select', 'foreignobject', 'use', 'image', 'animate', 'set',
  'isindex', 'marquee', 'video', 'audio', 'source', 'picture', 'title', 'body', 'html', 'head', 'details',
]);
const URL_ATTRS = new Set([
  'href', 'src', 'action', 'formaction', 'xlink:href', 'poster', 'data', 'background', 'srcset', 'ping', 'cite',
  'longdesc', 'dynsrc', 'lowsrc', 'codebase', 'archive', 'manifest', 'icon', 'profile', 'usemap', 'srcdoc',
]);
// Browsers ignore ASCII tab and newline anywhere in a URL and C0 controls and spaces around it.
const normalizeUrl = (value: string) => value.replace(/[\u0000-\u0020\u007f-\u009f\u00ad\u200b-\u200f\u2028\u2029\ufeff]/g, '').toLowerCase();

/**
 * The app's own Copy button on a code block (src/shell/markdown/CodeBlock.tsx), in exactly this
 * shape: a model's text cannot make it, since the sanitizer keeps no button and no data-*.
 */
const isCopyButton = (el: Element) =>
  el.localName === 'button' &&
  el.className === 'md-copy' &&
  el.getAttribute('data-testid') === 'code-copy' &&
  el.attributes.length === 3 &&
  el.children.length === 0 &&
  el.parentElement?.className === 'md-code' &&
  el.parentElement.children.length === 2 &&
  el.previousElementSibling?.localName === 'pre';

/**
 * The app's own button in place of an image of another origin (src/shell/components/HeldImage.tsx),
 * in exactly this shape: text only, its title the image's http(s) URL, in the app's span.
 */
const isHeldImageButton = (el: Element) =>
  el.localName === 'button' &&
  el.getAttribute('type') === 'button' &&
  /^https?:/.test(el.getAttribute('title') ?? '') &&
  el.attributes.length === 2 &&
  el.children.length === 0 &&
  el.parentElement?.className === 'held-image' &&
  el.parentElement.getAttribute('data-testid') === 'held-image' &&
  el.parentElement.lastElementChild === el;

/** What must never be in the rendered DOM: in `stage`, and scripts added since `scriptsAtLoad`. */
export function scan(stage: HTMLElement, scriptsAtLoad: number): string[] {
  const problems: string[] = [];
  if (document.scripts.length !== scriptsAtLoad) problems.push(`script count ${scriptsAtLoad} -> ${document.scripts.length}`);
  for (const el of stage.querySelectorAll('*')) {
    if (isCopyButton(el) || isHeldImageButton(el)) continue;
    const tag = el.localName.toLowerCase();
    if (BAD_TAGS.has(tag)) problems.push(`<${tag}>`);
    if (tag === 'input' && !((el as HTMLInputElement).type === 'checkbox' && (el as HTMLInputElement).disabled)) problems.push('<input> other than a disabled checkbox');
    for (const attr of el.attributes) {
      const name = attr.name.toLowerCase();
      if (name.startsWith('on')) problems.push(`<${tag} ${name}>`);
      if (URL_ATTRS.has(name) && /^(javascript|data|vbscript):/.test(normalizeUrl(attr.value))) problems.push(`<${tag} ${name}="${attr.value.slice(0, 60)}">`);
      if (name === 'style' && /url\s*\(|expression\s*\(|javascript:|@import/i.test(attr.value)) problems.push(`<${tag} style="${attr.value.slice(0, 60)}">`);
      if (name === 'contenteditable' || name === 'autofocus') problems.push(`<${tag} ${name}>`);
    }
  }
  return problems;
}
