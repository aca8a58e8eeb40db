// Test helpers for the relay's clients (upstream.test.ts, undiciSend.test.ts, directStream.test.ts,
// streamReaders.test.ts): local providers that answer in the ways real ones do, and a turn
// through the direct relay. Not a test file itself.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ModelEntry } from '../models/systemModels.ts';
import { directChatStream, type RelayPart } from './directStream.ts';

/** The local servers a test file started; close them after each test (`closeServers`). */
export const servers: http.Server[] = [];
export const closeServers = () => Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));

async function listen(server: http.Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A server whose handler gets the raw response after a 200 SSE head (chunked encoding: one chunk per write). */
export const serve = (handler: (res: http.ServerResponse) => void): Promise<string> =>
  listen(
    http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        handler(res);
      });
    }),
  );

/** A server that answers with `handler` from the start (headers and all up to it). */
export const raw = (handler: (res: http.ServerResponse) => void): Promise<string> =>
  listen(
    http.createServer((req, res) => {
      req.resume();
      req.on('end', () => handler(res));
    }),
  );

/** A server that drops the connection, unanswered, of the requests `drop` picks (by number from 1). */
export async function dropping(drop: (n: number) => boolean) {
  const seen = { requests: 0, connections: 0 };
  const server = http.createServer((req, res) => {
    const n = ++seen.requests;
    req.resume();
    req.on('end', () => {
      if (drop(n)) return void req.socket.destroy();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`{"n":${n}}`);
    });
  });
  server.on('connection', () => seen.connections++);
  return { url: `${await listen(server)}/chat/completions`, seen };
}

export const event = (content: string) => `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`;
export const finish = `data: ${JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\ndata: [DONE]\n\n`;

export const systemEntry = (baseUrl: string): ModelEntry => ({
  name: 'sys',
  scope: 'system',
  provider: 'openai-compatible',
  model: 'm',
  baseUrl,
  apiKey: '',
  priceInput: 0,
  priceOutput: 0,
  capabilities: { vision: false, tools: false, image: false, reasoning: false, context_window: null },
});

/** One turn through the direct relay to a system model at `baseUrl`: its parts. */
export async function turn(baseUrl: string): Promise<RelayPart[]> {
  const parts: RelayPart[] = [];
  await directChatStream(
    { entry: systemEntry(baseUrl), messages: [{ role: 'user', content: 'hi' }], tools: {}, temperature: 1, topP: 1, maxSteps: 1, signal: new AbortController().signal },
    (part) => void parts.push(part),
  );
  return parts;
}

/** A fetch answering each request with the next body, cut into reads of `size` bytes. */
export function chunkedFetch(bodies: string[], size: number, seen: { url: string; body: Record<string, unknown>; headers: Record<string, string> }[] = []): typeof fetch {
  return (async (url: string, init: RequestInit) => {
    seen.push({ url, body: JSON.parse(String(init.body)), headers: init.headers as Record<string, string> });
    const bytes = new TextEncoder().encode(bodies.shift()!);
    let at = 0;
    return new Response(
      new ReadableStream<Uint8Array>({
        pull(controller) {
          if (at >= bytes.length) return controller.close();
          controller.enqueue(bytes.slice(at, at + size));
          at += size;
        },
      }),
      { status: 200, headers: { 'content-type': 'text/event-stream' } },
    );
  }) as unknown as typeof fetch;
}
