// The API's answer shape (spec part 7): {success, message, error, result}.
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

export interface ApiResponse<T = unknown> {
  success: boolean;
  message?: string;
  error?: string;
  result?: T;
}

export function ok<T>(c: Context, result?: T, message?: string): Response {
  const body: ApiResponse<T> = { success: true };
  if (message !== undefined) body.message = message;
  if (result !== undefined) body.result = result;
  return c.json(body);
}

export function fail(c: Context, status: ContentfulStatusCode, error: string): Response {
  return c.json<ApiResponse>({ success: false, error }, status);
}
