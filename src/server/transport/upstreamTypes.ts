// What the direct relay's two HTTP clients (upstream.ts, rawHttp.ts) have in common.

/** What a chunk handler returns: 'stop' ends the reading. */
export type ChunkResult = void | 'stop';

/** The provider's answer, whichever client fetched it. */
export interface Upstream {
  status: number;
  headers: Record<string, string>;
  /** The whole body (for errors). */
  text(): Promise<string>;
  /**
   * Hands over the body read by read; resolves at its end or when the handler says 'stop'. A
   * chunk is valid only during its call (rawHttp.ts reuses the memory for the next read).
   */
  pump(onChunk: (chunk: Uint8Array) => ChunkResult): Promise<void>;
  /** Reads no more until `until` settles (the browser is behind). */
  hold(until: Promise<void>): void;
}

export type Send = (url: string, headers: Record<string, string>, body: string, signal: AbortSignal) => Promise<Upstream>;

/** The provider stopped sending in the middle of the answer. */
export class CutShortError extends Error {}
