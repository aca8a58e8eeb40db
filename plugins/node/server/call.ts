// One call to a node: an OpenAI-compatible or Ollama chat endpoint, or a plain HTTP JSON
// endpoint answering text and/or images. Always through the egress-safe fetch the server
// hands plugins, so a node cannot reach private addresses unless the operator allows them.
import { MessageError, saidBy } from '../../../src/core/messages.ts';
import { MESSAGES } from '../common/messages.ts';
import { type NodeSettings } from '../common/rules.ts';

/** Why a node gave nothing, in the words the person sees (its code kept). */
export class NodeError extends MessageError {
  override name = 'NodeError';
}

/** Longest text a node may contribute; more is cut. */
const TEXT_MAX = 20_000;
const IMAGES_MAX = 8;

function promptFor(settings: NodeSettings, input: string): string {
  const template = settings.prompt_template;
  if (!template) return input;
  return template.includes('{input}') ? template.replaceAll('{input}', input) : `${template}\n\n${input}`;
}

const imageUrls = (value: unknown): string[] =>
  (Array.isArray(value) ? value : [])
    .filter((u): u is string => typeof u === 'string' && /^https?:\/\//i.test(u))
    .slice(0, IMAGES_MAX);

const asText = (value: unknown): string => (typeof value === 'string' ? value : '');

/** Reads what each kind of node answers into text and image URLs. */
function parse(kind: NodeSettings['kind'], body: unknown): { text: string; images: string[] } {
  const b = (body ?? {}) as Record<string, unknown>;
  if (kind === 'openai') {
    const choices = b.choices as { message?: { content?: unknown } }[] | undefined;
    return { text: asText(choices?.[0]?.message?.content), images: [] };
  }
  if (kind === 'ollama') {
    const message = b.message as { content?: unknown; images?: unknown } | undefined;
    return { text: asText(message?.content), images: imageUrls(message?.images) };
  }
  // A plain HTTP node: {text, images}, or the original's {result: string | {text, images}}.
  const result = b.result;
  if (typeof result === 'string') return { text: result, images: [] };
  const source = result && typeof result === 'object' ? (result as Record<string, unknown>) : b;
  return { text: asText(source.text), images: imageUrls(source.images) };
}

export async function callNode(
  fetcher: typeof fetch,
  settings: NodeSettings,
  apiKey: string,
  input: string,
  signal: AbortSignal,
): Promise<{ text: string; images: string[] }> {
  if (!settings.base_url) throw new NodeError(MESSAGES.notConfigured);
  const prompt = promptFor(settings, input);
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (apiKey) headers.authorization = `Bearer ${apiKey}`;
  const messages = [{ role: 'user', content: prompt }];
  let url: string;
  let body: unknown;
  switch (settings.kind) {
    case 'openai':
      url = `${settings.base_url}/chat/completions`;
      body = { model: settings.model || 'default', messages, stream: false };
      break;
    case 'ollama':
      url = `${settings.base_url}/api/chat`;
      body = { model: settings.model, messages, stream: false };
      break;
    default:
      url = settings.base_url;
      body = { input: prompt, ...(settings.model ? { model: settings.model } : {}) };
  }
  const combined = AbortSignal.any([signal, AbortSignal.timeout(settings.timeout_ms)]);
  let res: Response;
  try {
    res = await fetcher(url, { method: 'POST', headers, body: JSON.stringify(body), signal: combined });
  } catch (err) {
    if (signal.aborted) throw err;
    const timedOut = combined.aborted;
    // The fetch's reason (the egress policy's refusal is a message of the server's).
    const reason = timedOut ? `no answer within ${settings.timeout_ms} ms.` : err instanceof Error && err.message ? saidBy(err) : 'the request failed.';
    throw new NodeError(MESSAGES.failed(reason));
  }
  if (!res.ok) {
    await res.body?.cancel().catch(() => {});
    throw new NodeError(MESSAGES.failed(`status ${res.status}.`));
  }
  let json: unknown;
  try {
    json = await res.json();
  } catch {
    throw new NodeError(MESSAGES.failed('the answer is not JSON.'));
  }
  const out = parse(settings.kind, json);
  return { text: out.text.slice(0, TEXT_MAX), images: out.images };
}
