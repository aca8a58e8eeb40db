// The OpenAI-compatible API (issue 36): GET /v1/models and POST /v1/chat/completions with a key,
// each call one turn of the page's pipeline (ctx.generation.run): its caps, limits, balance gate,
// role and stores, usage ledger (tagged with the key) and log (the key's own session, unless
// --no-log). Errors in OpenAI's shape; a refusal before the first token is the HTTP status, one
// after it an error event in the stream. A client that goes away stops the provider's request,
// and so does the key's revocation, expiry or owner's deletion while the call runs (watch.ts).
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { AppEnv, GenerateRequest, GenerationEvent, ServerPluginContext, StreamSink } from '../../../src/core/index.ts';
import { MESSAGES } from '../common/messages.ts';
import { keyOf, keyStillLive, looksLikeKey } from './keys.ts';
import type { KeysDb } from './table.ts';
import { keyWatcher } from './watch.ts';
import { chatBody, chunk, conversationOf, lastUserText, toolChoiceOf, toolsOf, usageChunk, usageJson, wireToolCalls, type ChatBody } from './wire.ts';

/** A whole conversation with its tools fits here; larger bodies are refused before they are read. */
const BODY_MAX_BYTES = 4 * 1024 * 1024;

const TYPES: Record<number, string> = { 400: 'invalid_request_error', 401: 'invalid_request_error', 402: 'insufficient_quota', 403: 'permission_error', 404: 'invalid_request_error', 413: 'invalid_request_error', 429: 'rate_limit_exceeded', 500: 'server_error', 502: 'server_error' };

/** `{"error": {"message", "type", "code"}}` with its status (and Retry-After for 429). */
export function openAIError(c: Context, status: 400 | 401 | 402 | 403 | 404 | 413 | 429 | 500 | 502, message: string, code: string | null, retryAfter?: number): Response {
  if (retryAfter !== undefined) c.header('Retry-After', String(retryAfter));
  return c.json({ error: { message, type: TYPES[status] ?? 'server_error', param: null, code } }, status);
}

type ErrorEvent = Extract<GenerationEvent, { type: 'error' }>;

/** A turn's refusal as OpenAI's status and code: limits 429, the balance 402, a plan 403, a model 404. */
function refusal(c: Context, event: ErrorEvent): Response {
  const code = event.message?.code ?? '';
  if (code === 'core.tooManyAnswers') return openAIError(c, 429, event.error, 'rate_limit_exceeded', 1);
  // The real wait, when the limit knows it; a limit of 0 never lets the question through.
  if (/usageLimit/.test(code)) return openAIError(c, 429, event.error, 'rate_limit_exceeded', event.retryAt === undefined ? undefined : Math.max(1, Math.ceil((event.retryAt - Date.now()) / 1000)));
  if (/balanceExceeded/.test(code)) return openAIError(c, 402, event.error, 'insufficient_quota');
  if (/plusRequired/.test(code)) return openAIError(c, 403, event.error, 'plan_required');
  if (code === 'core.modelNotFound' || code === 'core.noModel') return openAIError(c, 404, event.error, 'model_not_found');
  if (code === 'core.timeTraveler') return openAIError(c, 400, event.error, null);
  return openAIError(c, 502, event.error, 'upstream_error');
}

/** How often a running call's key is re-read: a revoked key's streams end within about this. */
const KEY_CHECK_EVERY_MS = 1000;

type Refusal = NonNullable<Awaited<ReturnType<typeof keyStillLive>>>;
/** Ends a running call when its key stops answering; returns the function that stops watching. */
type CutOff = (end: (why: Refusal) => void) => () => void;

/** A revoked key's refusal as an event of a stream already answered (the 401's wording and code). */
const revokedEvent = (why: Refusal) => `data: ${JSON.stringify({ error: { message: why.text, type: TYPES[401], param: null, code: 'invalid_api_key' } })}\n\n`;

const completionId = () => `chatcmpl-${Buffer.from(crypto.getRandomValues(new Uint8Array(12))).toString('base64url')}`;

