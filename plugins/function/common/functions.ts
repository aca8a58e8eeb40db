// The built-in functions of spec part 9: names, descriptions and JSON schemas, shared by the
// commands (`:function ls`, `:function <name>`) and the server, which runs them.
import { answerFields, type FunctionResult, type Message, type MessageData } from '../../../src/core/index.ts';
import { MESSAGES } from './messages.ts';

/**
 * One result as POST /api/function/exec answers it (spec part 3's Function result): a failure's
 * `error` is the English text, with its code and values beside when it is a catalogue message.
 */
export type ExecResult = FunctionResult & Partial<Pick<MessageData, 'code' | 'params'>>;

/** A failed call's result: what it says as `error`, with its code when it is a message. */
export const failure = (fn: string, said: string | Message): ExecResult => ({ success: false, function: fn, ...answerFields('error', said) });

export interface FunctionSpec {
  name: string;
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: { type: 'object'; properties: Record<string, { type: string; description: string }>; required: string[] };
}

export const BUILTIN_FUNCTIONS: readonly FunctionSpec[] = [
  {
    name: 'get_time',
    description: 'Get the current time in a time zone.',
    parameters: {
      type: 'object',
      properties: { timezone: { type: 'string', description: 'An IANA time zone, e.g. "Asia/Tokyo" or "UTC".' } },
      required: ['timezone'],
    },
  },
  {
    name: 'get_weather',
    description: 'Get the current weather and a short forecast for a location.',
    parameters: {
      type: 'object',
      properties: { location: { type: 'string', description: 'A city name in English, e.g. "Paris".' } },
      required: ['location'],
    },
  },
  {
    name: 'ask_wolframalpha',
    description: 'Ask Wolfram|Alpha, a computational knowledge engine, for facts, math and data.',
    parameters: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'The question, in English.' },
        keyword: { type: 'string', description: 'A short keyword to ask instead when the question has no answer.' },
      },
      required: ['query'],
    },
  },
  {
    name: 'redirect_to_url',
    description: 'Open a web page for the user, in a new tab or in this one.',
    parameters: {
      type: 'object',
      properties: {
        url: { type: 'string', description: 'An http or https URL.' },
        blank: { type: 'boolean', description: 'Open in a new tab (default true).' },
      },
      required: ['url'],
    },
  },
];

export const BUILTIN_NAMES: readonly string[] = BUILTIN_FUNCTIONS.map((f) => f.name);

/** A ready-to-type call: `!get_time({ "timezone": "___" })`. */
export function template(spec: { name: string; parameters?: unknown }): string {
  const props = Object.keys(((spec.parameters ?? {}) as { properties?: Record<string, unknown> }).properties ?? {});
  return `!${spec.name}({ ${props.map((p) => `"${p}": "___"`).join(', ')} })`;
}

/** Splits a comma list setting (string or list) into names. */
export function nameList(value: unknown): string[] {
  const raw = Array.isArray(value) ? value.join(',') : String(value ?? '');
  return raw.split(',').map((s) => s.trim()).filter(Boolean);
}

/** The arguments text of a direct call as an object: empty is `{}`, anything else must be a JSON object. */
export function parseArgs(argsText: string): { ok: true; args: Record<string, unknown> } | { ok: false; error: Message } {
  const text = argsText.trim();
  if (!text) return { ok: true, args: {} };
  try {
    const value: unknown = JSON.parse(text);
    if (!value || typeof value !== 'object' || Array.isArray(value)) return { ok: false, error: MESSAGES.argsNotObject };
    return { ok: true, args: value as Record<string, unknown> };
  } catch (err) {
    return { ok: false, error: MESSAGES.argsNotJson(err instanceof Error ? err.message : String(err)) };
  }
}
