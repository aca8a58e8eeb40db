// Ranks (spec part 6) and the role expiry display (spec part 2).
import { ROLE_RANKS } from './constants.ts';

export type RoleName = keyof typeof ROLE_RANKS;
export const ROLE_NAMES = Object.keys(ROLE_RANKS) as RoleName[];

export function rankOf(role: string): number {
  return (ROLE_RANKS as Record<string, number>)[role] ?? 0;
}

/** MM/DD/YYYY in UTC, or 'Unlimited' when there is no expiry. */
export function formatRoleExpiry(expiresAt: number | null | undefined): string {
  if (expiresAt === null || expiresAt === undefined) return 'Unlimited';
  const d = new Date(expiresAt);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(d.getUTCMonth() + 1)}/${pad(d.getUTCDate())}/${d.getUTCFullYear()}`;
}
