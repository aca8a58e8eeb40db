import { describe, expect, it } from 'vitest';
import { MESSAGES } from './messages.ts';
import { waitFor } from './rules.ts';

describe('the usage limit says what to do next', () => {
  it('says the wait in minutes, hours or days, rounded up and never under 2', () => {
    const text = (ms: number) => waitFor(ms).text;
    expect(text(10_000)).toBe('2 minutes');
    expect(text(61 * 60_000)).toBe('61 minutes');
    expect(text(119 * 60_000 + 1)).toBe('2 hours');
    expect(text(23.5 * 3_600_000)).toBe('24 hours');
    expect(text(47 * 3_600_000 + 1)).toBe('2 days');
    expect(text(6.2 * 86_400_000)).toBe('7 days');
  });

  it('tells a visitor the commands to sign up and log in as :help writes them', () => {
    expect(MESSAGES.usageLimitVisitor(waitFor(3_600_000)).text).toBe(
      'The usage limitation has been reached. Sign up with :user add <username> <email> [<password>] or log in with :login <username> <password> [--save|-s [Nh|Nd]], or ask again in 60 minutes.',
    );
    expect(MESSAGES.usageLimitUser(waitFor(3_600_000)).toData()).toEqual({
      code: 'user.usageLimitUser',
      params: { wait: { code: 'user.waitMinutes', params: { n: 60 }, text: '60 minutes' } },
      text: 'The usage limitation has been reached. You can ask again in 60 minutes.',
    });
  });
});
