// What several instances share (REDIS_URL): one Redis connection per process, opened at start.
// Commands fail at once while Redis is away (no offline queue), so that what uses it falls
// back as documented (auth/throttle.ts) instead of waiting; the client reconnects by itself.
import { createClient } from 'redis';

const open = (url: string) =>
  createClient({ url, disableOfflineQueue: true, socket: { reconnectStrategy: (retries: number) => Math.min(retries * 200, 2_000), connectTimeout: 2_000 } });

export interface Shared {
  client: ReturnType<typeof open>;
  close(): Promise<void>;
}

export async function connectShared(url: string, log: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void }): Promise<Shared> {
  const client = open(url);
  let away = false;
  client.on('error', (err: Error) => {
    if (away) return;
    away = true;
    log.warn({ err: { message: err.message } }, 'Redis cannot be reached: login throttling counts per instance until it is back');
  });
  client.on('ready', () => {
    if (away) log.info({}, 'Redis is back: login throttling is shared again');
    away = false;
  });
  // Not awaited: a Redis that is away at start does not hold the server back (the client
  // retries until it is back; meanwhile what uses it falls back, as it does later).
  void client.connect().catch(() => undefined);
  return {
    client,
    close: async () => {
      await client.close().catch(() => client.destroy());
    },
  };
}
