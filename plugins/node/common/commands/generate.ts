// `:generate <input>`: the active node answers, in text and/or images.
import { effect, error, send, withApiErrors, type CommandHandler, type Output } from '../../../../src/core/index.ts';
import { MESSAGES } from '../messages.ts';
import type { NodeAccess } from './shared.ts';

export const generateWithNode =
  ({ api, active }: NodeAccess): CommandHandler =>
  (c) =>
    withApiErrors(async () => {
      const node = active(c.settings);
      if (!node) return error(MESSAGES.noneSelected);
      const input = c.args.input ?? '';
      const out = (await send(api.generate.$post({ json: { input, node } }))).result;
      const outputs: Output[] = [];
      if (out.text) outputs.push({ kind: 'markdown', text: out.text });
      if (out.images.length) outputs.push(effect({ type: 'result', previews: out.images, info: null }));
      return outputs;
    });
