// The authorization matrix over the payment routes (authzRoutes.payments.ts), with subscriptions
// on and a fake PayPal: whose orders and captures are whose, each actor in a fresh world.
import { afterAll, beforeAll, describe } from 'vitest';
import { paypalEnv, startFakePaypal } from '../fixtures/fakePaypal.ts';
import { PAYMENT_CASES, PAYMENT_MATRIX, paypal } from './authzRoutes.payments.ts';
import { runMatrix, startAuthzServerWith, stopAuthzServer } from './authzSupport.ts';

beforeAll(async () => {
  paypal.fake = await startFakePaypal();
  await startAuthzServerWith({
    ...paypalEnv(paypal.fake),
  });
}, 60_000);
afterAll(async () => {
  await stopAuthzServer();
  await paypal.fake?.close();
});

describe('authorization matrix', () => {
  runMatrix(PAYMENT_MATRIX, PAYMENT_CASES);
});
