// Classifies one line of input (spec part 5): empty, a colon command, a `!` function call,
// or chat text with attachments. Nothing here knows any command; the registry does that.
import { foldFullWidth } from './text.ts';
import { tokenize, type Token } from './tokenize.ts';

export type LineError =
  | 'halfWidthColon'
  | 'halfWidthExclamation'
  | 'invalidCommand'
  | 'functionInvalid'
  | 'urlMustStartWithHttp';

export interface Attachment {
  kind: 'image' | 'file';
  url: string;
}

export interface FunctionCall {
  name: string;
  /** The text between the parentheses, as typed (JSON by convention). */
  argsText: string;
}

export type ParsedLine =
  | { kind: 'empty' }
  | { kind: 'error'; error: LineError }
  | { kind: 'command'; line: string; body: string; tokens: Token[] }
  | { kind: 'function'; line: string; calls: FunctionCall[] }
  | { kind: 'chat'; line: string; text: string; attachments: Attachment[] };

// With one space before it, so that a marker taken out of a sentence leaves no double space.
const ATTACHMENT = /[ \t]?\+(image|img|file)\[([^\]]*)\]/g;

/** `+image[url]`, `+img[url]` and `+file[url]`, removed from the text; URLs must start with http. */
export function extractAttachments(text: string): { text: string; attachments: Attachment[] } | { error: LineError } {
  const attachments: Attachment[] = [];
  let bad = false;
  const rest = text.replace(ATTACHMENT, (_m, kind: string, url: string) => {
    const trimmed = url.trim();
    if (!/^https?:\/\//i.test(trimmed)) bad = true;
    attachments.push({ kind: kind === 'file' ? 'file' : 'image', url: trimmed });
    return '';
  });
  if (bad) return { error: 'urlMustStartWithHttp' };
  return { text: rest.trim(), attachments };
}

/**
 * `!name({...})`, several separated by `,!`. Parentheses are required ('Function invalid.').
 * The argument text is kept as typed; the function plugin parses it as JSON.
 */
export function parseFunctionCalls(line: string): FunctionCall[] | undefined {
  const parts = line.trim().slice(1).split(/\)\s*,\s*!/);
  const calls: FunctionCall[] = [];
  parts.forEach((part, i) => {
    const withParen = i < parts.length - 1 ? `${part})` : part;
    const m = /^([A-Za-z_][\w.-]*)\s*\(([\s\S]*)\)\s*$/.exec(withParen.trim());
    if (m) calls.push({ name: m[1]!, argsText: m[2]!.trim() });
  });
  return calls.length === parts.length ? calls : undefined;
}

export function parseLine(input: string): ParsedLine {
  const line = foldFullWidth(input).trim();
  if (!line) return { kind: 'empty' };
  if (line.startsWith('\uFF1A')) return { kind: 'error', error: 'halfWidthColon' };
  if (line.startsWith('\uFF01')) return { kind: 'error', error: 'halfWidthExclamation' };
  if (line.startsWith(':')) {
    const body = line.slice(1);
    const tokens = tokenize(body);
    if (tokens.length === 0 || tokens[0]!.quoted || /^[\s,]/.test(body)) return { kind: 'error', error: 'invalidCommand' };
    return { kind: 'command', line, body, tokens };
  }
  if (line.startsWith('!')) {
    const calls = parseFunctionCalls(line);
    return calls ? { kind: 'function', line, calls } : { kind: 'error', error: 'functionInvalid' };
  }
  const extracted = extractAttachments(line);
  if ('error' in extracted) return { kind: 'error', error: extracted.error };
  if (!extracted.text && extracted.attachments.length === 0) return { kind: 'empty' };
  return { kind: 'chat', line, text: extracted.text, attachments: extracted.attachments };
}
