// The answer of a turn as it streams in, kept for the log. A plain `text += delta` keeps two
// heap objects per token (the piece and a rope node) alive for the whole answer: with hundreds
// of answers streaming at once, the garbage collector copies and marks them again and again
// (a third of the server's extra CPU per relayed token over the relay alone, benchmark B5).
// Pieces are joined into one flat string every 64, so what a long answer keeps is a few
// strings, not thousands.
const BATCH = 64;

export class AnswerText {
  private joined = '';
  private readonly pieces: string[] = [];

  add(piece: string): void {
    this.pieces.push(piece);
    if (this.pieces.length === BATCH) this.fold();
  }

  get text(): string {
    if (this.pieces.length) this.fold();
    return this.joined;
  }

  private fold(): void {
    this.joined += this.pieces.join('');
    this.pieces.length = 0;
  }
}
