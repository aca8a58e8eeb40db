// The server's observation hooks (ctx.events): the core and the plugins say what happens as it
// happens (a request answered, an answer's first token, a payment settled), and listeners (the
// metrics plugin) count it. Emitting is synchronous and cheap with no listener; a listener
// that throws is logged and never fails the request that emitted.
import type { ServerEventBus, ServerEventListener, ServerEvents } from '../core/index.ts';

export function createServerEvents(log: { error(obj: object, msg?: string): void }): ServerEventBus {
  const listeners = new Map<keyof ServerEvents, ServerEventListener<never>[]>();
  return {
    on(name, listener) {
      const list = listeners.get(name) ?? [];
      list.push(listener as ServerEventListener<never>);
      listeners.set(name, list);
    },
    emit(name, data) {
      const list = listeners.get(name);
      if (!list) return;
      for (const listener of list) {
        try {
          (listener as ServerEventListener<typeof name>)(data);
        } catch (err) {
          log.error({ err: { message: (err as Error).message }, event: name }, 'event listener failed');
        }
      }
    },
  };
}
