// The model's context (DESIGN.md §4): system prompt with the reply-language instruction,
// context providers (role, stores, node, location), memory, then the user's input with
// file text and images, then the results of a tool-call round.
import type { ModelMessage, UserContent } from 'ai';
import { findLanguage, type GenerateRequest, type ToolResult } from '../../core/index.ts';
import type { LogRow } from './sessions.ts';

const parseJson = <T>(text: string, fallback: T): T => {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
};

function toolMessages(tools: ToolResult[]): ModelMessage[] {
  if (!tools.length) return [];
  return [
    {
      role: 'assistant',
      content: tools.map((t) => ({ type: 'tool-call' as const, toolCallId: t.id, toolName: t.name, input: parseJson(t.args, {}) })),
    },
    {
      role: 'tool',
      content: tools.map((t) => ({ type: 'tool-result' as const, toolCallId: t.id, toolName: t.name, output: { type: 'text' as const, value: t.result } })),
    },
  ];
}

function userContent(text: string, images: string[], parts: ContextParts): UserContent {
  if (!images.length || !parts.vision) return text;
  return [{ type: 'text', text }, ...images.map((url) => ({ type: 'image' as const, image: new URL(parts.inlineImages?.get(url) ?? url) }))];
}

/**
 * The browser's position (`:location on` stores "(lat,lng)"), for questions about what is near
 * ("the weather here", "a pharmacy nearby"). Only well-formed coordinates reach the model: the
 * field is the browser's to send, and free text there would be a way around the system prompt.
 */
export function locationLine(location: string | undefined): string | undefined {
  const m = /^\(?\s*(-?\d{1,2}(?:\.\d+)?)\s*,\s*(-?\d{1,3}(?:\.\d+)?)\s*\)?$/.exec(location ?? '');
  if (!m) return undefined;
  const [lat, lng] = [Number(m[1]), Number(m[2])];
  if (Math.abs(lat) > 90 || Math.abs(lng) > 180) return undefined;
  return `User location info: latitude ${lat}, longitude ${lng} (from the browser's geolocation).`;
}

export interface ContextParts {
  systemPrompt: string;
  providerSystem: string[];
  memory: LogRow[];
  fileTexts: { url: string; text: string }[];
  vision: boolean;
  /** Data URLs standing in for image URLs the provider cannot fetch (this server's uploads: files.ts). */
  inlineImages?: Map<string, string>;
}

export function buildMessages(request: GenerateRequest, parts: ContextParts): ModelMessage[] {
  const messages: ModelMessage[] = [];
  const system: string[] = [];
  if (request.use_system_role !== false && parts.systemPrompt) system.push(parts.systemPrompt);
  const language = request.lang ? findLanguage(request.lang) : undefined;
  if (language) system.push(`Must reply with ${language.name}.`);
  if (system.length) messages.push({ role: 'system', content: system.join('\n') });
  for (const text of parts.providerSystem) messages.push({ role: 'system', content: text });
  const location = request.use_location ? locationLine(request.location) : undefined;
  if (location) messages.push({ role: 'system', content: location });
  for (const log of parts.memory) {
    messages.push({ role: 'user', content: userContent(log.input, parseJson<string[]>(log.images, []), parts) });
    messages.push(...toolMessages(parseJson<ToolResult[]>(log.tools, [])));
    if (log.output) messages.push({ role: 'assistant', content: log.output });
  }
  const fileParts = parts.fileTexts.map((f) => `File content (${f.url}):\n${f.text}`);
  const text = [request.user_input, ...fileParts].filter(Boolean).join('\n\n');
  messages.push({ role: 'user', content: userContent(text, request.images ?? [], parts) });
  messages.push(...toolMessages(request.tool_results ?? []));
  return messages;
}
