// Each source's conversation into an ImportedConversation, from the public shapes of the
// exports: ChatGPT's `conversations.json` (or `conversations-NNN.json`) items with their
// `mapping` tree, Claude's `conversations.json` items with `chat_messages`, and shellchat's own
// (`sessions` with their logs, what export.ts writes). Anything else is refused with the reason.
import { z } from 'zod';
import { SESSION_ID_MAX, SESSION_ID_MIN } from '../../../../src/core/index.ts';
import { CONVERSATION_MAX_MESSAGES, IMAGES_MAX, TITLE_MAX_CHARS } from '../../common/limits.ts';
import { MESSAGES } from '../../common/messages.ts';
import { sessionsOfTree, type ImportedConversation, type TreeMessage } from './model.ts';
import { ConversationRefused } from './refusal.ts';

const title = (value: unknown, fallback: string) => {
  const text = typeof value === 'string' ? value.replace(/\s+/g, ' ').trim() : '';
  return [...(text || fallback)].slice(0, TITLE_MAX_CHARS).join('');
};
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const str = (v: unknown) => (typeof v === 'string' ? v : '');
/** Seconds (ChatGPT) or an ISO date (Claude) as milliseconds; null when neither. */
function millis(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) return value < 1e11 ? Math.round(value * 1000) : Math.round(value);
  if (typeof value === 'string') {
    const t = Date.parse(value);
    return Number.isFinite(t) ? t : null;
  }
  return null;
}
const tooMany = (n: number) => {
  if (n > CONVERSATION_MAX_MESSAGES) throw new ConversationRefused(MESSAGES.tooManyMessages);
};
/** A picture the archive itself carries, by its id: replaced by its upload's URL, or dropped (import/assets.ts). */
export const ASSET = 'asset:';
const httpUrl = (v: unknown) => typeof v === 'string' && /^https?:\/\//i.test(v) && v.length <= 2048;

/** Which export a conversation comes from, by its shape (never by the file's name). */
export function convert(value: unknown, now: number): ImportedConversation {
  if (!isObject(value)) throw new ConversationRefused(MESSAGES.wrongShape('not an object'));
  if (isObject(value.mapping)) return chatgpt(value, now);
  if (Array.isArray(value.chat_messages)) return claude(value, now);
  if (Array.isArray(value.sessions)) return shellchat(value);
  throw new ConversationRefused(MESSAGES.wrongShape('no mapping, chat_messages or sessions'));
}

