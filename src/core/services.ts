// Typed service handles (DESIGN.md §2): a plugin provides an implementation under a ref and
// others consume it; `maybe` is for optional services that may be absent.

export interface ServiceRef<T> {
  readonly id: string;
  /** Phantom field carrying the type; never set. */
  readonly _type?: T;
}

export function createServiceRef<T>(id: string): ServiceRef<T> {
  return { id };
}

export class ServiceRegistry {
  private readonly impls = new Map<string, unknown>();

  provide<T>(ref: ServiceRef<T>, impl: T): () => void {
    if (this.impls.has(ref.id)) throw new Error(`Service ${ref.id} is already provided.`);
    this.impls.set(ref.id, impl);
    return () => {
      if (this.impls.get(ref.id) === impl) this.impls.delete(ref.id);
    };
  }

  get<T>(ref: ServiceRef<T>): T {
    if (!this.impls.has(ref.id)) throw new Error(`No provider for service ${ref.id}.`);
    return this.impls.get(ref.id) as T;
  }

  maybe<T>(ref: ServiceRef<T>): T | undefined {
    return this.impls.get(ref.id) as T | undefined;
  }
}
