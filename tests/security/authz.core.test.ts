// The authorization matrix over the server's own routes: the ping and system info
// (authzRoutes.core.ts), generation (authzRoutes.generation.ts) and uploads
// (authzRoutes.uploads.ts), each actor in a fresh world (authzSupport.ts). Each plugin's rows
// are its own (plugins/<id>/authz.ts, authz.plugins.test.ts).
import { afterAll, beforeAll, describe } from 'vitest';
import { CORE_CASES, CORE_MATRIX } from './authzRoutes.core.ts';
import { GENERATION_CASES, GENERATION_MATRIX } from './authzRoutes.generation.ts';
import { UPLOAD_CASES, UPLOAD_MATRIX } from './authzRoutes.uploads.ts';
import { runMatrix, startAuthzServer, stopAuthzServer } from './authzSupport.ts';

beforeAll(startAuthzServer, 60_000);
afterAll(stopAuthzServer);

describe('authorization matrix', () => {
  runMatrix(CORE_MATRIX, CORE_CASES);
  runMatrix(GENERATION_MATRIX, GENERATION_CASES);
  runMatrix(UPLOAD_MATRIX, UPLOAD_CASES);
});
