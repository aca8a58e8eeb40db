import type { ModelInfo } from './controller.ts';

/** What a click on the model-info line copies (spec part 2). */
export function modelInfoCopy(info: ModelInfo, withModifier: boolean): { text: string; kind: 'raw' | 'attach' } {
  return withModifier ? { text: `:session attach ${info.session}`, kind: 'attach' } : { text: info.raw, kind: 'raw' };
}
