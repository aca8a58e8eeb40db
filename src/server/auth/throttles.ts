// The server's throttles and their numbers (docs/decisions.md, "Throttles"). Every window is
// 15 minutes, fixed from the first failure.
import type { Throttler } from '../../core/index.ts';
import type { Shared } from '../shared/redis.ts';
import { addressNetwork } from '../http/clientAddress.ts';
import { Attempts } from './attempts.ts';
import { Throttle, type ThrottleRule } from './throttle.ts';

const WINDOW = 15 * 60_000;

/** A throttle keyed by client address (an IPv6 one by its /64). */
function perAddress(rule: ThrottleRule, name: string, shared: Shared | undefined): Throttler {
  const throttle = new Throttle(rule, name, shared);
  return {
    retryAfter: (address) => throttle.retryAfter(addressNetwork(address)),
    fail: (address) => throttle.fail(addressNetwork(address)),
    clear: (address) => throttle.clear(addressNetwork(address)),
  };
}

export function createThrottles(shared: Shared | undefined) {
  return {
    // 5 wrong passwords lock (username, address) out; 20 lock an address out of every login; 50
    // from anywhere lock the username out of addresses it has not logged in from in 3 weeks.
    login: new Attempts(
      'login',
      { pair: { limit: 5, windowMs: WINDOW }, address: { limit: 20, windowMs: WINDOW }, target: { limit: 50, windowMs: WINDOW }, knownMs: 21 * 86_400_000 },
      shared,
    ),
    // The same for group passwords, counted apart (a wrong group password does not hold logins back).
    groupJoin: new Attempts('join', { pair: { limit: 5, windowMs: WINDOW }, address: { limit: 20, windowMs: WINDOW }, target: { limit: 50, windowMs: WINDOW } }, shared),
    // Accounts made from one address.
    signups: perAddress({ limit: 20, windowMs: WINDOW }, 'signup', shared),
    // Answers that say a username or an e-mail address has an account (a refused sign-up, an
    // invitation to a member): 10 per address, then no more answers of any kind.
    signupProbes: perAddress({ limit: 10, windowMs: WINDOW }, 'signup-probe', shared),
  };
}

export type Throttles = ReturnType<typeof createThrottles>;
