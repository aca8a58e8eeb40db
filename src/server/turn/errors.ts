// How a turn's failure is put to the person: a message of ours (GenerationError), or a
// provider's status with its own detail, or a stream the provider cut short.
import { MessageError, saidBy, type Message } from '../../core/messages.ts';
import { SERVER_MESSAGES } from '../../core/serverMessages.ts';
import { isConnectionLost } from '../db/connectionLost.ts';

/** A failure whose message is meant for the person as it stands (no model, no vision, a limit). */
export class GenerationError extends MessageError {
  /** When the refused question may be asked again (epoch ms), when the refusal knows (a usage limit). */
  readonly retryAt: number | undefined;
  constructor(said: string | Message, retryAt?: number) {
    super(said);
    this.retryAt = retryAt;
  }
}

export function errorMessage(err: unknown): string | Message {
  // Never the driver's words (they name the database's address): what it means to the person.
  if (isConnectionLost(err)) return SERVER_MESSAGES.databaseAway;
  const e = err as { statusCode?: number; message?: string; responseBody?: string };
  // The AI SDK reports a stream that broke after a 200 with that status: say what happened.
  if (typeof e?.statusCode === 'number' && e.statusCode < 300) return SERVER_MESSAGES.cutShort;
  if (typeof e?.statusCode === 'number') {
    let detail = '';
    try {
      detail = JSON.parse(e.responseBody ?? '{}')?.error?.message ?? '';
    } catch {
      detail = '';
    }
    return detail ? SERVER_MESSAGES.providerStatusDetail(e.statusCode, detail) : SERVER_MESSAGES.providerStatus(e.statusCode);
  }
  return e?.message ? saidBy(err) : SERVER_MESSAGES.failed;
}

export { errorEvent, statusEvent } from '../../core/generation.ts';
