// Caps on answers in flight (issue 34): one anonymous cookie once opened 1,500 answers at once,
// every one relayed to the provider on the operator's key. A turn takes a slot for its owner
// (the user, or the anonymous browser) and one for its address before anything else runs, and
// gives both back when it ends, fails or is stopped. Counted in this process: with several
// instances each counts its own (docs/deployment.md).
import type { Owner } from './owner.ts';
import { addressNetwork } from '../http/clientAddress.ts';

/** How many answers may be in flight at once; 0 is no cap (MAX_ANSWERS_PER_*). */
export interface AnswerCapLimits {
  user: number;
  visitor: number;
  address: number;
}

export class AnswerCaps {
  private counts = new Map<string, number>();
  /** Keys in `counts` at 0. */
  private zeros = 0;
  private readonly limits: AnswerCapLimits;

  constructor(limits: AnswerCapLimits) {
    this.limits = limits;
  }

  /**
   * Takes a slot for the owner and one for the address; returns what gives them back (once,
   * however often it is called), or undefined when either is full (nothing taken then).
   */
  take(owner: Owner, address: string): (() => void) | undefined {
    const own = owner.user ? `u:${owner.user.id}` : `v:${owner.deviceId}`;
    const ownLimit = owner.user ? this.limits.user : this.limits.visitor;
    const at = `a:${addressNetwork(address)}`;
    if (this.full(own, ownLimit) || this.full(at, this.limits.address)) return undefined;
    this.add(own, 1);
    this.add(at, 1);
    let given = false;
    return () => {
      if (given) return;
      given = true;
      this.add(own, -1);
      this.add(at, -1);
    };
  }

  private full(key: string, limit: number): boolean {
    return limit > 0 && (this.counts.get(key) ?? 0) >= limit;
  }

  // A key back at 0 stays, and the zeros go once they outnumber the rest: deleting it each time
  // left V8's Map a chain of deleted entries under that key's hash until its next rehash, which
  // the key's next lookup walked (an address asking turn after turn beside 300 answers in
  // flight cost 40 µs a take instead of 3, growing with the answers in flight).
  private add(key: string, n: number): void {
    const before = this.counts.get(key);
    const next = (before ?? 0) + n;
    this.counts.set(key, next);
    if (next === 0) this.zeros++;
    else if (before === 0) this.zeros--;
    if (this.zeros > 1024 && this.zeros * 2 > this.counts.size) {
      this.counts = new Map([...this.counts].filter(([, held]) => held > 0));
      this.zeros = 0;
    }
  }
}
