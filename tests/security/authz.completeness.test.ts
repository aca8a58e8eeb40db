// The authorization matrix is complete: the server's own tables (authzRoutes.*.ts) and every
// configured plugin's (plugins/<id>/authz.ts) together list every API route the server
// registers, and no route it does not, each with its cases. A new route that no table lists,
// or a row for a route that is gone, fails here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORE_CASES, CORE_MATRIX } from './authzRoutes.core.ts';
import { GENERATION_CASES, GENERATION_MATRIX } from './authzRoutes.generation.ts';
import { UPLOAD_CASES, UPLOAD_MATRIX } from './authzRoutes.uploads.ts';
import { pluginAuthz, startAuthzServer, stopAuthzServer, t } from './authzSupport.ts';

/** The tables as one; a route listed in two would be tested twice, so it is refused. */
function joined<T>(tables: Record<string, T>[]): Record<string, T> {
  const all: Record<string, T> = {};
  for (const table of tables) {
    for (const [route, value] of Object.entries(table)) {
      if (route in all) throw new Error(`${route} is listed in two tables of the authorization matrix`);
      all[route] = value;
    }
  }
  return all;
}
const plugins = await pluginAuthz();
const MATRIX = joined([CORE_MATRIX, GENERATION_MATRIX, UPLOAD_MATRIX, ...plugins.map((p) => p.matrix)]);
const CASES = joined([CORE_CASES, GENERATION_CASES, UPLOAD_CASES, ...plugins.map((p) => p.cases)]);

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

  it("keeps each plugin's rows in its own folder, the server's own in tests/security", () => {
    const owner = new Map(t.server.apiRoutes().map((r) => [`${r.method} ${r.path}`, r.owner]));
    expect(plugins.map((p) => p.id)).toEqual(expect.arrayContaining(['user', 'session', 'model', 'store']));
    for (const p of plugins) for (const route of Object.keys(p.matrix)) expect([route, owner.get(route)]).toEqual([route, p.id]);
    for (const route of Object.keys({ ...CORE_MATRIX, ...GENERATION_MATRIX, ...UPLOAD_MATRIX })) expect([route, owner.get(route)]).toEqual([route, 'core']);
  });
});
