// Queries of a fixed shape compiled once per database engine, for the few that run on every
// chat turn. Kysely builds an immutable query tree and compiles it to SQL on every execution
// (about 15 µs a query, a tenth of a turn's server CPU before the first token, benchmark B5).
// Here `build` runs once per engine with stand-ins for the named arguments; each run puts the
// real arguments where the stand-ins landed among the compiled parameters, and sends the same
// SQL (which better-sqlite3's statement cache then also finds prepared). Arguments are named,
// not positional: a dozen values of the same types (token counts, times) cannot be swapped.
import { CompiledQuery, type Compilable, type Kysely, type QueryResult } from 'kysely';
import type { Database } from '../../core/dbSchema.ts';

/** A stand-in no real argument equals: control characters around the argument's name. */
const standIn = (name: string) => `\u0000arg:${name}\u0000`;

interface Plan {
  sql: string;
  /** Per parameter: the argument's name, or a value the query itself holds. */
  slots: ({ arg: string } | { value: unknown })[];
}

export type Precompiled<A extends object, R> = (db: Kysely<Database>, args: A) => Promise<QueryResult<R>>;

/**
 * `build` receives stand-ins for the arguments (typed as the real ones) and must use each only
 * as a value of the query: compared, inserted or set, never inspected or computed with.
 */
export function precompiled<A extends object, R>(build: (db: Kysely<Database>, args: A) => Compilable<R>): Precompiled<A, R> {
  // Keyed by the engine's adapter class: a transaction shares its database's engine.
  const plans = new WeakMap<object, Plan>();
  return async (db, args) => {
    const engine = db.getExecutor().adapter.constructor;
    let plan = plans.get(engine);
    if (!plan) {
      // Every argument `build` reads is recorded, and gets its stand-in.
      const used = new Set<string>();
      const stand = new Proxy({} as A, {
        get: (_, name) => {
          if (typeof name !== 'string') return undefined;
          used.add(name);
          return standIn(name);
        },
      });
      const compiled = build(db, stand).compile();
      const byStandIn = new Map([...used].map((name) => [standIn(name), name]));
      const slots = compiled.parameters.map((p) => {
        const arg = typeof p === 'string' ? byStandIn.get(p) : undefined;
        return arg !== undefined ? { arg } : { value: p };
      });
      // Every argument must have landed as a parameter, as itself: not inlined, not computed with.
      for (const slot of slots) {
        if ('value' in slot && typeof slot.value === 'string' && slot.value.includes('\u0000arg:')) {
          throw new Error(`precompiled: an argument was computed with in ${compiled.sql}`);
        }
      }
      for (const name of used) {
        if (!slots.some((slot) => 'arg' in slot && slot.arg === name)) throw new Error(`precompiled: argument ${name} is not a parameter of ${compiled.sql}`);
      }
      plan = { sql: compiled.sql, slots };
      plans.set(engine, plan);
    }
    const parameters = plan.slots.map((slot) => ('arg' in slot ? (args as Record<string, unknown>)[slot.arg] : slot.value));
    return db.executeQuery(CompiledQuery.raw(plan.sql, parameters) as CompiledQuery<R>);
  };
}
