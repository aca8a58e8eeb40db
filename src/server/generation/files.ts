// Text of attached files (+file[url]) for the context. The URLs are the user's, so they go
// through the egress-safe fetch. Text formats now; PDF and DOCX come with the data stores.
const TEXT_TYPES = /\.(txt|md|markdown|csv|json)(\?|#|$)/i;
const MAX_CHARS = 100_000;

export async function fetchFileTexts(urls: string[], egressFetch: typeof fetch, signal: AbortSignal): Promise<{ url: string; text: string }[]> {
  const out: { url: string; text: string }[] = [];
  for (const url of urls) {
    if (!TEXT_TYPES.test(new URL(url).pathname)) {
      out.push({ url, text: '(This file type cannot be read yet.)' });
      continue;
    }
    try {
      const response = await egressFetch(url, { signal });
      if (!response.ok) throw new Error(`status ${response.status}`);
      const text = await response.text();
      out.push({ url, text: text.length > MAX_CHARS ? `${text.slice(0, MAX_CHARS)}\n(truncated)` : text });
    } catch (err) {
      out.push({ url, text: `(The file could not be read: ${(err as Error).message})` });
    }
  }
  return out;
}
