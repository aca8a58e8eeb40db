// Generations under way, so that a shutdown can stop them the way a user's stop does: each
// keeps its answer so far as the turn's log and tells its browser so (main.ts). Without this, a
// deploy's SIGTERM waited 10 s and then exited under any answer still streaming, which lost it.
import { SERVER_MESSAGES } from '../../core/serverMessages.ts';

/** The abort reason of a generation stopped because the server is shutting down. */
export class ServerStopping extends Error {
  constructor() {
    super(SERVER_MESSAGES.shuttingDown.text);
  }
}

export class InFlight {
  private readonly turns = new Map<AbortController, Promise<unknown>>();

  /** Tracks `run` (a generation under `abort`) until it settles; returns it. */
  track<T>(abort: AbortController, run: Promise<T>): Promise<T> {
    this.turns.set(abort, run);
    const forget = () => this.turns.delete(abort);
    run.then(forget, forget);
    return run;
  }

  get size(): number {
    return this.turns.size;
  }

  /**
   * Stops every generation under way and waits, at most `ms`, until each has kept its answer
   * and finished its response. Returns how many were stopped.
   */
  async stopAll(ms: number): Promise<number> {
    const running = [...this.turns];
    for (const [abort] of running) abort.abort(new ServerStopping());
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
    await Promise.race([Promise.allSettled(running.map(([, run]) => run)), deadline]);
    clearTimeout(timer);
    return running.length;
  }
}
