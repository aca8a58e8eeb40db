// The relay through the AI SDK, for every provider kind the direct relay (directStream.ts) does
// not take, and for OpenAI-compatible models under STREAM_RELAY=sdk: streamText's fullStream,
// read once (the single-consumer variant, so no replay buffer is kept), handed part by part to
// the same sink as the direct relay's parts, with the same tools and stop rule.
import { experimental_streamTextLowMemory as streamText, jsonSchema, stepCountIs, tool, type ToolSet } from 'ai';
import { languageModel } from '../models/providers.ts';
import type { DirectStreamOptions, PartSink, RelayPart } from './directStream.ts';

export interface SdkStreamOptions extends DirectStreamOptions {
  /** Fetches the image URLs of the messages that the provider does not fetch itself. */
  download: NonNullable<Parameters<typeof streamText>[0]['experimental_download']>;
}

/** An async iterable of parts (the AI SDK's fullStream) into a sink, ending at an error part. */
async function drain(parts: AsyncIterable<RelayPart>, sink: PartSink): Promise<void> {
  for await (const part of parts) {
    const held = sink(part);
    if (held) await held;
    if (part.type === 'error') return;
  }
}

/** The AI SDK's fullStream parts of the turn. */
function sdkParts(o: SdkStreamOptions) {
  const tools: ToolSet = {};
  for (const [name, t] of Object.entries(o.tools)) {
    const inputSchema = jsonSchema<unknown>(t.parameters as never);
    tools[name] = t.execute ? tool({ description: t.description, inputSchema, execute: t.execute }) : tool({ description: t.description, inputSchema });
  }
  return streamText({
    model: languageModel(o.entry, o.fetch),
    messages: o.messages,
    // The system messages are the server's own: the operator's prompt and the context providers'.
    allowSystemInMessages: true,
    tools: Object.keys(tools).length ? tools : undefined,
    ...(o.toolChoice && Object.keys(tools).length ? { toolChoice: typeof o.toolChoice === 'string' ? o.toolChoice : { type: 'tool' as const, toolName: o.toolChoice.name } } : {}),
    stopWhen: stepCountIs(o.maxSteps),
    temperature: o.temperature,
    topP: o.topP,
    abortSignal: o.signal,
    // The turn retries itself (retry.ts), so that the waits are short and follow Retry-After.
    maxRetries: 0,
    // Errors arrive as 'error' parts; the SDK's default handler would also print them.
    onError: () => {},
    experimental_download: o.download,
  }).fullStream;
}

/** The whole turn through the AI SDK, handed part by part to `sink`; an error part is the last part. */
export function sdkChatStream(o: SdkStreamOptions, sink: PartSink): Promise<void> {
  return drain(sdkParts(o) as AsyncIterable<RelayPart>, sink);
}
