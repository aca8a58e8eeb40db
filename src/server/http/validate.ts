// zod validation of request bodies and queries, with a clear 400 answer naming the field.
import type { MiddlewareHandler } from 'hono';
import type { ZodType } from 'zod';
import { fail } from './respond.ts';
import { SERVER_MESSAGES } from '../../core/serverMessages.ts';

export function validate<T>(target: 'json' | 'query', schema: ZodType<T>): MiddlewareHandler {
  return async (c, next) => {
    let raw: unknown;
    if (target === 'json') {
      try {
        raw = await c.req.json();
      } catch {
        return fail(c, 400, SERVER_MESSAGES.notJson);
      }
    } else {
      raw = c.req.query();
    }
    const parsed = schema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const field = issue.path.join('.');
      return fail(c, 400, field ? `Invalid ${field}: ${issue.message}` : `Invalid request: ${issue.message}`);
    }
    c.req.addValidatedData(target, parsed.data as object);
    await next();
  };
}
