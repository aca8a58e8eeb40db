// Login throttling per username and per address: after too many failures in a window, further
// attempts are refused until the window passes. rate-limiter-flexible: in memory for one
// instance; with REDIS_URL, in Redis (its atomic script), so that several instances count the
// same failures. When Redis cannot be reached, each instance counts in memory meanwhile (the
// library's insurance limiter) and a warning is logged once: login stays possible, throttled
// per instance. The window is fixed from the first failure (not sliding).
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Throttler } from '../../core/index.ts';
import type { Shared } from '../shared/redis.ts';

export interface ThrottleRule {
  limit: number;
  windowMs: number;
}

export class Throttle implements Throttler {
  private readonly limiter: RateLimiterAbstract;
  private readonly rule: ThrottleRule;

  /** `name` keeps throttles apart in Redis (`shellchat:throttle:<name>:<key>`). */
  constructor(rule: ThrottleRule, name = 'throttle', shared?: Shared) {
    this.rule = rule;
    // The in-memory limiter forgets a key by a timer, and Node fires a longer one at once.
    if (rule.windowMs > 2 ** 31 - 1) throw new Error(`Throttle ${name}: a window of at most 24 days`);
    const options = { points: rule.limit, duration: Math.ceil(rule.windowMs / 1000) };
    this.limiter = shared
      ? new RateLimiterRedis({
          ...options,
          storeClient: shared.client,
          useRedisPackage: true,
          keyPrefix: `shellchat:throttle:${name}`,
          // A command to a Redis that is away fails at once instead of waiting in a queue.
          rejectIfRedisNotReady: true,
          insuranceLimiter: new RateLimiterMemory({ ...options, keyPrefix: `${name}:insurance` }),
        })
      : new RateLimiterMemory({ ...options, keyPrefix: name });
  }

  /** Milliseconds until the key may try again; 0 when it may now. */
  async retryAfter(key: string): Promise<number> {
    const state = await this.limiter.get(key);
    return state && state.consumedPoints >= this.rule.limit ? Math.max(1, state.msBeforeNext) : 0;
  }

  async fail(key: string): Promise<void> {
    await this.limiter.penalty(key, 1);
  }

  async clear(key: string): Promise<void> {
    await this.limiter.delete(key);
  }
}
