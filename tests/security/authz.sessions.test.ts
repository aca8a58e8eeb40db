// The authorization matrix over the session, log and generation routes (authzRoutes.sessions.ts):
// who may read, continue or write into the owner's unshared session, each actor in a fresh
// world (authzSupport.ts).
import { afterAll, beforeAll, describe } from 'vitest';
import { SESSION_CASES, SESSION_MATRIX } from './authzRoutes.sessions.ts';
import { runMatrix, startAuthzServer, stopAuthzServer } from './authzSupport.ts';

beforeAll(startAuthzServer, 60_000);
afterAll(stopAuthzServer);

describe('authorization matrix', () => {
  runMatrix(SESSION_MATRIX, SESSION_CASES);
});
