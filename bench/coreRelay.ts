// A second baseline of the SSE relay benchmark: shellchat's relay core alone, with no app
// around it. The same modules the server streams with (the direct relay's request, SSE reader
// and chunk parsing, the SSE writer with back-pressure), behind a bare node:http server: no
// routing, validation, session, database or log. Beside the pass-through (bareRelay.ts) it
// shows what converting the stream costs; beside the app, what the product around it costs.
import http from 'node:http';
import { directChatStream } from '../src/server/transport/directStream.ts';
import { nodeSseStream } from '../src/server/transport/sseStream.ts';
import type { ModelEntry } from '../src/server/models/systemModels.ts';

const entry: ModelEntry = {
  name: 'bench',
  scope: 'system',
  provider: 'openai-compatible',
  model: 'bench',
  baseUrl: process.env.UPSTREAM!,
  apiKey: '',
  priceInput: 0,
  priceOutput: 0,
  capabilities: { vision: false, tools: false, image: false, reasoning: false, context_window: null },
};

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const abort = new AbortController();
    const stream = nodeSseStream(res, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' }, () => abort.abort());
    const options = { entry, messages: [{ role: 'user' as const, content: Buffer.concat(chunks).toString() }], tools: {}, temperature: 1, topP: 1, maxSteps: 1, signal: abort.signal };
    void directChatStream(options, (part) => {
      if (part.type === 'text-delta') return stream.emit({ type: 'text', delta: part.text }, true);
      if (part.type === 'error') stream.emit({ type: 'error', error: String((part.error as Error)?.message) });
    })
      .catch(() => {})
      .finally(() => stream.close());
  });
});
server.listen(Number(process.env.PORT), '127.0.0.1', () => process.stdout.write('ready\n'));
