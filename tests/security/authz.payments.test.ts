// The authorization matrix over the payment routes (authzRoutes.payments.ts), with subscriptions
// on and a fake PayPal: whose orders and captures are whose, each actor in a fresh world.
import { afterAll, beforeAll, describe } from 'vitest';
import { FAKE_CLIENT_ID, FAKE_CLIENT_SECRET, FAKE_WEBHOOK_ID, startFakePaypal } from '../fixtures/fakePaypal.ts';
import { PAYMENT_CASES, PAYMENT_MATRIX, paypal } from './authzRoutes.payments.ts';
import { runMatrix, startAuthzServerWith, stopAuthzServer } from './authzSupport.ts';

beforeAll(async () => {
  paypal.fake = await startFakePaypal();
  await startAuthzServerWith({
    USE_SUBSCRIPTIONS: 'true',
    PAYPAL_CLIENT_ID: FAKE_CLIENT_ID,
    PAYPAL_CLIENT_SECRET: FAKE_CLIENT_SECRET,
    PAYPAL_API_URL: paypal.fake.url,
    PAYPAL_WEBHOOK_ID: FAKE_WEBHOOK_ID,
  });
}, 60_000);
afterAll(async () => {
  await stopAuthzServer();
  await paypal.fake?.close();
});

describe('authorization matrix', () => {
  runMatrix(PAYMENT_MATRIX, PAYMENT_CASES);
});
