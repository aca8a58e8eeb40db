// The authorization matrix over the node routes (authzRoutes.nodes.ts): the owner's node and
// its key stay the owner's, each actor in a fresh world (authzSupport.ts).
import { afterAll, beforeAll, describe } from 'vitest';
import { NODE_CASES, NODE_MATRIX } from './authzRoutes.nodes.ts';
import { runMatrix, startAuthzServer, stopAuthzServer } from './authzSupport.ts';

beforeAll(startAuthzServer, 60_000);
afterAll(stopAuthzServer);

describe('authorization matrix', () => {
  runMatrix(NODE_MATRIX, NODE_CASES);
});
