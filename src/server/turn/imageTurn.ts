// A turn with an image model (capabilities.image: gpt-image-1, dall-e-3, imagen...): the
// question is the prompt, and the answer is a picture, not text. The provider's images API
// is not streamed (spec part 4: an image model uses non-stream mode), so the turn answers the
// same over /api/generate_sse and /api/generate: status, model, one image event per picture,
// stats, done. The pictures are kept as uploads of the person who asked, and their object
// URLs go into the log, so the session shows them again and the next turn can edit them.
//
// Editing: the images attached to the question are edited; without any, the last picture of
// the session's previous turn is (so "now make it blue" goes on from the last answer), as the
// original app did.
import { generateImage } from 'ai';
import type { Kysely } from 'kysely';
import type { AttachmentsApi, Database, GenerateRequest, GenerateResult, GenerationEvent, Stats } from '../../core/index.ts';
import { SERVER_MESSAGES } from '../../core/serverMessages.ts';
import { imageModel } from '../models/providers.ts';
import type { ModelEntry } from '../models/systemModels.ts';
import { insertUpload, objectUrl } from '../uploads/uploadStorage.ts';
import type { Owner } from './owner.ts';
import type { Message } from '../../core/messages.ts';
import { GenerationError, statusEvent } from './errors.ts';
import { saveTurn } from './persist.ts';
import { memory } from './sessions.ts';
import type { Use } from './uses.ts';

export interface ImageTurn {
  /** What it needs of the generation's dependencies (deps.ts's GenerationDeps has it all). */
  deps: { db: Kysely<Database>; attachments: AttachmentsApi; settings: { generating: string | Message } };
  request: GenerateRequest;
  owner: Owner;
  entry: ModelEntry;
  session: number;
  stats: Stats;
  fetch: typeof fetch | undefined;
  /** Where object URLs point (PUBLIC_URL, or the request's origin). */
  origin: string;
  emit: (event: GenerationEvent) => void | Promise<void>;
  signal: AbortSignal;
  /** The question's use, recorded when it started (uses.ts): the log completes it. */
  use?: Use;
}

/** The pictures to edit: the question's, else the last one of the previous turn. */
async function sources(turn: ImageTurn): Promise<string[]> {
  if (turn.request.images?.length) return turn.request.images;
  const [last] = await memory(turn.deps.db, turn.session, 1);
  try {
    const images = JSON.parse(last?.images ?? '[]') as string[];
    return images.length ? [images.at(-1)!] : [];
  } catch {
    return [];
  }
}

export async function runImageTurn(turn: ImageTurn): Promise<GenerateResult> {
  const { deps, request, entry, emit, signal, stats } = turn;
  const model = imageModel(entry, turn.fetch);
  if (!model) throw new GenerationError(SERVER_MESSAGES.noImageModel(entry.name, entry.provider));
  emit(statusEvent(deps.settings.generating));
  const edits = await sources(turn);
  const files = await Promise.all(edits.map((url) => deps.attachments.fetch(url, signal)));
  if (turn.use) turn.use.asked = true;
  const result = await generateImage({
    model,
    prompt: files.length ? { text: request.user_input, images: files.map((f) => f.data) } : request.user_input,
    n: 1,
    abortSignal: signal,
    // The SDK waits as a 429's Retry-After asks; nothing has been shown yet, so a retry is safe.
    maxRetries: 2,
  });
  emit({ type: 'model', model: entry.name });
  const made: string[] = [];
  for (const [i, image] of result.images.entries()) {
    const ext = image.mediaType === 'image/jpeg' ? 'jpg' : 'png';
    const name = `image-${turn.session}-${Date.now()}${i ? `-${i}` : ''}.${ext}`;
    const id = await insertUpload(deps.db, turn.owner, { name, contentType: image.mediaType || 'image/png', data: image.uint8Array });
    made.push(objectUrl(turn.origin, id, name));
  }
  for (const url of [...(request.images ?? []), ...made]) await emit({ type: 'image', url });
  const used = { inputTokens: result.usage.inputTokens ?? 0, outputTokens: result.usage.outputTokens ?? 0 };
  stats.token_ct = used.inputTokens + used.outputTokens;
  const images = [...(request.images ?? []), ...made];
  const { time } = await saveTurn(deps.db, {
    session: turn.session,
    owner: turn.owner,
    model: entry.name,
    input: request.user_input,
    output: '',
    images,
    tools: [],
    usage: { ...used, cost: used.inputTokens * entry.priceInput + used.outputTokens * entry.priceOutput },
    useId: turn.use?.id,
  });
  if (request.use_stats) emit({ type: 'stats', stats });
  emit({ type: 'done', session: turn.session, time });
  return { events: [], tool_calls: [], images, text: '', stats, info: { model: entry.name, session: turn.session, time } };
}
