// The port, bound before anything else starts: a port in use stops the start before the
// database is touched and before root is made (its one-time password must not be lost to a
// failed bind). Until the app is ready the port answers 503 with Retry-After.
import { createAdaptorServer, type ServerType } from '@hono/node-server';
// Evaluated before the adaptor server replaces the global Response with its own: the marker
// a streamed answer returns (RESPONSE_ALREADY_SENT) must stay a native Response, or the
// adaptor takes it for a cached response and writes headers a second time (every SSE answer
// then failed with ERR_HTTP_HEADERS_SENT once the port was bound before the app was loaded).
import '@hono/node-server/utils/response';
import { causeOf, StartError } from './startError.ts';

type Fetch = (request: Request, env: never) => Response | Promise<Response>;

export interface Listener {
  http: ServerType;
  /** Where a person opens the app (`http://127.0.0.1:3000`). */
  url: string;
  /** From now on requests go to the app. */
  serve(fetch: Fetch): void;
}

/** The address a person types: a wildcard address is this machine; an IPv6 one is bracketed. */
export function urlOf(host: string, port: number): string {
  const shown = host === '0.0.0.0' || host === '::' || host === '' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${shown}:${port}`;
}

/** What a failed bind means, with the variable that fixes it. */
function bindFailure(err: unknown, port: number, host: string): string {
  const code = (err as { code?: string }).code;
  if (code === 'EADDRINUSE') return `PORT ${port} is already in use on ${host}: stop what listens there, or set PORT to a free port`;
  if (code === 'EACCES') return `PORT ${port} cannot be bound on ${host}: permission denied (ports below 1024 need privileges; set PORT to 1024 or above)`;
  if (code === 'EADDRNOTAVAIL') return `HOST ${host} is not an address of this machine: set HOST to one of its addresses, 127.0.0.1 or 0.0.0.0`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `HOST ${host} cannot be resolved: ${causeOf(err)}`;
  return `PORT ${port} on HOST ${host} cannot be bound: ${causeOf(err)}`;
}

export async function bindPort(port: number, host: string): Promise<Listener> {
  let handler: Fetch = () => new Response('shellchat is starting\n', { status: 503, headers: { 'retry-after': '1' } });
  const http = createAdaptorServer({ fetch: (request, env) => handler(request, env as never), hostname: host });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(port, host, () => {
      http.off('error', reject);
      resolve();
    });
  }).catch((err: unknown) => {
    throw new StartError(bindFailure(err, port, host));
  });
  const address = http.address();
  return {
    http,
    url: urlOf(host, typeof address === 'object' && address ? address.port : port),
    serve: (fetch) => (handler = fetch),
  };
}
