// The streamed answer is drawn at most once per animation frame, however fast its pieces come.

/**
 * Batches output updates to one per animation frame (or a timer outside a browser). `stop()`
 * at the end of the stream drops a frame still due: it would otherwise land after the final
 * output and put the answer back in its streaming form (an open fence shown raw).
 */
export function frameBatcher(apply: () => void): { schedule(): void; flush(): void; stop(): void } {
  let pending = false;
  let stopped = false;
  const raf = globalThis.requestAnimationFrame ?? ((fn: () => void) => setTimeout(fn, 16));
  return {
    schedule() {
      if (pending || stopped) return;
      pending = true;
      raf(() => {
        pending = false;
        if (!stopped) apply();
      });
    },
    flush() {
      pending = false;
      if (!stopped) apply();
    },
    stop() {
      stopped = true;
    },
  };
}
