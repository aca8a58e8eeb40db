// Outputs in the interface's language (issue 21): catalogue messages by their code, the shell's
// own errors by their key; other text as it is. The namespaces the codes need load first.
import type { Translate } from '../contract.ts';
import { splitCode, translateMessage, type MessageData } from '../messages.ts';
import type { Output } from '../output.ts';

export async function outputsInLanguage(outputs: Output[], tFor: (ns: string) => Translate, load: (namespaces: string[]) => Promise<void>): Promise<Output[]> {
  const namespaces = new Set<string>();
  const collect = (data: MessageData) => {
    namespaces.add(splitCode(data.code)[0]);
    for (const value of Object.values(data.params)) if (typeof value === 'object') collect(value);
  };
  for (const o of outputs) if ((o.kind === 'error' || o.kind === 'text') && o.message) collect(o.message);
  if (namespaces.size) await load([...namespaces]).catch(() => undefined);
  const t = tFor('shell');
  return outputs.map((o): Output => {
    if (o.kind === 'error' && o.key) return { kind: 'error', text: t(o.key, o.params) };
    if ((o.kind === 'error' || o.kind === 'text') && o.message) return { ...o, text: translateMessage(o.message, tFor) };
    return o;
  });
}
