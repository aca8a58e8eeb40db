// The authorization matrix over the store and function routes (authzRoutes.stores.ts): the
// owner's store is the owner's to change and the group's to read, each actor in a fresh world
// (authzSupport.ts).
import { afterAll, beforeAll, describe } from 'vitest';
import { STORE_CASES, STORE_MATRIX } from './authzRoutes.stores.ts';
import { runMatrix, startAuthzServer, stopAuthzServer } from './authzSupport.ts';

beforeAll(startAuthzServer, 60_000);
afterAll(stopAuthzServer);

describe('authorization matrix', () => {
  runMatrix(STORE_MATRIX, STORE_CASES);
});