export function openAIRoutes(ctx: ServerPluginContext) {
  const watcher = keyWatcher((id) => keyStillLive(ctx.db as KeysDb, id, ctx.now), KEY_CHECK_EVERY_MS, (err) =>
    ctx.log.warn({ err: { message: String((err as Error)?.message) } }, 'a key re-check failed'),
  );
  /** The request's key: a bearer `sk-sc-...` secret of a live key, or a 401 in OpenAI's shape. */
  const tooLarge = (c: Context) => {
    // The rest of the body stays unread, so the connection cannot carry another request.
    c.header('Connection', 'close');
    return openAIError(c, 413, `The request is too large (at most ${BODY_MAX_BYTES / 1024 / 1024} MB).`, null);
  };
  // A body without a length (chunked) is counted as it arrives.
  const chunkedLimit = bodyLimit({ maxSize: BODY_MAX_BYTES, onError: tooLarge });
  const withKey = async (c: Context<AppEnv>, next: () => Promise<void>) => {
    if (Number(c.req.header('content-length') ?? 0) > BODY_MAX_BYTES) return tooLarge(c);
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header('authorization') ?? '')?.[1];
    if (!bearer || !looksLikeKey(bearer)) return openAIError(c, 401, MESSAGES.invalidKey.text, 'invalid_api_key');
    const refused = await ctx.authenticate(c);
    if (refused) return refused;
    if (!c.get('user') || !keyOf(c)) return openAIError(c, 401, MESSAGES.invalidKey.text, 'invalid_api_key');
    await next();
  };

  /** The models the key's user may use (their own, their groups', the system's), or the key's one model. */
  const modelIds = async (c: Context<AppEnv>): Promise<{ id: string; owned_by: string }[]> => {
    const lists = await ctx.models.list(c.get('user'));
    const all = [...lists.user_models, ...lists.group_models, ...lists.system_models];
    const seen = new Set<string>();
    const ids = all.filter((m) => !seen.has(m.name) && seen.add(m.name)).map((m) => ({ id: m.name, owned_by: m.scope }));
    const only = keyOf(c)!.model;
    return only ? ids.filter((m) => m.id === only) : ids;
  };

  return new Hono<AppEnv>()
    .use('/v1/*', (c, next) => (c.req.header('transfer-encoding') !== undefined ? chunkedLimit(c, next) : next()))
    .use('/v1/*', withKey)
    .get('/v1/models', async (c) => c.json({ object: 'list', data: (await modelIds(c)).map((m) => ({ id: m.id, object: 'model', created: 0, owned_by: m.owned_by })) }))
    .post('/v1/chat/completions', async (c) => {
      let raw: unknown;
      try {
        raw = await c.req.json();
      } catch {
        return openAIError(c, 400, 'The body is not valid JSON.', null);
      }
      const parsed = chatBody.safeParse(raw);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        return openAIError(c, 400, `Invalid ${issue.path.join('.') || 'request'}: ${issue.message}`, null);
      }
      const body = parsed.data;
      const key = keyOf(c)!;
      const user = c.get('user')!;
      if (key.model && body.model && body.model !== key.model) return openAIError(c, 403, MESSAGES.modelOutOfScope(key.model).text, 'model_not_allowed');
      // A model the user may not use is the turn's refusal (404 model_not_found), before any use counts.
      const model = body.model || key.model || undefined;
      const tools = toolsOf(body);
      const request: GenerateRequest = {
        user_input: lastUserText(body),
        session: Number(key.session),
        mem_length: 0,
        ...(model ? { model } : {}),
        ...(key.role ? { role: key.role } : {}),
        ...(key.stores ? { stores: key.stores } : {}),
        ...(tools.length ? { mcp_tools: tools } : {}),
      };
      const turn = { user, request, conversation: conversationOf(body), toolChoice: toolChoiceOf(body), tag: `key:${key.id}`, noLog: !!Number(key.no_log), address: ctx.clientAddress(c) };
      const cutOff: CutOff = (end) => watcher.watch(Number(key.id), end);
      return body.stream ? streamed(ctx, c, turn, body, cutOff) : whole(ctx, c, turn, cutOff);
    });
}

type TurnInput = Omit<Parameters<ServerPluginContext['generation']['run']>[0], 'emit' | 'signal'>;

/** A completion answered whole. */
async function whole(ctx: ServerPluginContext, c: Context<AppEnv>, turn: TurnInput, cutOff: CutOff): Promise<Response> {
  const abort = new AbortController();
  c.req.raw.signal.addEventListener('abort', () => abort.abort(), { once: true });
  let failed: ErrorEvent | undefined;
  let revoked: Refusal | undefined;
  const unwatch = cutOff((why) => {
    revoked = why;
    abort.abort();
  });
  const result = await ctx.generation.run({ ...turn, signal: abort.signal, emit: (e) => void (e.type === 'error' && (failed ??= e)) }).finally(unwatch);
  if (revoked) return openAIError(c, 401, revoked.text, 'invalid_api_key');
  if (!result) return refusal(c, failed ?? { type: 'error', error: 'The answer failed.' });
  const calls = wireToolCalls(result.tool_calls);
  return c.json({
    id: completionId(),
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: result.info.model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: result.text === '' && calls.length ? null : result.text, refusal: null, ...(calls.length ? { tool_calls: calls } : {}) },
        logprobs: null,
        finish_reason: calls.length ? 'tool_calls' : 'stop',
      },
    ],
    usage: usageJson(result.usage ?? { inputTokens: 0, outputTokens: 0 }),
  });
}

