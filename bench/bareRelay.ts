// The baseline of the SSE relay benchmark: a bare node:http pass-through of the provider's
// stream (no parsing, no database), started as its own process like the real server.
import http from 'node:http';

const upstream = process.env.UPSTREAM!;
const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const up = http.request(
      `${upstream}/chat/completions`,
      { method: 'POST', headers: { 'content-type': 'application/json' } },
      (upRes) => {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        upRes.pipe(res);
      },
    );
    // A client that goes away aborts the upstream request (as the real server does).
    res.on('close', () => {
      if (!res.writableFinished) up.destroy();
    });
    up.on('error', () => res.destroy());
    up.end(JSON.stringify({ model: 'bench', stream: true, messages: [{ role: 'user', content: Buffer.concat(chunks).toString() }] }));
  });
});
server.listen(Number(process.env.PORT), '127.0.0.1', () => process.stdout.write('ready\n'));
