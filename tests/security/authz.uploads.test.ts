// The authorization matrix over the upload routes (authzRoutes.uploads.ts): whose an upload
// is, who may fill a presigned URL, and who reads an object URL, each actor in a fresh world
// (authzSupport.ts).
import { afterAll, beforeAll, describe } from 'vitest';
import { UPLOAD_CASES, UPLOAD_MATRIX } from './authzRoutes.uploads.ts';
import { runMatrix, startAuthzServer, stopAuthzServer } from './authzSupport.ts';

beforeAll(startAuthzServer, 60_000);
afterAll(stopAuthzServer);

describe('authorization matrix', () => {
  runMatrix(UPLOAD_MATRIX, UPLOAD_CASES);
});
