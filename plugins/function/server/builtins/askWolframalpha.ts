// ask_wolframalpha(query, keyword): the Wolfram|Alpha Full Results API (WOLFRAM_BASE_URL,
// WOLFRAM_APP_ID) as plaintext pods; when the query has no answer, the keyword is asked.
import { fetchJson, FunctionError, stringArg, type Builtin } from './shared.ts';
import { MESSAGES } from '../../common/messages.ts';

interface QueryResult {
  queryresult?: { success?: boolean; error?: boolean | { msg?: string }; pods?: { title?: string; subpods?: { title?: string; plaintext?: string }[] }[] };
}

export const askWolframalpha: Builtin = async (args, { signal, config }) => {
  const query = stringArg(args, 'query');
  const keyword = stringArg(args, 'keyword', false);
  if (!config.wolframAppId) throw new FunctionError(MESSAGES.wolframOff);
  const ask = async (input: string): Promise<string | undefined> => {
    const url = `${config.wolframBaseUrl}/v2/query?${new URLSearchParams({ appid: config.wolframAppId, input, output: 'json', format: 'plaintext' })}`;
    const data = (await fetchJson(url, signal, 'Wolfram|Alpha')) as QueryResult;
    const result = data.queryresult;
    if (result?.error && typeof result.error === 'object') throw new FunctionError(MESSAGES.wolframError(result.error.msg ?? 'error'));
    if (!result?.success) return undefined;
    const lines = (result.pods ?? []).flatMap((pod) => {
      const texts = (pod.subpods ?? []).map((s) => s.plaintext?.trim()).filter((s): s is string => !!s);
      return texts.length ? [`${pod.title ?? ''}: ${texts.join('; ')}`] : [];
    });
    return lines.length ? lines.join('\n') : undefined;
  };
  const answer = (await ask(query)) ?? (keyword && keyword !== query ? await ask(keyword) : undefined);
  if (!answer) throw new FunctionError(MESSAGES.wolframNoAnswer(query));
  return { result: answer };
};
