// Messages of the spec (part 8) that a plugin's rules, its server and its commands share, in one
// catalogue per namespace. Each message travels as a code (`<namespace>.<name>`) with its
// values beside its English text: the server answers the text as `error` or `message` (the
// spec's API) with `code` and `params` next to it, and the browser and the CLI show it in the
// user's language by its code (`err.<name>` in `locales/<lang>/<namespace>.json`). The English is
// said only here: en-US has no `err.<name>`, so it shows the text as the catalogue filled it. Text
// is never matched against the catalogue, so user data that reads like a message stays as it is.

// A translate function (the contract's Translate), named here so that the contract, which
// imports this file, is not imported back.
type Translate = (key: string, vars?: Record<string, unknown>) => string;

/** What a message's hole holds: a value, or another message (a refusal's reason). */
export type MessageValue = string | number | Message;

/** A message as it travels (JSON): its code, its values (nested messages as data) and its English. */
export interface MessageData {
  code: string;
  params: Record<string, string | number | MessageData>;
  text: string;
}

/** One message: its code and values, and its English text (what `String(message)` gives). */
export class Message {
  readonly code: string;
  readonly params: Readonly<Record<string, MessageValue>>;
  readonly text: string;
  constructor(code: string, params: Readonly<Record<string, MessageValue>>, text: string) {
    this.code = code;
    this.params = params;
    this.text = text;
  }

  toString(): string {
    return this.text;
  }

  /** In JSON a message is its English text; `toData()` gives the code and values too. */
  toJSON(): string {
    return this.text;
  }

  toData(): MessageData {
    const params: MessageData['params'] = {};
    for (const [name, value] of Object.entries(this.params)) params[name] = value instanceof Message ? value.toData() : value;
    return { code: this.code, params, text: this.text };
  }
}

/** An Error that says something to the person: a catalogue message (its code kept) or plain text. */
export class MessageError extends Error {
  readonly said: Message | undefined;
  constructor(said: string | Message) {
    super(String(said));
    this.said = said instanceof Message ? said : undefined;
  }
}

/** What an error says: its catalogue message when it carries one, else its text. */
export const saidBy = (err: unknown): string | Message =>
  err instanceof MessageError && err.said ? err.said : err instanceof Error ? err.message : String(err);

/** Is `value` message data as the API answers it (`{code, params, text}`)? */
export function isMessageData(value: unknown): value is MessageData {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.code === 'string' && typeof v.text === 'string' && typeof v.params === 'object' && v.params !== null;
}

/** `text` or a message, as data when it is one (for an output or an answer). */
export const asMessageData = (said: string | Message): MessageData | undefined => (said instanceof Message ? said.toData() : undefined);

type Value = MessageValue;

/** The `{{name}}` holes of a template, in order. A template that is not a literal type has none. */
type Holes<S extends string> = string extends S ? [] : S extends `${string}{{${infer P}}}${infer R}` ? [P, ...Holes<R>] : [];
type Drop<T extends string[], X> = T extends [infer H extends string, ...infer R extends string[]] ? (H extends X ? Drop<R, X> : [H, ...Drop<R, X>]) : [];
type Args<T extends string[]> = { [K in keyof T]: Value };
/** A template without holes is its message; one with holes is a function of them, in order. */
export type MessageEntry<S extends string, F> = Drop<Holes<S>, keyof F> extends [] ? Message : (...values: Args<Drop<Holes<S>, keyof F>>) => Message;
export type Messages<T extends Record<string, string>, F> = { readonly [K in keyof T]: MessageEntry<T[K], F> };

const CATALOGUE = Symbol('messages');

interface Catalogue {
  namespace: string;
  /** As written, fixed values unbound: what `err.<name>` of each translated locale translates. */
  templates: Record<string, string>;
}

/**
 * What defineMessages returns also carries its catalogue, which the contract tests read to check
 * that every code has its `err.<name>` in every locale.
 */
export interface MessageCatalogue {
  readonly [CATALOGUE]: Catalogue;
}

const HOLE = /\{\{(\w+)\}\}/g;
const fill = (template: string, values: Record<string, Value>) => template.replace(HOLE, (whole, name: string) => (name in values ? String(values[name]) : whole));

/**
 * A namespace's messages: `templates` in English with `{{name}}` holes, `fixed` the values bound
 * once (limits, lists of valid values), which travel with every message so that translations
 * may place them as they like. Each entry keeps the shape the code calls: the message, or a
 * function of the remaining holes in order.
 */
export function defineMessages<const T extends Record<string, string>, const F extends Record<string, string | number> = Record<never, string | number>>(
  namespace: string,
  templates: T,
  fixed?: F,
): Messages<T, F> & MessageCatalogue {
  const bound: Record<string, Value> = { ...(fixed ?? {}) };
  const out: Record<string, Message | ((...values: Value[]) => Message)> = {};
  for (const [name, template] of Object.entries(templates)) {
    const code = `${namespace}.${name}`;
    const uses = [...template.matchAll(HOLE)].map((m) => m[1]!);
    const fixedUsed = Object.fromEntries(uses.filter((h) => h in bound).map((h) => [h, bound[h]!]));
    const holes = uses.filter((h) => !(h in bound));
    out[name] = holes.length
      ? (...values: Value[]) => {
          const params = { ...fixedUsed, ...Object.fromEntries(holes.map((h, i) => [h, values[i] ?? ''])) };
          return new Message(code, params, fill(template, params));
        }
      : new Message(code, fixedUsed, fill(template, fixedUsed));
  }
  Object.defineProperty(out, CATALOGUE, { value: { namespace, templates: { ...templates } } });
  return out as Messages<T, F> & MessageCatalogue;
}

/** A catalogue's namespace and English templates (each translated locale has `err.<name>` for them). */
export function messageTemplates(messages: MessageCatalogue): { namespace: string; templates: Record<string, string> } {
  const { namespace, templates } = messages[CATALOGUE];
  return { namespace, templates };
}

/** A code's namespace and name: `store.notFound` → ['store', 'notFound']. */
export function splitCode(code: string): [string, string] {
  const dot = code.indexOf('.');
  return dot < 0 ? ['core', code] : [code.slice(0, dot), code.slice(dot + 1)];
}

// What a translate function gives for a key no locale has: no hole, so nothing interpolates it.
const UNTRANSLATED = '\u0000untranslated';

/**
 * A message in the interface's language, by its code: `tFor` gives a namespace's translate
 * function; where no locale has the key (en-US never has), the English text as filled in, not
 * interpolated again (a value that reads like `{{hole}}` stays as it is).
 * Nested messages (a refusal's reason) are translated in turn.
 */
export function translateMessage(said: Message | MessageData, tFor: (ns: string) => Translate, depth = 0): string {
  const data = said instanceof Message ? said.toData() : said;
  const [ns, name] = splitCode(data.code);
  const values: Record<string, unknown> = {};
  for (const [hole, value] of Object.entries(data.params)) {
    values[hole] = isMessageData(value) ? (depth < 4 ? translateMessage(value, tFor, depth + 1) : value.text) : value;
  }
  const translated = tFor(ns)(`err.${name}`, { ...values, defaultValue: UNTRANSLATED });
  return translated === UNTRANSLATED ? data.text : translated;
}
