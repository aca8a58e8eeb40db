// zod validation of request bodies and queries (@hono/zod-validator), with a clear 400 answer
// naming the field, and 'The request body must be JSON.' for a body that is not.
import { zValidator } from '@hono/zod-validator';
import type { Context, MiddlewareHandler } from 'hono';
import type { ZodType } from 'zod';
import type { Validated } from '../../core/serverPlugin.ts';
import { fail } from './respond.ts';
import { SERVER_MESSAGES } from '../../core/serverMessages.ts';

const invalid = (c: Context, issue: { path: PropertyKey[]; message: string }) => {
  const field = issue.path.map(String).join('.');
  return fail(c, 400, field ? `Invalid ${field}: ${issue.message}` : `Invalid request: ${issue.message}`);
};

export function validate<Target extends 'json' | 'query', S extends ZodType>(target: Target, schema: S): Validated<Target, S> {
  const check = zValidator(target, schema, (result, c) => (result.success ? undefined : invalid(c, result.error.issues[0]!))) as unknown as MiddlewareHandler;
  if (target === 'query') return check as Validated<Target, S>;
  // The validator reads the body only when it is declared JSON, and throws on a malformed one:
  // read it here first (Hono keeps it for the validator), whatever the declared type.
  return (async (c, next) => {
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      return fail(c, 400, SERVER_MESSAGES.notJson);
    }
    if (/^application\/([a-z-.]+\+)?json/i.test(c.req.header('content-type') ?? '')) return check(c, next);
    // Declared otherwise: checked as read, so a client that forgets the header is still understood.
    const parsed = schema.safeParse(body);
    if (!parsed.success) return invalid(c, parsed.error.issues[0]!);
    c.req.addValidatedData('json', parsed.data as object);
    return next();
  }) as Validated<Target, S>;
}
