// The typed API client: derived from a plugin's routes (its server's Hono sub-app, imported as a
// type only), so a path, its parameters, its body and its `result` are checked where they are
// called, in the browser, the CLI and the tests. hono/client builds the requests; `send` sends
// one and reads the answer as every client does (readAnswer: the server's error, or 'You are
// offline.').
import { hc, type ClientResponse } from 'hono/client';
import type { Hono } from 'hono';
import { offlineError, readAnswer, type ApiClient } from './client.ts';

/** A client for the routes `R` (a plugin's `routes(ctx)` return type), over `api`'s origin and fetch. */
export function typedClient<R extends Hono<any, any, any>>(api: Pick<ApiClient, 'baseUrl' | 'fetch'>) {
  // hc wants an absolute-looking base; '' (this origin) becomes '/'.
  return hc<R>(api.baseUrl || '/', { fetch: api.fetch, init: { credentials: 'same-origin' } });
}

/** The success answer of a typed request (its `result` typed by the route), or the ApiError it is. */
export type Success<R> = R extends ClientResponse<infer T, any, any> ? Extract<T, { success: true }> : never;

/** Sends a typed request: its success answer, or the ApiError (offline included) it is. */
export async function send<R extends ClientResponse<any, any, any>>(request: Promise<R>): Promise<Success<R>> {
  let response: R;
  try {
    response = await request;
  } catch {
    throw offlineError();
  }
  return (await readAnswer(response as unknown as Response)) as Success<R>;
}
