// Self-evaluation (spec parts 4 and 9): a second, non-streaming call asks a model to score the
// answer from 0 to 10 with a one-sentence reason. Its tokens are counted in usage.
import { generateText, type LanguageModel } from 'ai';
import { previewLine } from '../../core/index.ts';

export interface Judgement {
  score: number | null;
  reason: string;
  usage: { inputTokens: number; outputTokens: number };
}

/** The evaluator's system prompt (the demo double recognises the evaluation call by it). */
export const EVAL_PROMPT = `You check answers for mistakes. Score how correct and credible the ANSWER to the QUESTION is, from 0 (wrong or made up) to 10 (correct and well supported). An honest "I don't know" scores higher than a confident guess. Reply with one line: the score, a space, a hyphen, a space, and a one-sentence reason. Example: 8 - The facts are right but the date is not given.`;

/**
 * The score and reason from the evaluator's reply: "8 - reason", "8/10: reason", "Score: 8 -
 * reason", or the score in bold. A reply with no score (a model that ignored the format) keeps
 * its text as the reason, on one line and cut like a preview, so the block stays one line.
 */
export function parseJudgement(text: string): { score: number | null; reason: string } {
  const m = /^\s*(?:\*\*)?(?:score\s*[:=]?\s*)?(\d{1,2})(?:\s*\/\s*10)?(?:\*\*)?(?!\d)\s*[-:–—.]?\s*([\s\S]*)$/i.exec(text.trim());
  const score = m ? Number(m[1]) : Number.NaN;
  if (!m || score > 10) return { score: null, reason: previewLine(text) };
  return { score, reason: m[2]!.trim() };
}

export async function evaluate(model: LanguageModel, question: string, answer: string, signal: AbortSignal): Promise<Judgement> {
  const result = await generateText({
    model,
    system: EVAL_PROMPT,
    prompt: `QUESTION:\n${question}\n\nANSWER:\n${answer}`,
    abortSignal: signal,
    maxRetries: 2,
  });
  return {
    ...parseJudgement(result.text),
    usage: { inputTokens: result.usage.inputTokens ?? 0, outputTokens: result.usage.outputTokens ?? 0 },
  };
}
