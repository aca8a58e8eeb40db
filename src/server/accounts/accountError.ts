// An account operation refused, with the message for the person and the HTTP status it answers.
import { MessageError, type Message } from '../../core/messages.ts';

export class AccountError extends MessageError {
  readonly status: 400 | 401 | 403 | 404 | 409;
  constructor(said: string | Message, status: AccountError['status'] = 400) {
    super(said);
    this.status = status;
  }
}
