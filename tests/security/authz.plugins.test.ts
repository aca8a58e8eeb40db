// The authorization matrix over each plugin's routes: the rows in plugins/<id>/authz.ts of every
// plugin the app's configuration names, each plugin against a server of its own (with what its
// rows need: the subscription plugin's fake PayPal), each actor in a fresh world (authzSupport.ts).
import { afterAll, beforeAll, describe } from 'vitest';
import { pluginAuthz, runMatrix, startAuthzServerWith, stopAuthzServer } from './authzSupport.ts';

for (const { id, matrix, cases, server } of await pluginAuthz()) {
  describe(`authorization matrix: ${id}`, () => {
    beforeAll(async () => startAuthzServerWith((await server?.start()) ?? {}), 60_000);
    afterAll(async () => {
      await stopAuthzServer();
      await server?.stop();
    });
    runMatrix(matrix, cases);
  });
}
