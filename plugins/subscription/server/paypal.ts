// PayPal's REST API (Orders v2) as the server uses it: an OAuth2 client-credentials token
// (cached until shortly before it expires), create an order at the price the server computed,
// read it, capture it (PayPal-Request-Id makes a retry of the same capture a replay, not a
// second charge), and verify a webhook's signature with PayPal's own call. The base URL is
// the operator's (PAYPAL_API_URL), so this is not the egress-safe fetch of user URLs.

export interface PaypalMoney {
  currency_code: string;
  value: string;
}
export interface PaypalCapture {
  id: string;
  status: string;
  amount: PaypalMoney;
  custom_id?: string;
}
export interface PaypalOrder {
  id: string;
  status: string;
  purchase_units?: { custom_id?: string; amount?: PaypalMoney; payments?: { captures?: PaypalCapture[] } }[];
}

/** A PayPal answer other than success: its HTTP status and its first issue (ORDER_ALREADY_CAPTURED...). */
export class PaypalError extends Error {
  readonly status: number;
  readonly issue: string;
  constructor(status: number, issue: string, message: string) {
    super(message);
    this.status = status;
    this.issue = issue;
  }
}

export interface PaypalSettings {
  clientId: string;
  clientSecret: string;
  apiUrl: string;
  webhookId: string;
}

/** How long a PayPal call may take before it counts as failed (the order stays for reconcile). */
const TIMEOUT_MS = 20_000;

export function paypalClient(settings: PaypalSettings, doFetch: typeof fetch = fetch) {
  let token: { value: string; until: number } | undefined;

  async function call(method: 'GET' | 'POST', path: string, body?: unknown, requestId?: string, retried = false): Promise<unknown> {
    const bearer = await accessToken();
    const response = await doFetch(`${settings.apiUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${bearer}`,
        'content-type': 'application/json',
        ...(requestId ? { 'paypal-request-id': requestId } : {}),
        prefer: 'return=representation',
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    const text = await response.text();
    const json = (text ? JSON.parse(text) : {}) as { name?: string; message?: string; details?: { issue?: string; description?: string }[] };
    if (response.status === 401 && !retried) {
      // A token PayPal revoked early: one fresh one.
      token = undefined;
      return call(method, path, body, requestId, true);
    }
    if (!response.ok) throw new PaypalError(response.status, json.details?.[0]?.issue ?? json.name ?? 'ERROR', json.details?.[0]?.description ?? json.message ?? `PayPal answered ${response.status}`);
    return json;
  }

  async function accessToken(): Promise<string> {
    if (token && token.until > Date.now()) return token.value;
    const response = await doFetch(`${settings.apiUrl}/v1/oauth2/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${settings.clientId}:${settings.clientSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    const json = (await response.json().catch(() => ({}))) as { access_token?: string; expires_in?: number; error_description?: string };
    if (!response.ok || !json.access_token) throw new PaypalError(response.status, 'AUTHENTICATION_FAILURE', json.error_description ?? `PayPal answered ${response.status}`);
    token = { value: json.access_token, until: Date.now() + Math.max(0, (json.expires_in ?? 0) - 60) * 1000 };
    return token.value;
  }

  return {
    /** An order for `cents` USD, bound to our reference (custom_id), created once per reference. */
    createOrder: (reference: string, cents: number, description: string) =>
      call(
        'POST',
        '/v2/checkout/orders',
        {
          intent: 'CAPTURE',
          purchase_units: [{ reference_id: 'default', custom_id: reference, description, amount: { currency_code: 'USD', value: `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}` } }],
        },
        `order-${reference}`,
      ) as Promise<PaypalOrder>,
    getOrder: (orderId: string) => call('GET', `/v2/checkout/orders/${encodeURIComponent(orderId)}`) as Promise<PaypalOrder>,
    captureOrder: (orderId: string) => call('POST', `/v2/checkout/orders/${encodeURIComponent(orderId)}/capture`, {}, `capture-${orderId}`) as Promise<PaypalOrder>,
    /** PayPal's verify-webhook-signature call over the event as received. */
    async verifyWebhook(headers: (name: string) => string | undefined, event: unknown): Promise<boolean> {
      if (!settings.webhookId) return false;
      const answer = (await call('POST', '/v1/notifications/verify-webhook-signature', {
        auth_algo: headers('paypal-auth-algo'),
        cert_url: headers('paypal-cert-url'),
        transmission_id: headers('paypal-transmission-id'),
        transmission_sig: headers('paypal-transmission-sig'),
        transmission_time: headers('paypal-transmission-time'),
        webhook_id: settings.webhookId,
        webhook_event: event,
      })) as { verification_status?: string };
      return answer.verification_status === 'SUCCESS';
    },
  };
}

export type PaypalClient = ReturnType<typeof paypalClient>;

/** The capture an order carries, when it has one. */
export const captureOf = (order: PaypalOrder): PaypalCapture | undefined => order.purchase_units?.[0]?.payments?.captures?.[0];
