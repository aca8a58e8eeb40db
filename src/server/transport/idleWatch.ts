// Gives up on provider requests that have sent nothing for too long, with one shared timer.
// Why not socket.setTimeout: Node refreshes that timer on every read (a timer-list reinsert and
// a clock read per relayed token, benchmark B5), while a stalled provider needs only coarse
// detection. Here a read costs one counter increment; a sweep every `limitMs / 10` (at most
// 10 s) notices a counter that stopped moving, so a request is given up between `limitMs` and
// `limitMs` plus one sweep after its last byte. The timer runs only while requests are watched
// and never keeps the process alive.

export interface Watch {
  /** Bumped on every read: any change since the last sweep counts as activity. */
  activity: number;
}

interface Entry extends Watch {
  seen: number;
  idleSince: number;
  onIdle: () => void;
}

export class IdleWatch {
  private readonly entries = new Set<Entry>();
  private timer: NodeJS.Timeout | undefined;
  private readonly sweepMs: number;
  readonly limitMs: number;

  constructor(limitMs: number) {
    this.limitMs = limitMs;
    this.sweepMs = Math.max(5, Math.min(10_000, Math.floor(limitMs / 10)));
  }

  /** Watches a new request; `onIdle` runs once if it stays silent for the limit. */
  watch(onIdle: () => void): Watch {
    const entry: Entry = { activity: 0, seen: 0, idleSince: Date.now(), onIdle };
    this.entries.add(entry);
    if (!this.timer) {
      this.timer = setInterval(() => this.sweep(), this.sweepMs);
      this.timer.unref();
    }
    return entry;
  }

  unwatch(watch: Watch): void {
    this.entries.delete(watch as Entry);
    if (this.entries.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  /** How many requests are watched (for tests: nothing may be left behind). */
  get size(): number {
    return this.entries.size;
  }

  private sweep(): void {
    const now = Date.now();
    for (const entry of this.entries) {
      if (entry.activity !== entry.seen) {
        entry.seen = entry.activity;
        entry.idleSince = now;
      } else if (now - entry.idleSince >= this.limitMs) {
        this.unwatch(entry);
        entry.onIdle();
      }
    }
  }
}
