// Offline mode with a local model (spec parts 1 and 4): when the shellchat server cannot be
// reached, a turn with a model of the local model server still works. The browser builds the
// messages the server would have built (the reply-language line, memory, the question) and
// keeps the turns it could not save, up to the memory length, as that memory. What needs the
// server (the operator's system prompt, roles, stores, nodes, file text) is left out.
import { DEFAULT_MEM_LENGTH, findLanguage, type GenerateRequest } from '../../core/index.ts';
import type { ChatMessage } from './localStep.ts';

interface OfflineTurn {
  input: string;
  output: string;
}

/** The turns answered while offline, oldest first (this page's memory only). */
const turns: OfflineTurn[] = [];

const memLength = (request: GenerateRequest) => request.mem_length ?? DEFAULT_MEM_LENGTH;

/** Keeps a turn the server could not save, and no more than the memory length of them. */
export function rememberOffline(turn: OfflineTurn, request: GenerateRequest): void {
  turns.push(turn);
  turns.splice(0, Math.max(0, turns.length - memLength(request)));
}

/** The messages for a local model without the server, in the Chat Completions shape. */
export function offlineMessages(request: GenerateRequest): ChatMessage[] {
  const messages: ChatMessage[] = [];
  const language = request.lang ? findLanguage(request.lang) : undefined;
  if (language) messages.push({ role: 'system', content: `Must reply with ${language.name}.` });
  const limit = memLength(request);
  for (const turn of limit > 0 ? turns.slice(-limit) : []) {
    messages.push({ role: 'user', content: turn.input }, { role: 'assistant', content: turn.output });
  }
  const images = (request.images ?? []).map((url) => ({ type: 'image_url', image_url: { url } }));
  messages.push({ role: 'user', content: images.length ? [{ type: 'text', text: request.user_input }, ...images] : request.user_input });
  return messages;
}
