// The API's answer shape (spec part 7): {success, message, error, result}, with the code and
// values of a catalogue message beside its English (src/core/messages.ts). Typed, so that the
// client derived from the routes (hono/client) knows each route's `result`.
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { answerFields } from '../../core/api/client.ts';
import type { Message } from '../../core/messages.ts';
import type { Answered, ApiFailure, ApiSuccess, RefusalStatus, Refused } from '../../core/serverPlugin.ts';

export function ok<T = undefined>(c: Context, result?: T, message?: string | Message): Answered<T> {
  const body = { success: true, ...(message !== undefined ? answerFields('message', message) : {}) } as ApiSuccess<T>;
  if (result !== undefined) body.result = result;
  return c.json(body, 200) as unknown as Answered<T>;
}

export function fail<S extends RefusalStatus>(c: Context, status: S, error: string | Message): Refused<S> {
  return c.json({ success: false, ...answerFields('error', error) } as ApiFailure, status as ContentfulStatusCode) as unknown as Refused<S>;
}
