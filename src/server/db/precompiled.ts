// Queries of a fixed shape compiled once per database engine, for the few that run on every
// chat turn. Kysely builds an immutable query tree and compiles it to SQL on every execution
// (about 15 µs a query, a tenth of a turn's server CPU before the first token, benchmark B5).
// Here `build` runs once per engine with stand-ins for the arguments; each run puts the real
// arguments where the stand-ins landed among the compiled parameters, and sends the same SQL
// (which better-sqlite3's statement cache then also finds prepared).
import { CompiledQuery, type Compilable, type Kysely, type QueryResult } from 'kysely';
import type { Database } from '../../core/dbSchema.ts';

/** A stand-in no real argument equals: control characters around the argument's position. */
const standIn = (i: number) => `\u0000arg${i}\u0000`;

interface Plan {
  sql: string;
  /** Per parameter: the argument's position, or a value the query itself holds. */
  slots: (number | { value: unknown })[];
}

export type Precompiled<A extends unknown[], R> = (db: Kysely<Database>, ...args: A) => Promise<QueryResult<R>>;

/**
 * `build` receives the arguments as opaque stand-ins (typed as the real ones) and must use each
 * only as a value of the query: compared, inserted or set, never inspected or computed with.
 */
export function precompiled<A extends unknown[], R>(build: (db: Kysely<Database>, ...args: A) => Compilable<R>): Precompiled<A, R> {
  // Keyed by the engine's adapter class: a transaction shares its database's engine.
  const plans = new WeakMap<object, Plan>();
  const arity = build.length - 1;
  return async (db, ...args) => {
    const engine = db.getExecutor().adapter.constructor;
    let plan = plans.get(engine);
    if (!plan) {
      const stand = Array.from({ length: arity }, (_, i) => standIn(i));
      const compiled = build(db, ...(stand as unknown as A)).compile();
      const slots = compiled.parameters.map((p) => {
        const at = stand.indexOf(p as string);
        return at >= 0 ? at : { value: p };
      });
      // Every argument must have landed as a parameter, as itself: not inlined, not computed with.
      for (const slot of slots) {
        if (typeof slot !== 'number' && typeof slot.value === 'string' && slot.value.includes('\u0000arg')) {
          throw new Error(`precompiled: an argument was computed with in ${compiled.sql}`);
        }
      }
      for (let i = 0; i < arity; i++) if (!slots.includes(i)) throw new Error(`precompiled: argument ${i} is not a parameter of ${compiled.sql}`);
      plan = { sql: compiled.sql, slots };
      plans.set(engine, plan);
    }
    const parameters = plan.slots.map((slot) => (typeof slot === 'number' ? args[slot] : slot.value));
    return db.executeQuery(CompiledQuery.raw(plan.sql, parameters) as CompiledQuery<R>);
  };
}
