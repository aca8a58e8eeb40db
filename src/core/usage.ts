// Usage (spec parts 2, 3, 7 and 9): what `GET /api/user/usage` answers, and the use limits per
// role. Shared by the server, which counts and enforces, and the Usage page, which shows it.

export interface TokenPair {
  input: number;
  output: number;
}

export interface ModelUsage {
  model: string;
  token: { this_month: TokenPair; last_month: TokenPair };
  fee: { this_month: number; last_month: number };
  /** Tokens in the last 24 hours, 7 days and 30 days. */
  token_frequencies: { daily: TokenPair; weekly: TokenPair; monthly: TokenPair };
}

/** Uses (questions answered) in the last 24 hours, 7 days and 30 days, against the role's limits. */
export interface UseCountFrequencies {
  daily: number;
  weekly: number;
  monthly: number;
  daily_limit: number | null;
  weekly_limit: number | null;
  monthly_limit: number | null;
  exceeded: boolean;
}

/** The whole service's tokens and fees by model (every user and visitor), this month and last. */
export interface ServiceUsage {
  model: string;
  uses: { this_month: number; last_month: number };
  token: { this_month: TokenPair; last_month: TokenPair };
  fee: { this_month: number; last_month: number };
}

export interface UsageRecord {
  /** Questions answered in this calendar month and the last (UTC). */
  use_count_monthly: { this_month: number; last_month: number };
  model_usage: ModelUsage[];
  use_count_frequencies: UseCountFrequencies;
  /** The services-usage block of spec part 2: for rank 3 (super_user) and above only. */
  services_usage?: ServiceUsage[];
  /** Every fee so far against the balance, in dollars (a logged-in user's). */
  fees_total?: number;
  balance?: number;
}

/** A role's limits on uses per rolling day, week and month; null is no limit. */
export interface UsageLimits {
  daily: number | null;
  weekly: number | null;
  monthly: number | null;
}

export const USAGE_WINDOWS_MS = { daily: 86_400_000, weekly: 7 * 86_400_000, monthly: 30 * 86_400_000 } as const;

/**
 * `USAGE_LIMITS`: `role:daily,weekly,monthly;...`, as the original's ROLE_USAGE_LIMIT
 * (`user:540,3780,16740;plus_user:4320,30240,133920`); `anonymous` names visitors who are not
 * logged in; an empty or `-` number is no limit. Throws with the part that is wrong.
 */
export function parseUsageLimits(text: string): Record<string, UsageLimits> {
  const limits: Record<string, UsageLimits> = {};
  for (const part of text.split(';').map((s) => s.trim()).filter(Boolean)) {
    const m = /^([a-z_]+)\s*:\s*([^,]*),([^,]*),([^,]*)$/.exec(part);
    const numbers = m?.slice(2).map((n) => n.trim());
    if (!m || !numbers!.every((n) => n === '' || n === '-' || /^\d+$/.test(n))) {
      throw new Error(`USAGE_LIMITS: "${part}" is not role:daily,weekly,monthly`);
    }
    const [daily, weekly, monthly] = numbers!.map((n) => (n === '' || n === '-' ? null : Number(n)));
    limits[m[1]!] = { daily: daily!, weekly: weekly!, monthly: monthly! };
  }
  return limits;
}

/** Whether any limit is reached (at the limit, the next use is refused). */
export function limitReached(uses: { daily: number; weekly: number; monthly: number }, limits: UsageLimits | undefined): boolean {
  if (!limits) return false;
  return (['daily', 'weekly', 'monthly'] as const).some((w) => limits[w] !== null && uses[w] >= limits[w]!);
}
