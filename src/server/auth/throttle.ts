// Login throttling per username and per address: after too many failures in a window, further
// attempts are refused until the window passes. In memory; one server instance.

export interface ThrottleRule {
  limit: number;
  windowMs: number;
}

export class Throttle {
  private readonly failures = new Map<string, number[]>();
  private readonly rule: ThrottleRule;

  constructor(rule: ThrottleRule) {
    this.rule = rule;
  }

  private recent(key: string, now: number): number[] {
    const list = (this.failures.get(key) ?? []).filter((t) => now - t < this.rule.windowMs);
    if (list.length) this.failures.set(key, list);
    else this.failures.delete(key);
    return list;
  }

  /** Milliseconds until the key may try again; 0 when it may now. */
  retryAfter(key: string, now = Date.now()): number {
    const list = this.recent(key, now);
    if (list.length < this.rule.limit) return 0;
    return this.rule.windowMs - (now - list[list.length - this.rule.limit]!);
  }

  fail(key: string, now = Date.now()): void {
    this.failures.set(key, [...this.recent(key, now), now]);
  }

  clear(key: string): void {
    this.failures.delete(key);
  }
}
