// Failed attempts at a secret (a login's password, a group's password), counted so that an
// attacker cannot guess for long and cannot lock a person out from elsewhere (issue 34):
// - per (target, address): the lock-out of that pair, a few failures (a typo-prone person too);
// - per address: spraying many targets from one place;
// - per target from anywhere: guessing from many addresses. With `known` set (logins), this
//   one holds back only addresses the target never succeeded from, so the owner at home
//   still gets in while a botnet elsewhere is stopped.
// IPv6 addresses count by their /64, which one subscriber usually holds whole.
import type { AttemptThrottle } from '../../core/index.ts';
import { addressNetwork } from '../http/clientAddress.ts';
import type { Shared } from '../shared/redis.ts';
import { Throttle, type ThrottleRule } from './throttle.ts';

export interface AttemptRules {
  pair: ThrottleRule;
  address: ThrottleRule;
  target: ThrottleRule;
  /** How long a success from an address makes it known to the target (none: no exemption). */
  knownMs?: number;
}

export class Attempts implements AttemptThrottle {
  private readonly pair: Throttle;
  private readonly address: Throttle;
  private readonly target: Throttle;
  private readonly known?: Throttle;

  /** `name` keeps the counters apart (in Redis: `shellchat:throttle:<name>-pair:...`). */
  constructor(name: string, rules: AttemptRules, shared?: Shared) {
    this.pair = new Throttle(rules.pair, `${name}-pair`, shared);
    this.address = new Throttle(rules.address, `${name}-address`, shared);
    this.target = new Throttle(rules.target, `${name}-target`, shared);
    if (rules.knownMs) this.known = new Throttle({ limit: 1, windowMs: rules.knownMs }, `${name}-known`, shared);
  }

  async wait(target: string, address: string): Promise<number> {
    const from = addressNetwork(address);
    const pairKey = `${target}|${from}`;
    const [pair, spray, anywhere, known] = await Promise.all([
      this.pair.retryAfter(pairKey),
      this.address.retryAfter(from),
      this.target.retryAfter(target),
      this.known ? this.known.retryAfter(pairKey) : Promise.resolve(0),
    ]);
    // A known pair (retryAfter > 0 on its one-point counter) is not held back by the target's counter.
    return Math.max(pair, spray, known > 0 ? 0 : anywhere);
  }

  async failed(target: string, address: string): Promise<void> {
    const from = addressNetwork(address);
    await Promise.all([this.pair.fail(`${target}|${from}`), this.address.fail(from), this.target.fail(target)]);
  }

  async succeeded(target: string, address: string): Promise<void> {
    const pairKey = `${target}|${addressNetwork(address)}`;
    await this.pair.clear(pairKey);
    if (this.known) {
      // Counted afresh from this success, so the address stays known while it is used.
      await this.known.clear(pairKey);
      await this.known.fail(pairKey);
    }
  }
}
