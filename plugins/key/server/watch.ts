// A running /v1 call ends soon after its key is revoked, expires or loses its user, on every
// instance: while calls of a key run here, one timer re-reads that key's row every `everyMs`,
// shared by all of them (200 streams of one key cost one read a period, not 200).

/** Why a key no longer answers (the wording of its 401), or undefined while it is live. */
export type KeyCheck<Why> = (keyId: number) => Promise<Why | undefined>;

interface Watched<Why> {
  ends: Set<(why: Why) => void>;
  timer: ReturnType<typeof setTimeout> | undefined;
}

export function keyWatcher<Why>(check: KeyCheck<Why>, everyMs: number, onError: (err: unknown) => void) {
  const watched = new Map<number, Watched<Why>>();

  const schedule = (keyId: number, entry: Watched<Why>) => {
    entry.timer = setTimeout(() => void tick(keyId, entry), everyMs);
    // A watch never keeps the process alive on its own.
    (entry.timer as { unref?: () => void }).unref?.();
  };

  async function tick(keyId: number, entry: Watched<Why>) {
    entry.timer = undefined;
    let why: Why | undefined;
    try {
      why = await check(keyId);
    } catch (err) {
      // A database hiccup does not cut the streams: the next period reads again.
      onError(err);
    }
    if (watched.get(keyId) !== entry || !entry.ends.size) return;
    if (why === undefined) return schedule(keyId, entry);
    watched.delete(keyId);
    for (const end of [...entry.ends]) end(why);
  }

  /** Calls `end` once if the key stops answering while watched; the returned function stops watching. */
  function watch(keyId: number, end: (why: Why) => void): () => void {
    let entry = watched.get(keyId);
    if (!entry) {
      entry = { ends: new Set(), timer: undefined };
      watched.set(keyId, entry);
      schedule(keyId, entry);
    }
    const mine = (why: Why) => end(why);
    entry.ends.add(mine);
    const held = entry;
    return () => {
      held.ends.delete(mine);
      if (held.ends.size || watched.get(keyId) !== held) return;
      if (held.timer !== undefined) clearTimeout(held.timer);
      watched.delete(keyId);
    };
  }

  /** How many keys are watched here (for the tests' bound). */
  const size = () => watched.size;

  return { watch, size };
}

export type KeyWatcher<Why> = ReturnType<typeof keyWatcher<Why>>;
