// A question's turn, the same for every surface (the page, the terminal): the request built
// from the settings (spec part 7) goes to a Generate (the server's stream or whole answer, a
// local model), the model's calls of MCP tools are run here and sent back until plain text
// arrives (spec part 4), and the session, time and head follow the answer. Every event goes to
// the surface's sink as it arrives; the end says what the answer was, whether it failed, and
// whether it was stopped.
import { ApiError } from '../api/client.ts';
import { buildRequest } from '../api/generateRequest.ts';
import { MAX_TOOL_ROUNDS, type GenerateRequest, type GenerationEvent, type ToolCall, type ToolResult } from '../generation.ts';
import type { Output } from '../output.ts';
import type { SettingsStore } from '../settings.ts';
import type { Generate } from './generate.ts';

/** The MCP helper's tools, offered to the model and run for it (the function plugin's McpClient). */
export interface TurnTools {
  tools(): Promise<{ name: string; description?: string; parameters?: unknown }[]>;
  call(name: string, args: unknown, signal: AbortSignal): Promise<string>;
}

/** What was asked: the text and the attachments' URLs. */
export interface Question {
  text: string;
  images: string[];
  files: string[];
}

export type TurnFailure = Extract<Output, { kind: 'error' }>;

/** The answer so far: kept by the turn, read by a sink as events arrive. */
export interface TurnAnswer {
  text: string;
  model: string;
  /** The session the answer went to (the request's, until the server says). */
  session: number;
  /** The answer brought a picture of its own (an image model's, a node's), not one of the question's. */
  pictured: boolean;
}

export interface TurnEnd extends TurnAnswer {
  /** What went wrong, as an error output (the shell's own by key, the server's by its message). */
  failure?: TurnFailure;
  /** Stopped by its signal (Ctrl+C, `:stop`). */
  stopped: boolean;
}

export type TurnSink = (event: GenerationEvent, answer: Readonly<TurnAnswer>) => void;

export interface TurnOptions {
  /** Where session, time and head are kept. */
  settings: SettingsStore;
  generate: Generate;
  signal: AbortSignal;
  /** When given, its tools among the enabled functions are offered; their calls are run with it and the turn is sent again with the results. */
  tools?: TurnTools;
}

/** A failure thrown by the client, as the error output every surface shows. */
export function failureOf(err: unknown): TurnFailure {
  if (!(err instanceof ApiError)) return { kind: 'error', text: 'Error occurred.', key: 'msg.errorOccurred' };
  return {
    kind: 'error',
    text: err.message,
    ...(err.key ? { key: err.key, ...(err.params ? { params: err.params } : {}) } : {}),
    ...(err.said ? { message: err.said } : {}),
  };
}

async function runTools(calls: ToolCall[], tools: TurnTools, signal: AbortSignal): Promise<ToolResult[]> {
  return Promise.all(
    calls.map(async (call) => {
      let args: unknown = {};
      try {
        args = JSON.parse(call.args || '{}');
      } catch {
        // the model sent broken JSON; the tool will say what it misses
      }
      const result = await tools.call(call.name, args, signal).catch((err: unknown) => `Error: ${(err as Error).message}`);
      return { ...call, result };
    }),
  );
}

/** The request of a question, with the MCP tools among the enabled functions. */
async function requestFor(question: Question, settings: SettingsStore, tools: TurnTools | undefined): Promise<GenerateRequest> {
  const request = buildRequest(settings, question);
  if (!tools) return request;
  const enabled = new Set(String(request.functions ?? '').split(',').map((s) => s.trim()).filter(Boolean));
  const offered = (await tools.tools()).filter((t) => enabled.has(t.name));
  return offered.length ? { ...request, mcp_tools: offered } : request;
}

export async function runTurn(question: Question, sink: TurnSink, options: TurnOptions): Promise<TurnEnd> {
  const { settings, signal, tools } = options;
  const first = await requestFor(question, settings, tools);
  const answer: TurnAnswer = { text: '', model: '', session: first.session, pictured: false };
  let failure: TurnFailure | undefined;
  let pending: { session: number; calls: ToolCall[] } | undefined;
  const onEvent = (event: GenerationEvent) => {
    switch (event.type) {
      case 'text':
        answer.text += event.delta;
        break;
      case 'clear':
        answer.text = '';
        break;
      case 'model':
        answer.model = event.model;
        break;
      case 'image':
        if (!first.images?.includes(event.url)) answer.pictured = true;
        break;
      case 'error':
        failure = { kind: 'error', text: event.error, ...(event.message ? { message: event.message } : {}) };
        break;
      case 'done':
        answer.session = event.session;
        if (event.tool_calls?.length) pending = { session: event.session, calls: event.tool_calls };
        // The log the next question follows: this answer's (head: the newest the tab has seen).
        if (event.time) {
          settings.set('session', event.session);
          settings.set('time', event.time);
          settings.set('head', event.time);
        }
        break;
    }
    sink(event, answer);
  };
  let request = first;
  try {
    for (let round = 0; ; round++) {
      pending = undefined;
      await options.generate(request, onEvent, signal);
      const asked = pending as { session: number; calls: ToolCall[] } | undefined;
      if (!asked || failure || signal.aborted || !tools) break;
      if (round + 1 >= MAX_TOOL_ROUNDS) {
        failure = { kind: 'error', text: `The model kept calling tools; stopped after ${MAX_TOOL_ROUNDS} rounds.`, key: 'msg.tooManyRounds', params: { rounds: MAX_TOOL_ROUNDS } };
        break;
      }
      const results = await runTools(asked.calls, tools, signal);
      request = { ...request, session: asked.session, tool_results: [...(request.tool_results ?? []), ...results] };
    }
  } catch (err) {
    if (!signal.aborted) failure = failureOf(err);
  }
  const stopped = signal.aborted;
  // A stopped answer is kept on the server as the session's latest log, but its time never
  // came back: look at the latest again, so that the next turn follows it instead of branching.
  if (stopped && !failure && answer.text) settings.set('time', 0);
  return { ...answer, stopped, ...(failure ? { failure } : {}) };
}
