// Server-sent events read from a provider's byte stream: the `data` of each event, in the
// order they arrive, whatever the reads cut (mid-line, mid-UTF-8 character, CR LF or LF).
// Comments, `event:`, `id:` and `retry:` lines are ignored: chat-completion streams carry
// everything in `data`. Several `data:` lines of one event are joined with a newline.

/** A reader to feed each network read; it calls `onData` once per complete event. */
export function sseEvents(onData: (data: string) => void): (chunk: Uint8Array) => void {
  const decoder = new TextDecoder();
  let buffer = '';
  let data = '';
  let started = false;
  return (chunk) => {
    buffer += decoder.decode(chunk, { stream: true });
    let start = 0;
    for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n', start)) {
      // Without the trailing CR of a CR LF line ending.
      const end = nl > start && buffer.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
      const lineStart = start;
      start = nl + 1;
      if (end === lineStart) {
        // A blank line ends an event.
        if (!started) continue;
        const event = data;
        data = '';
        started = false;
        onData(event);
        continue;
      }
      if (!buffer.startsWith('data:', lineStart)) continue;
      const from = buffer.charCodeAt(lineStart + 5) === 32 ? lineStart + 6 : lineStart + 5;
      data = started ? `${data}\n${buffer.slice(from, end)}` : buffer.slice(from, end);
      started = true;
    }
    buffer = start === buffer.length ? '' : buffer.slice(start);
  };
}
