// The parsers an environment variable is declared with (issue 21), shared by the server's
// schema (src/server/env.ts) and the plugins' own (plugins/<id>/server/env.ts, issue 35): each
// takes the text of the variable, gives its default when unset, and says what is wrong with a
// bad value; `doc` adds what docs/configuration.md shows.
import { z } from 'zod';
import type { ServerPluginContext } from './serverPlugin.ts';

/** true/false, 1/0, yes/no, on/off; anything else is a mistake worth saying. */
export const flag = z
  .string()
  .optional()
  .transform((value, ctx) => {
    const v = (value ?? '').trim().toLowerCase();
    if (['', '0', 'false', 'no', 'off'].includes(v)) return false;
    if (['1', 'true', 'yes', 'on'].includes(v)) return true;
    ctx.addIssue({ code: 'custom', message: `must be true or false, got ${value}` });
    return z.NEVER;
  });

/** A number in a range; '' or unset takes the default. */
export const number = (fallback: number, min: number, max: number, integer = false) =>
  z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value.trim() === '') return fallback;
      const n = Number(value);
      if (!Number.isFinite(n) || n < min || n > max || (integer && !Number.isInteger(n))) {
        ctx.addIssue({ code: 'custom', message: `must be ${integer ? 'a whole number' : 'a number'} from ${min} to ${max}, got ${value}` });
        return z.NEVER;
      }
      return n;
    });

/** An http(s) URL without its trailing slashes; '' or unset takes the default. */
export const httpUrl = (fallback: string) =>
  z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (!value?.trim()) return fallback;
      const url = URL.parse(value.trim());
      if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
        ctx.addIssue({ code: 'custom', message: `must be an http(s) URL, got ${value}` });
        return z.NEVER;
      }
      return url.href.replace(/\/+$/, '');
    });

/** A comma-separated list, each item trimmed, empty ones dropped. */
export const list = z
  .string()
  .optional()
  .transform((value) => (value ?? '').split(',').map((s) => s.trim()).filter(Boolean));

/**
 * A URL whose scheme is one of `schemes` ('' or unset: ''). The value is never repeated in the
 * message: a database, proxy or mail URL carries its password.
 */
export const secretUrl = (schemes: readonly string[], example: string) =>
  z
    .string()
    .optional()
    .transform((value, ctx) => {
      const v = value?.trim() ?? '';
      if (!v) return '';
      const url = URL.parse(v);
      if (!url || !schemes.includes(url.protocol.slice(0, -1).toLowerCase())) {
        ctx.addIssue({ code: 'custom', message: `must be a URL such as ${example} (${schemes.map((s) => `${s}://`).join(', ')})` });
        return z.NEVER;
      }
      return v;
    });

export const text = (fallback = '') =>
  z
    .string()
    .optional()
    .transform((value) => value || fallback);

export const oneOf = <const T extends readonly [string, ...string[]]>(values: T, fallback: T[number]) =>
  z
    .string()
    .optional()
    .transform((value, ctx): T[number] => {
      if (!value) return fallback;
      if ((values as readonly string[]).includes(value)) return value;
      ctx.addIssue({ code: 'custom', message: `must be one of ${values.join(', ')}, got ${value}` });
      return z.NEVER;
    });

/**
 * Each variable: its parser (with its default), and for the documentation its default as a
 * person reads it (not always the parser's value: 'generated', 'SQLite in DATA_DIR') and meaning.
 */
export const doc = <T extends z.ZodType>(schema: T, shownDefault: string, description: string): T => schema.meta({ shownDefault, description });


/**
 * A server plugin's own variables and what it makes of them: the server merges `schema` into
 * its own (so a wrong value stops the start like any other, and docs/configuration.md lists
 * them), calls `config` once at start, and hands the result to the plugin alone (`of(ctx)`).
 */
export interface PluginEnv<S extends z.ZodRawShape = z.ZodRawShape, C = unknown> {
  schema: z.ZodObject<S>;
  /** An Error it throws stops the start, its message the one line the operator reads. */
  config(env: z.output<z.ZodObject<S>>, files: OperatorFiles): C;
  of(ctx: Pick<ServerPluginContext, 'ownConfig'>): C;
}

/** The operator's files a plugin's configuration may read (plugins use no node:fs): the server reads them. */
export interface OperatorFiles {
  /** A file in DATA_DIR. */
  inDataDir(name: string): string;
  /** The file a variable names, from the working directory; it must exist (a typo stops the start). */
  named(variable: string, value: string): string;
  /** A file's text, or undefined when it does not exist; unreadable, it stops the start naming `variable`. */
  read(variable: string, file: string): string | undefined;
}

export function definePluginEnv<S extends z.ZodRawShape, C>(shape: S, config: (env: z.output<z.ZodObject<S>>, files: OperatorFiles) => C): PluginEnv<S, C> {
  return { schema: z.object(shape), config, of: (ctx) => ctx.ownConfig as C };
}
