// Messages of the spec (part 8) that a plugin's rules, its server and its commands share, in one
// catalogue per namespace. The English text stays the API's (the server answers it as `error`
// or `message`, as the spec quotes it); the interface shows it in the user's language by
// matching the text against the catalogue of the plugin that answered and translating its key
// (`err.<name>` in `locales/<lang>/<namespace>.json`), values and all. Matching the text, not
// sending a code beside it, keeps the HTTP API the spec's and lets a message made anywhere
// (the server, a rule checked in the browser, an older server) reach the user translated.

// A translate function (the contract's Translate), named here so that the contract, which
// names MessageCatalogue, is not imported back.
type Translate = (key: string, vars?: Record<string, unknown>) => string;

type Value = string | number;

/** The `{{name}}` holes of a template, in order. A template that is not a literal type has none. */
type Holes<S extends string> = string extends S ? [] : S extends `${string}{{${infer P}}}${infer R}` ? [P, ...Holes<R>] : [];
type Drop<T extends string[], X> = T extends [infer H extends string, ...infer R extends string[]] ? (H extends X ? Drop<R, X> : [H, ...Drop<R, X>]) : [];
type Args<T extends string[]> = { [K in keyof T]: Value };
/** A template without holes is its English text; one with holes is a function of them, in order. */
export type MessageEntry<S extends string, F> = Drop<Holes<S>, keyof F> extends [] ? string : (...values: Args<Drop<Holes<S>, keyof F>>) => string;
export type Messages<T extends Record<string, string>, F> = { readonly [K in keyof T]: MessageEntry<T[K], F> };

interface Template {
  name: string;
  /** As written, fixed values unbound: what `err.<name>` of the en-US locale holds. */
  source: string;
  holes: string[];
  pattern: RegExp;
}

interface Catalogue {
  namespace: string;
  fixed: Record<string, Value>;
  /** Holes whose values are themselves messages of the catalogue (a refusal's reason). */
  nested: ReadonlySet<string>;
  /** The more literal characters a template has, the earlier it is tried. */
  templates: Template[];
}

const CATALOGUE = Symbol('messages');
/** Longer texts are never taken for a message (a provider's error detail fits well within it). */
const MESSAGE_MAX = 4096;

/**
 * What defineMessages returns also carries its catalogue, which the host and the chat are given
 * explicitly (a plugin through `ctx.messages`): a registry filled as modules load would lose
 * the catalogues a bundler leaves out as unused (the app declares its modules free of side
 * effects), and would put the core's into the first paint.
 */
export interface MessageCatalogue {
  readonly [CATALOGUE]: Catalogue;
}

const HOLE = /\{\{(\w+)\}\}/g;
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const fill = (template: string, values: Record<string, Value>) => template.replace(HOLE, (whole, name: string) => (name in values ? String(values[name]) : whole));

/**
 * A namespace's messages: `templates` in English with `{{name}}` holes, `fixed` the values bound
 * once (limits, lists of valid values), which translations may place as they like. Each entry
 * keeps the shape the code calls: the text, or a function of the remaining holes in order.
 * `nested` names holes whose values are messages of this catalogue too, translated in turn.
 */
export function defineMessages<const T extends Record<string, string>, const F extends Record<string, Value> = Record<never, Value>>(
  namespace: string,
  templates: T,
  fixed?: F,
  options: { nested?: readonly string[] } = {},
): Messages<T, F> & MessageCatalogue {
  const bound: Record<string, Value> = { ...(fixed ?? {}) };
  const catalogue: Catalogue = { namespace, fixed: bound, nested: new Set(options.nested ?? []), templates: [] };
  const weights = new Map<string, number>();
  const out: Record<string, string | ((...values: Value[]) => string)> = {};
  for (const [name, template] of Object.entries(templates)) {
    const holes = [...template.matchAll(HOLE)].map((m) => m[1]!).filter((h) => !(h in bound));
    const english = fill(template, bound);
    let source = '';
    let last = 0;
    for (const m of english.matchAll(HOLE)) {
      source += `${escape(english.slice(last, m.index))}([\\s\\S]*?)`;
      last = m.index + m[0].length;
    }
    source += escape(english.slice(last));
    catalogue.templates.push({ name, source: template, holes, pattern: new RegExp(`^${source}$`) });
    weights.set(name, english.replace(HOLE, '').length);
    out[name] = holes.length ? (...values: Value[]) => fill(english, Object.fromEntries(holes.map((h, i) => [h, values[i] ?? '']))) : english;
  }
  catalogue.templates.sort((a, b) => weights.get(b.name)! - weights.get(a.name)!);
  Object.defineProperty(out, CATALOGUE, { value: catalogue });
  return out as Messages<T, F> & MessageCatalogue;
}

/** A catalogue's namespace and English templates (`err.<name>` of its en-US locale holds the same). */
export function messageTemplates(messages: MessageCatalogue): { namespace: string; templates: Record<string, string> } {
  const { namespace, templates } = messages[CATALOGUE];
  return { namespace, templates: Object.fromEntries(templates.map((t) => [t.name, t.source])) };
}

/**
 * `text` in the interface's language when it is one of the messages of `catalogues` (tried in
 * order), else `text` as it is. `tFor` gives a namespace's translate function; a locale that
 * lacks the key falls back to en-US, and to the text itself.
 */
export function localizeMessage(text: string, catalogues: readonly MessageCatalogue[], tFor: (ns: string) => Translate, depth = 0): string {
  // Messages are short; a long output (a prompt, a node's answer) is not one, and is not scanned.
  if (text.length > MESSAGE_MAX) return text;
  for (const messages of catalogues) {
    const catalogue = messages[CATALOGUE];
    for (const template of catalogue.templates) {
      const m = template.pattern.exec(text);
      if (!m) continue;
      const values: Record<string, Value> = { ...catalogue.fixed };
      template.holes.forEach((h, i) => {
        const value = m[i + 1]!;
        // A reason inside a refusal, a reason inside that ('IPv4-mapped loopback address'): a few levels at most.
        // The catalogue's own messages first, then the others' (a store's upload failure
        // carries the core's reason why a document could not be read).
        values[h] = catalogue.nested.has(h) && depth < 3 ? localizeMessage(value, [messages, ...catalogues.filter((c) => c !== messages)], tFor, depth + 1) : value;
      });
      return tFor(catalogue.namespace)(`err.${template.name}`, { ...values, defaultValue: text });
    }
  }
  return text;
}
