/**
 * fetch (undici) failed because the connection closed under the request before any answer:
 * fetch's TypeError, or the AI SDK's error made of it, has the socket error as its cause. As a
 * rule that is a kept-alive connection the provider had closed; undici does not say whether
 * the connection was reused, so such a request is sent once more either way (the official
 * OpenAI client retries connection errors too).
 */
export function closedUnderRequest(err: unknown): boolean {
  for (let e = err, depth = 0; e && depth < 3; e = (e as { cause?: unknown }).cause, depth++) {
    if (['UND_ERR_SOCKET', 'ECONNRESET'].includes((e as { code?: string }).code ?? '')) return true;
  }
  return false;
}
