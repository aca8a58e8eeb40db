// Imports running at once: each holds a scratch file of up to IMPORT_MAX_MB and a parser's CPU,
// so an instance runs at most IMPORT_MAX_RUNNING, one per person, and refuses the rest before
// their body is read. Counted in this process: the disk and the CPU it spares are its own.

/** How long an import is taken to last before one has ended here: what the first refusals wait. */
const TYPICAL_MS = 30_000;
/** The wait a refusal asks for (Retry-After), in seconds: never a stampede, never long. */
const WAIT_MIN_S = 5;
const WAIT_MAX_S = 300;

export type Entry = { release: () => void } | { refused: 'mine' | 'full'; retryAfter: number };

export class ImportGate {
  /** The users with an import running, and when it started. */
  private readonly running = new Map<number, number>();
  /** How long imports take here: the mean of the last ones, weighted to the newest. */
  private typical = TYPICAL_MS;
  private readonly max: number;
  private readonly now: () => number;

  constructor(max: number, now: () => number = Date.now) {
    this.max = max;
    this.now = now;
  }

  /** A place for the user's import, given back by `release` (once, however often called); or why not, and when to try again. */
  enter(user: number): Entry {
    const mine = this.running.get(user);
    if (mine !== undefined) return { refused: 'mine', retryAfter: this.wait([mine]) };
    if (this.running.size >= this.max) return { refused: 'full', retryAfter: this.wait([...this.running.values()]) };
    const started = this.now();
    this.running.set(user, started);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.running.delete(user);
        this.typical = Math.round(0.7 * this.typical + 0.3 * (this.now() - started));
      },
    };
  }

  /** Seconds until the soonest of these imports may be expected to end, within bounds. */
  private wait(starts: number[]): number {
    const soonest = Math.min(...starts.map((started) => started + this.typical)) - this.now();
    return Math.min(WAIT_MAX_S, Math.max(WAIT_MIN_S, Math.ceil(soonest / 1000)));
  }
}
