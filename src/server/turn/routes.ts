// The generation API (spec part 7): GET and POST /api/generate_sse (one SSE event per message
// kind, JSON data), POST /api/generate (the whole result), POST /api/generate_msg (the
// messages only, for local and direct model calls) and POST /api/log/add. Each of the first four
// takes a slot of the caps on answers in flight first (answerCaps.ts); the GET, which a link
// or a form on another site can send, is refused from there (http/origin.ts).
import type { ServerResponse } from 'node:http';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import type { AppEnv, GenerateRequest, ToolResult } from '../../core/index.ts';
import { Message, saidBy } from '../../core/messages.ts';
import { DEFAULT_MEM_LENGTH } from '../../core/index.ts';
import { generateBody, generateQueryToBody, logAddBody } from '../../core/api/generate.ts';
import { fail, ok } from '../http/respond.ts';
import { validate } from '../http/validate.ts';
import { buildMessages } from './modelMessages.ts';
import { ownerOf, type Owner } from './owner.ts';
import { errorEvent } from './errors.ts';
import { saveTurn } from './persist.ts';
import type { Emit, GenerationDeps } from './deps.ts';
import { checkGuards, GenerationError, runGeneration } from './run.ts';
import { nodeSseStream, webSseStream } from '../transport/sseStream.ts';
import { getSession, memory, owns, SessionError, sessionForTurn, validSessionId } from './sessions.ts';
import { fetchFileTexts, imagesOf, inlineUploadedImages } from './files.ts';
import { awaitLocalLog, reserveUse, settleUse, type Use } from './uses.ts';
import { SERVER_MESSAGES } from '../../core/serverMessages.ts';
import { ownImages } from './ownImages.ts';

/** What the routes ask of the request beyond the turn: cookies' Secure flag, the client's address, the cross-site check. */
export interface GenerationHttp {
  secure(c: Context<AppEnv>): boolean;
  address(c: Context<AppEnv>): string;
  /** A visitor's address key, which their limits count under too (clientAddress.ts). */
  addressKey?(c: Context<AppEnv>): string;
  sameSiteOnly: MiddlewareHandler;
}

/** A turn refused by the caps: its one event says why, and nothing else runs. */
const refused = async (emit: Emit): Promise<undefined> => {
  await emit(errorEvent(SERVER_MESSAGES.tooManyAnswers));
  return undefined;
};

