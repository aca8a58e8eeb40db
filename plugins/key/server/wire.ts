// OpenAI's Chat Completions wire format, both ways: the request (messages, tools, tool_choice)
// into the turn's conversation and tools, and the turn's answer into a completion or the stream's
// chunks. Only what the format says; no turn logic here.
import { z } from 'zod';
import type { ToolCall, ToolChoice, TurnMessage } from '../../../src/core/index.ts';

const textPart = z.object({ type: z.literal('text'), text: z.string() });
const imagePart = z.object({ type: z.literal('image_url'), image_url: z.object({ url: z.string().max(2_000_000) }) });
const content = z.union([z.string(), z.array(z.union([textPart, imagePart, z.object({ type: z.string() }).passthrough()])).max(256)]).nullish();
const toolCall = z.object({ id: z.string().max(256), type: z.literal('function').optional(), function: z.object({ name: z.string().max(256), arguments: z.string() }) });

export const message = z.discriminatedUnion('role', [
  z.object({ role: z.literal('system'), content }),
  z.object({ role: z.literal('developer'), content }),
  z.object({ role: z.literal('user'), content }),
  z.object({ role: z.literal('assistant'), content, tool_calls: z.array(toolCall).max(128).optional() }),
  z.object({ role: z.literal('tool'), content, tool_call_id: z.string().max(256) }),
]);

export const chatBody = z
  .object({
    model: z.string().max(256).optional(),
    messages: z.array(message).min(1).max(2000),
    stream: z.boolean().optional(),
    stream_options: z.object({ include_usage: z.boolean().optional() }).nullish(),
    tools: z
      .array(z.object({ type: z.literal('function'), function: z.object({ name: z.string().min(1).max(64), description: z.string().max(8192).optional(), parameters: z.record(z.string(), z.unknown()).optional() }) }))
      .max(128)
      .optional(),
    tool_choice: z.union([z.enum(['auto', 'none', 'required']), z.object({ type: z.literal('function'), function: z.object({ name: z.string().max(64) }) })]).optional(),
  })
  .passthrough();

export type ChatBody = z.output<typeof chatBody>;
type WireContent = z.output<typeof content>;

const textOf = (c: WireContent): string =>
  typeof c === 'string' ? c : (c ?? []).map((p) => (p.type === 'text' ? (p as { text: string }).text : '')).join('');
const imagesOf = (c: WireContent): string[] =>
  typeof c === 'string' || !c ? [] : c.flatMap((p) => (p.type === 'image_url' ? [(p as { image_url: { url: string } }).image_url.url] : []));

/** The request's messages as the turn's conversation (a tool message takes its call's name). */
export function conversationOf(body: ChatBody): TurnMessage[] {
  const callNames = new Map<string, string>();
  return body.messages.map((m): TurnMessage => {
    switch (m.role) {
      case 'system':
      case 'developer':
        return { role: 'system', content: textOf(m.content) };
      case 'user':
        return { role: 'user', content: textOf(m.content), images: imagesOf(m.content) };
      case 'assistant': {
        const calls: ToolCall[] = (m.tool_calls ?? []).map((c) => ({ id: c.id, name: c.function.name, args: c.function.arguments }));
        for (const c of calls) callNames.set(c.id, c.name);
        return { role: 'assistant', content: textOf(m.content), ...(calls.length ? { toolCalls: calls } : {}) };
      }
      case 'tool':
        return { role: 'tool', toolCallId: m.tool_call_id, name: callNames.get(m.tool_call_id) ?? 'tool', content: textOf(m.content) };
    }
  });
}

/** The last user message's text: what the log shows as the call's input. */
export function lastUserText(body: ChatBody): string {
  for (let i = body.messages.length - 1; i >= 0; i--) {
    const m = body.messages[i]!;
    if (m.role === 'user') return textOf(m.content);
  }
  return '';
}

export const toolsOf = (body: ChatBody) =>
  (body.tools ?? []).map((t) => ({ name: t.function.name, description: t.function.description, parameters: t.function.parameters ?? { type: 'object', properties: {} } }));

export function toolChoiceOf(body: ChatBody): ToolChoice | undefined {
  const choice = body.tool_choice;
  if (choice === undefined) return undefined;
  return typeof choice === 'string' ? choice : { name: choice.function.name };
}

export const wireToolCalls = (calls: ToolCall[]) => calls.map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: c.args } }));

export const usageJson = (u: { inputTokens: number; outputTokens: number }) => ({
  prompt_tokens: u.inputTokens,
  completion_tokens: u.outputTokens,
  total_tokens: u.inputTokens + u.outputTokens,
});

/** One `chat.completion.chunk` of the stream. */
export function chunk(id: string, created: number, model: string, delta: Record<string, unknown>, finish: string | null = null): string {
  return `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] })}\n\n`;
}

/** The usage chunk `stream_options.include_usage` asks for: no choices. */
export function usageChunk(id: string, created: number, model: string, usage: { inputTokens: number; outputTokens: number }): string {
  return `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [], usage: usageJson(usage) })}\n\n`;
}
