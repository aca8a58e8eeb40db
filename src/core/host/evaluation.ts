// Self-evaluation score colours (spec part 9).
export type EvalColour = 'green' | 'orange' | 'red' | 'grey';

export function evalColour(score: number): EvalColour {
  if (!Number.isFinite(score) || score < 0 || score > 10) return 'grey';
  if (score >= 7) return 'green';
  if (score >= 4) return 'orange';
  return 'red';
}
