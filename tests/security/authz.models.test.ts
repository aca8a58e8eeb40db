// The authorization matrix over the model and role routes (authzRoutes.models.ts): the owner's
// model key and role prompt stay the owner's, and changes reach the caller's own rows only,
// each actor in a fresh world (authzSupport.ts).
import { afterAll, beforeAll, describe } from 'vitest';
import { MODEL_CASES, MODEL_MATRIX } from './authzRoutes.models.ts';
import { runMatrix, startAuthzServer, stopAuthzServer } from './authzSupport.ts';

beforeAll(startAuthzServer, 60_000);
afterAll(stopAuthzServer);

describe('authorization matrix', () => {
  runMatrix(MODEL_MATRIX, MODEL_CASES);
});
