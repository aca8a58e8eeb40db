// HTML pages become text in worker threads (extractWorker.ts), WEB_EXTRACT_WORKERS at once, each
// page within WEB_EXTRACT_TIMEOUT_MS: a page built to make the parser crawl (thousands of nested
// elements take minutes) ends its worker, and the server's thread answered others meanwhile.
import { MessageError, WorkerPoolError, type ServerPluginContext, type WorkerPool } from '../../../src/core/index.ts';
import { MESSAGES } from '../common/messages.ts';
import type { WebConfig } from './env.ts';
import type { ExtractJob, ExtractResult } from './extractWorker.ts';

/** Pages that may wait for a worker (each at most PARSE_MAX_CHARS of HTML: about 30 MB in all). */
const QUEUE = 128;
/** A worker's heap: linkedom's DOM of 120,000 characters of HTML takes a few tens of MB. */
const HEAP_MB = 256;

export const WORKER_MODULE = new URL('./extractWorker.ts', import.meta.url);

export const poolOptions = (config: Pick<WebConfig, 'extractWorkers' | 'extractTimeoutMs'>) => ({ workers: config.extractWorkers, queue: QUEUE, timeMs: config.extractTimeoutMs, heapMb: HEAP_MB });

/** A page's title and text from its HTML, or the refusal in words. */
export function pageReader(pool: WorkerPool<ExtractJob, ExtractResult>) {
  return async (html: string, url: string): Promise<ExtractResult> => {
    try {
      return await pool.run({ html, url });
    } catch (err) {
      if (!(err instanceof WorkerPoolError)) throw new MessageError(MESSAGES.noText);
      const why = { time: MESSAGES.extractSlow, memory: MESSAGES.extractMemory, crashed: MESSAGES.extractCrashed, busy: MESSAGES.extractBusy }[err.failure];
      throw new MessageError(MESSAGES.notFetched(why));
    }
  };
}

export const extractPoolOf = (ctx: ServerPluginContext, config: WebConfig) => ctx.workerPool<ExtractJob, ExtractResult>(WORKER_MODULE, poolOptions(config));