/**
 * A streamed completion: the HTTP answer waits for the turn's first answer event, so that a
 * refusal is still a status; then each text delta (one per network read of the provider) is a
 * chunk written at once, the tool calls one chunk, the finish reason, the usage when asked, and
 * `[DONE]`. A client that reads slowly holds the provider back (emit's promise), as on the page.
 */
function streamed(ctx: ServerPluginContext, c: Context<AppEnv>, turn: TurnInput, body: ChatBody, cutOff: CutOff): Promise<Response> {
  const abort = new AbortController();
  c.req.raw.signal.addEventListener('abort', () => abort.abort(), { once: true });
  const id = completionId();
  const created = Math.floor(Date.now() / 1000);
  let model = turn.request.model ?? '';
  let sink: StreamSink | undefined;
  // The fixed part of a content chunk, made once the model is known: a delta is then one JSON string.
  let head = '';
  const contentChunk = (delta: string) => `${head}${JSON.stringify(delta)}}${CONTENT_TAIL}`;

  return new Promise<Response>((respond) => {
    const begin = () => {
      if (sink) return;
      const opened = ctx.streamResponse(c, STREAM_HEADERS, () => abort.abort());
      sink = opened.sink;
      head = `data: {"id":"${id}","object":"chat.completion.chunk","created":${created},"model":${JSON.stringify(model)},"choices":[{"index":0,"delta":{"content":`;
      respond(opened.response);
      sink.write(chunk(id, created, model, { role: 'assistant', content: '' }));
    };
    const held = () => (sink!.full() ? sink!.ready() : undefined);
    let failure: ErrorEvent | undefined;
    // A revoked key: the refusal (a 401 before the first token, an error event after it), the
    // stream's end at once, and the turn aborted (the provider's request closed).
    let revoked = false;
    const unwatch = cutOff((why) => {
      revoked = true;
      if (sink) sink.end(`${revokedEvent(why)}data: [DONE]\n\n`);
      else respond(openAIError(c, 401, why.text, 'invalid_api_key'));
      abort.abort();
    });
    const emit = (e: GenerationEvent) => {
      if (revoked) return undefined;
      if (e.type === 'model') model = e.model;
      else if (e.type === 'text') {
        begin();
        sink!.write(contentChunk(e.delta));
        return held();
      } else if (e.type === 'call') {
        begin();
        sink!.write(chunk(id, created, model, { tool_calls: wireToolCalls(e.calls).map((call, index) => ({ index, ...call })) }));
      } else if (e.type === 'error') {
        failure ??= e;
        if (sink) sink.write(`data: ${JSON.stringify({ error: { message: e.error, type: 'server_error', param: null, code: e.message?.code ?? null } })}\n\n`);
      }
      return undefined;
    };
    void ctx.generation.run({ ...turn, signal: abort.signal, emit }).finally(unwatch).then(
      (result) => {
        if (revoked) return;
        if (!result && !sink) return respond(refusal(c, failure ?? { type: 'error', error: 'The answer failed.' }));
        begin();
        let last = '';
        if (result) {
          last += chunk(id, created, model, {}, result.tool_calls.length ? 'tool_calls' : 'stop');
          if (body.stream_options?.include_usage) last += usageChunk(id, created, model, result.usage ?? { inputTokens: 0, outputTokens: 0 });
        }
        sink!.end(`${last}data: [DONE]\n\n`);
      },
      (err: unknown) => {
        ctx.log.error({ err: { message: String((err as Error)?.message) } }, 'an API turn failed');
        if (revoked) return;
        if (!sink) return respond(openAIError(c, 500, 'The answer failed.', null));
        sink.end();
      },
    );
  });
}

const STREAM_HEADERS = { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache, no-transform', 'X-Accel-Buffering': 'no' };
const CONTENT_TAIL = ',"logprobs":null,"finish_reason":null}]}\n\n';