/** A ChatGPT message's text: text and multimodal parts, code and its output fenced; images named. */
function chatgptText(content: Record<string, unknown>): { text: string; images: string[] } {
  const type = str(content.content_type);
  const images: string[] = [];
  const fence = (code: string, lang = '') => '```' + lang + '\n' + code + '\n```';
  if (type === 'code') return { text: fence(str(content.text), str(content.language) === 'unknown' ? '' : str(content.language)), images };
  if (type === 'execution_output') return { text: fence(str(content.text)), images };
  if (type !== 'text' && type !== 'multimodal_text') return { text: '', images };
  const parts: string[] = [];
  for (const part of Array.isArray(content.parts) ? content.parts : []) {
    if (typeof part === 'string') parts.push(part);
    else if (isObject(part) && part.content_type === 'image_asset_pointer') {
      // The picture is a file of the export's zip, not a URL: named in the text, and asked for
      // from the zip by its id (ASSET), stored as the importer's upload when it is there.
      const pointer = str(part.asset_pointer);
      if (httpUrl(pointer)) images.push(pointer);
      else {
        const id = pointer.replace(/^[a-z-]+:\/\//, '');
        parts.push(`[image: ${id || 'attached'}]`);
        if (/^file[-_][A-Za-z0-9]+$/.test(id)) images.push(ASSET + id);
      }
    }
  }
  return { text: parts.filter(Boolean).join('\n\n'), images };
}

function chatgpt(value: Record<string, unknown>, now: number): ImportedConversation {
  const mapping = value.mapping as Record<string, unknown>;
  const ids = Object.keys(mapping);
  tooMany(ids.length);
  const sourceId = str(value.conversation_id) || str(value.id);
  if (!sourceId) throw new ConversationRefused(MESSAGES.wrongShape('no id'));
  const created = millis(value.create_time) ?? now;
  // Missing model_slug (newer exports): the conversation's default, else 'chatgpt'.
  const defaultModel = str(value.default_model_slug) || 'chatgpt';
  const messages = new Map<string, TreeMessage>();
  for (const id of ids) {
    const node = mapping[id];
    if (!isObject(node)) continue;
    const message = isObject(node.message) ? node.message : null;
    const author = message && isObject(message.author) ? str(message.author.role) : '';
    const metadata = message && isObject(message.metadata) ? message.metadata : {};
    const hidden = metadata.is_visually_hidden_from_conversation === true;
    const content = message && isObject(message.content) ? chatgptText(message.content) : { text: '', images: [] };
    const role = hidden ? 'skip' : author === 'user' ? 'user' : author === 'assistant' || author === 'tool' ? 'assistant' : 'skip';
    messages.set(id, {
      id,
      parent: typeof node.parent === 'string' ? node.parent : null,
      role,
      text: content.text,
      model: str(metadata.model_slug) || null,
      time: millis(message?.create_time),
      images: content.images.slice(0, IMAGES_MAX),
    });
  }
  const sessions = sessionsOfTree(messages, [...messages.keys()], typeof value.current_node === 'string' ? value.current_node : null, { model: defaultModel, time: created });
  if (!sessions.length) throw new ConversationRefused(MESSAGES.empty);
  return { source: 'chatgpt', sourceId, title: title(value.title, sourceId), sessions };
}

function claude(value: Record<string, unknown>, now: number): ImportedConversation {
  const list = value.chat_messages as unknown[];
  tooMany(list.length);
  const sourceId = str(value.uuid);
  if (!sourceId) throw new ConversationRefused(MESSAGES.wrongShape('no uuid'));
  const created = millis(value.created_at) ?? now;
  const messages = new Map<string, TreeMessage>();
  let previous: string | null = null;
  // Claude's export lists the messages in order; newer ones name their parent (edits branch).
  const hasParents = list.some((m) => isObject(m) && typeof m.parent_message_uuid === 'string');
  list.forEach((m, i) => {
    if (!isObject(m)) return;
    const id = str(m.uuid) || `#${i}`;
    const blocks = Array.isArray(m.content) ? m.content.filter(isObject) : [];
    const fromBlocks = blocks.filter((b) => b.type === 'text').map((b) => str(b.text)).filter(Boolean).join('\n\n');
    const attachments = (Array.isArray(m.attachments) ? m.attachments : []).filter(isObject).map((a) => `[attachment: ${str(a.file_name) || 'file'}]`);
    const text = [fromBlocks || str(m.text), ...attachments].filter(Boolean).join('\n\n');
    const sender = str(m.sender);
    const parent = hasParents ? (typeof m.parent_message_uuid === 'string' ? m.parent_message_uuid : null) : previous;
    messages.set(id, { id, parent, role: sender === 'human' ? 'user' : sender === 'assistant' ? 'assistant' : 'skip', text, model: null, time: millis(m.created_at), images: [] });
    previous = id;
  });
  // The last message is the one shown: its path is the first session.
  const sessions = sessionsOfTree(messages, [...messages.keys()], previous, { model: str(value.model) || 'claude', time: created });
  if (!sessions.length) throw new ConversationRefused(MESSAGES.empty);
  return { source: 'claude', sourceId, title: title(value.name, sourceId), sessions };
}

const time = z.number().int().min(0).max(SESSION_ID_MAX * 2);
const shellchatLog = z.object({
  time,
  model: z.string().max(256).default(''),
  input: z.string().default(''),
  output: z.string().default(''),
  images: z.array(z.string().max(2048)).max(IMAGES_MAX).default([]),
  tools: z.array(z.unknown()).max(256).optional(),
  input_tokens: z.number().int().min(0).optional(),
  output_tokens: z.number().int().min(0).optional(),
});
const shellchatSession = z.object({
  id: z.number().int().min(SESSION_ID_MIN).max(SESSION_ID_MAX),
  parent: z.number().int().nullable().default(null),
  branch_time: time.nullable().default(null),
  created_at: time.optional(),
  logs: z.array(shellchatLog),
});
const shellchatConversation = z.object({ id: z.number().int(), title: z.string().optional(), sessions: z.array(shellchatSession).min(1) });

function shellchat(value: Record<string, unknown>): ImportedConversation {
  const parsed = shellchatConversation.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConversationRefused(MESSAGES.wrongShape(`${issue.path.join('.')}: ${issue.message}`));
  }
  const c = parsed.data;
  tooMany(c.sessions.reduce((n, s) => n + s.logs.length, 0));
  const known = new Set(c.sessions.map((s) => s.id));
  // A parent outside the export (someone else's session it branched from) makes a root.
  const sessions = c.sessions.map((s) => {
    const logs = [...s.logs].sort((a, b) => a.time - b.time);
    for (let i = 1; i < logs.length; i++) if (logs[i]!.time <= logs[i - 1]!.time) throw new ConversationRefused(MESSAGES.wrongShape('two logs of a session at the same time'));
    return {
      key: String(s.id),
      id: s.id,
      parent: s.parent !== null && known.has(s.parent) ? String(s.parent) : null,
      branchTime: s.parent !== null && known.has(s.parent) ? s.branch_time : null,
      createdAt: s.created_at ?? s.id,
      logs: logs.map((l) => ({ time: l.time, model: l.model, input: l.input, output: l.output, images: l.images, tools: l.tools, inputTokens: l.input_tokens, outputTokens: l.output_tokens })),
    };
  });
  if (known.size !== sessions.length) throw new ConversationRefused(MESSAGES.wrongShape('a session is listed twice'));
  // Parents before their branches, whatever the order in the file; a cycle is never reached from a root.
  const branches = new Map<string, typeof sessions>();
  for (const s of sessions) if (s.parent !== null) branches.set(s.parent, branches.get(s.parent) ?? []).get(s.parent)!.push(s);
  const ordered = sessions.filter((s) => s.parent === null);
  for (let i = 0; i < ordered.length; i++) ordered.push(...(branches.get(ordered[i]!.key) ?? []));
  if (ordered.length !== sessions.length) throw new ConversationRefused(MESSAGES.wrongShape('sessions branch from each other in a cycle'));
  if (!ordered.some((s) => s.logs.length)) throw new ConversationRefused(MESSAGES.empty);
  return { source: 'shellchat', sourceId: String(c.id), title: title(c.title, String(c.id)), sessions: ordered };
}