/** The generation routes; the browser's local-model turn is typed from them (GenerationRoutes). */
export function generationRoutes(deps: GenerationDeps, http: GenerationHttp) {
  const owner = (c: Context<AppEnv>): Owner => ownerOf(c, http.secure(c), http.addressKey);
  // A slot for the owner and the address, or undefined past a cap (answerCaps.ts).
  const slot = (c: Context<AppEnv>, who: Owner) => deps.caps.take(who, http.address(c));
  // Asked for only by an image model's turn: parsing the request's URL costs every other turn.
  const originOf = (c: Context<AppEnv>) => deps.settings.publicUrl || new URL(c.req.url).origin;
  // A request a plugin's authenticator let in (an API key) tags its turn's ledger rows with it.
  const tagged = (c: Context<AppEnv>) => {
    const credential = c.get('credential');
    return credential ? { tag: credential } : undefined;
  };

  const sse = (c: Context<AppEnv>, request: GenerateRequest) => {
    const who = owner(c);
    const release = slot(c, who);
    const abort = new AbortController();
    // The turn, tracked and giving its slots back when it settles; or the refusal alone.
    const turn = (emit: Emit) =>
      release ? deps.inflight.track(abort, runGeneration(deps, request, who, emit, abort.signal, () => originOf(c), tagged(c)).finally(release)) : refused(emit);
    c.header('Content-Type', 'text/event-stream');
    c.header('X-Accel-Buffering', 'no');
    c.header('Cache-Control', 'no-cache, no-transform');
    // Under the Node server: written to the socket directly, with the headers the middleware
    // set (the security headers, the device cookie).
    const outgoing = (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;
    if (outgoing) {
      const headers: Record<string, string> = {};
      c.res.headers.forEach((value, key) => (headers[key] = value));
      const setCookie = c.res.headers.getSetCookie();
      const stream = nodeSseStream(outgoing, setCookie.length ? { ...headers, 'set-cookie': setCookie as never } : headers, () => abort.abort());
      void turn(stream.emit).finally(() => stream.close());
      // The context's response (made above to read its headers) is dropped first: Hono would
      // merge it into RESPONSE_ALREADY_SENT as a new response, which the Node adapter would
      // try to write again (ERR_HTTP_HEADERS_SENT, then a destroyed stream).
      c.res = undefined as unknown as Response;
      c.res = RESPONSE_ALREADY_SENT;
      return RESPONSE_ALREADY_SENT;
    }
    // A closed tab or a stop aborts the upstream provider request.
    const stream = webSseStream(() => abort.abort());
    c.req.raw.signal.addEventListener('abort', () => abort.abort(), { once: true });
    void turn(stream.emit).finally(() => stream.close());
    return c.body(stream.body);
  };

  return new Hono<AppEnv>()
  .post('/api/generate_sse', validate('json', generateBody), (c) => sse(c, c.req.valid('json') as GenerateRequest))
  .get('/api/generate_sse', http.sameSiteOnly, (c) => {
    const parsed = generateBody.safeParse(generateQueryToBody(c.req.query()));
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      return fail(c, 400, `Invalid ${issue.path.join('.') || 'request'}: ${issue.message}`);
    }
    return sse(c, parsed.data as GenerateRequest);
  })
  .post('/api/generate', validate('json', generateBody), async (c) => {
    const request = c.req.valid('json') as GenerateRequest;
    const who = owner(c);
    const release = slot(c, who);
    if (!release) return fail(c, 429, SERVER_MESSAGES.tooManyAnswers);
    let error: string | Message = '';
    const abort = new AbortController();
    c.req.raw.signal.addEventListener('abort', () => abort.abort());
    const result = await deps.inflight.track(abort, runGeneration(deps, request, who, (e) => {
      if (e.type === 'error') error = e.message ? new Message(e.message.code, e.message.params as Message['params'], e.message.text) : e.error;
    }, abort.signal, () => originOf(c), tagged(c)).finally(release));
    return result ? ok(c, result) : fail(c, 400, error || SERVER_MESSAGES.errorOccurred);
  })
  .post('/api/generate_msg', validate('json', generateBody), async (c) => {
    const request = c.req.valid('json') as GenerateRequest;
    const who = owner(c);
    // No provider call, but the context it builds fetches files and asks plugins (stores,
    // nodes): in flight while it does, under the same caps.
    const release = slot(c, who);
    if (!release) return fail(c, 429, SERVER_MESSAGES.tooManyAnswers);
    let use: Use | undefined;
    try {
      // A local model's turn is a use too: the same limits, counted now (uses.ts); its use then
      // waits in its session for the turn's /api/log/add.
      await checkGuards(deps.guards, request, who);
      if (deps.useLimits?.length) use = await reserveUse(deps.db, deps.useLimits, who, { model: request.model ?? '' });
      const session = await sessionForTurn(deps.db, request.session, request.time, who);
      const memLength = request.mem_length ?? DEFAULT_MEM_LENGTH;
      const past = memLength > 0 ? await memory(deps.db, session, memLength) : [];
      const abort = new AbortController();
      const providerSystem: string[] = [];
      for (const provider of deps.providers) {
        const added = await provider({ request, user: who.user, signal: abort.signal, status: () => {} });
        providerSystem.push(...(added?.system ?? []));
      }
      const fileTexts = await fetchFileTexts(request.files ?? [], deps.attachments, abort.signal);
      // A local model cannot fetch the server's uploads either: they go inline.
      const inlineImages = await inlineUploadedImages(imagesOf(request.images ?? [], past), deps.attachments, abort.signal);
      const messages = buildMessages(request, { systemPrompt: deps.settings.roleContentSystem, providerSystem, memory: past, fileTexts, vision: true, inlineImages });
      if (use) await awaitLocalLog(deps.db, use, session);
      return ok(c, { msg: { messages, mem: past.length, session } });
    } catch (err) {
      // The browser never got its messages, so it asks no model: the use is not one.
      await settleUse(deps.db, use);
      if (err instanceof SessionError) return fail(c, err.status, saidBy(err));
      if (err instanceof GenerationError) return fail(c, 429, saidBy(err));
      throw err;
    } finally {
      release();
    }
  })
  // A turn answered by a local or direct model call, saved into the caller's own session only.
  .post('/api/log/add', validate('json', logAddBody), async (c) => {
    const body = c.req.valid('json');
    const who = owner(c);
    if (!validSessionId(body.session)) return fail(c, 400, SERVER_MESSAGES.timeTraveler);
    const session = await getSession(deps.db, body.session);
    if (session && !owns(session, who)) return fail(c, 403, SERVER_MESSAGES.ownLogsOnly);
    const id = session ? session.id : await sessionForTurn(deps.db, body.session, undefined, who);
    const { time } = await saveTurn(deps.db, {
      session: id,
      owner: who,
      model: body.model,
      input: body.input,
      output: body.output,
      images: ownImages(body.images ?? [], originOf(c)),
      tools: body.tools ?? [],
      usage: { inputTokens: 0, outputTokens: 0, cost: 0 },
      localTurn: true,
    });
    return ok(c, { session: id, time });
  });
}

export type GenerationRoutes = ReturnType<typeof generationRoutes>;
