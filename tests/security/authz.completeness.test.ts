// The authorization matrix is complete: the area tables (authzRoutes.*.ts) together list every
// API route the server registers, and no route it does not, each with its cases. A new route
// that no area lists, or a row for a route that is gone, fails here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_CASES, ACCOUNT_MATRIX } from './authzRoutes.accounts.ts';
import { MODEL_CASES, MODEL_MATRIX } from './authzRoutes.models.ts';
import { NODE_CASES, NODE_MATRIX } from './authzRoutes.nodes.ts';
import { PAYMENT_CASES, PAYMENT_MATRIX } from './authzRoutes.payments.ts';
import { SESSION_CASES, SESSION_MATRIX } from './authzRoutes.sessions.ts';
import { STORE_CASES, STORE_MATRIX } from './authzRoutes.stores.ts';
import { UPLOAD_CASES, UPLOAD_MATRIX } from './authzRoutes.uploads.ts';
import { startAuthzServer, stopAuthzServer, t } from './authzSupport.ts';

/** The area tables as one; a route listed in two areas would be tested twice, so it is refused. */
function joined<T>(tables: Record<string, T>[]): Record<string, T> {
  const all: Record<string, T> = {};
  for (const table of tables) {
    for (const [route, value] of Object.entries(table)) {
      if (route in all) throw new Error(`${route} is listed in two areas of the authorization matrix`);
      all[route] = value;
    }
  }
  return all;
}
const MATRIX = joined([ACCOUNT_MATRIX, SESSION_MATRIX, MODEL_MATRIX, STORE_MATRIX, NODE_MATRIX, UPLOAD_MATRIX, PAYMENT_MATRIX]);
const CASES = joined([ACCOUNT_CASES, SESSION_CASES, MODEL_CASES, STORE_CASES, NODE_CASES, UPLOAD_CASES, PAYMENT_CASES]);

beforeAll(startAuthzServer, 60_000);
afterAll(stopAuthzServer);

describe('authorization matrix', () => {
  it('lists every route the server registers, and no route it does not', () => {
    const registered = new Set(
      t.server.app.routes
        // Middleware (app.use) and the JSON 404 catch-all are ALL entries on wildcard paths.
        .filter((r) => !(r.method === 'ALL' && r.path.endsWith('*')))
        .map((r) => `${r.method} ${r.path}`),
    );
    expect([...registered].sort()).toEqual(Object.keys(MATRIX).sort());
    expect(Object.keys(CASES).sort()).toEqual(Object.keys(MATRIX).sort());
  });
});
