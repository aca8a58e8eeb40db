// The Subscriptions page (spec part 2), in plain DOM: the plans with their price per month (0 is
// Free), the plus plan's note, the tokens note, the user's plan and its expiry, and the purchase
// controls (buy, extend, upgrade, a deferred downgrade; top-ups with the banking fee), each with
// PayPal's buttons. PayPal's script (@paypal/paypal-js) is loaded here only, from the address
// the server gives (PAYPAL_SDK_URL). After a payment, the server's words replace the controls.
import { loadScript } from '@paypal/paypal-js';
import { call, PlatformRef, translateMessage, typedClient, type MessageData, type PageMount, type PluginContext, type Translate } from '../../../src/core/index.ts';
import { formatRoleExpiry } from '../../../src/core/roles.ts';
import type { SubscriptionRoutes } from '../server/index.ts';
import { dollars, feeCents, planChange, TOPUPS, type Plan, type SubscriptionStatus } from '../common/rules.ts';

const el = <K extends keyof HTMLElementTagNameMap>(tag: K, props: Partial<HTMLElementTagNameMap[K]> & { testid?: string } = {}, ...children: (Node | string)[]) => {
  const node = document.createElement(tag);
  const { testid, ...rest } = props;
  Object.assign(node, rest);
  if (testid) node.dataset.testid = testid;
  node.append(...children);
  return node;
};

export function subscriptionsPage(ctx: PluginContext): PageMount {
  return (root, { focus }) => {
    let gone = false;
    const t = ctx.t;
    const platform = ctx.services.get(PlatformRef);
    const api = typedClient<SubscriptionRoutes>(platform.api).api;
    // The server's messages by their code: this plugin's in the page's language, others as sent.
    const english: Translate = (_key, vars) => String(vars?.defaultValue ?? '');
    const say = (data: MessageData | string) => (typeof data === 'string' ? data : translateMessage(data, (ns) => (ns === 'subscription' ? t : english)));
    const saidOf = (answer: { message?: string; error?: string; code?: string; params?: MessageData['params'] }) =>
      say(answer.code ? { code: answer.code, params: answer.params ?? {}, text: answer.message ?? answer.error ?? '' } : (answer.message ?? answer.error ?? ''));

    const section = el('section', { className: 'page subscriptions' }, el('h1', {}, t('page.title')));
    root.replaceChildren(section);

    async function render() {
      const { plans } = (await call(api.subscription.list.$get())).result;
      const priceOf = (p: Plan) => (p.price_cents === 0 ? say(ctxMessage('free')) : say(ctxMessage('perMonth', { price: p.price })));
      const table = el('table', { className: 'plans', testid: 'plans' }, el('thead', {}, el('tr', {}, el('th', {}, t('table.plan')), el('th', {}, t('table.price')), el('th', {}, t('table.adds')))));
      const body = el('tbody');
      for (const p of plans) body.append(el('tr', {}, el('td', {}, p.role), el('td', {}, priceOf(p)), el('td', {}, p.adds.map((f) => t(`feature.${f}`)).join(', '))));
      table.append(body);
      section.append(table, el('p', { className: 'note' }, t('page.plusNote')), el('p', { className: 'note' }, t('page.tokensNote')));

      if (!platform.online() || !(await signedIn())) {
        section.append(el('p', { testid: 'not-logged-in' }, t('page.notLoggedIn')));
        return;
      }
      const status = (await call(api.subscription.status.$get())).result as SubscriptionStatus;
      section.append(el('p', { testid: 'standing' }, t('page.standing', { role: status.role, expires: status.expires, balance: status.balance })));
      if (status.scheduled) section.append(el('p', { testid: 'scheduled' }, t('page.scheduled', { role: status.scheduled.role, date: formatRoleExpiry(status.scheduled.from), until: formatRoleExpiry(status.scheduled.until) })));
      if (status.role === 'root_user') {
        section.append(el('p', { testid: 'root' }, say(ctxMessage('root'))));
        return;
      }
      const info = (await call(api.payment.info.$get())).result;
      if (!info.client_id) {
        section.append(el('p', { testid: 'payments-off' }, say(ctxMessage('paymentsOff'))));
        return;
      }
      const paypal = await loadScript({ clientId: info.client_id, currency: info.currency, intent: info.intent, sdkBaseUrl: info.sdk_url });
      if (gone || !paypal?.Buttons) return;

      /** A purchase box: what it does, PayPal's buttons, and then the server's words in its place. */
      const purchase = (id: string, heading: string, detail: string, order: () => Promise<string>) => {
        const buttons = el('div', { className: 'paypal-buttons' });
        const box = el('div', { className: 'purchase', id: `buy-${id}`, testid: `purchase-${id}` }, el('h2', {}, heading), el('p', {}, detail), buttons);
        const done = (text: string, ok: boolean) => box.replaceChildren(el('p', { className: ok ? 'ok' : 'error', role: 'status', testid: 'purchase-result' }, text));
        void paypal.Buttons!({
          style: { layout: 'horizontal', label: 'pay' },
          createOrder: order,
          onApprove: async (data) => {
            try {
              const answer = await call(api.payment.capture.$post({ json: { orderId: data.orderID } }));
              done(saidOf(answer), true);
            } catch (err) {
              done(errorText(err), false);
            }
          },
          onError: (err) => done(errorText(err), false),
        }).render(buttons);
        return box;
      };
      const errorText = (err: unknown) => {
        const e = err as { said?: MessageData; message?: string };
        return e.said ? say(e.said) : String(e.message ?? err);
      };
      const order = async (json: { kind: 'plan'; role: string } | { kind: 'topup'; amount: number }) => (await call(api.payment.order.$post({ json }))).result.id;

      const standing = { role: status.role, expiresAt: status.expires_at, scheduled: status.scheduled ? { role: status.scheduled.role, months: 1 } : null };
      const controls = el('div', { className: 'purchases' });
      for (const p of plans.filter((x) => x.price_cents > 0)) {
        const change = planChange(standing, p, plans, Date.now());
        if (change.kind === 'refused') {
          controls.append(el('p', { testid: `refused-${p.role}` }, say(change.said.toData())));
          continue;
        }
        const verb = t(`page.${change.kind}`, { role: p.role });
        const until = change.kind === 'downgrade' ? t('page.from', { date: formatRoleExpiry(change.from), until: formatRoleExpiry(change.until) }) : t('page.until', { date: formatRoleExpiry(change.until) });
        controls.append(purchase(`plan-${p.role}`, verb, `${priceOf(p)} · ${until}`, () => order({ kind: 'plan', role: p.role })));
      }
      // Top-up: the choices, the fee shown, the payment its sum.
      const chosen = { amount: focus?.startsWith('topup:') ? Number(focus.slice(6)) || 5 : 5 };
      const fee = el('p', { testid: 'topup-fee' });
      const showFee = () => (fee.textContent = t('page.fee', { amount: dollars(chosen.amount * 100), fee: dollars(feeCents(chosen.amount * 100)), total: dollars(chosen.amount * 100 + feeCents(chosen.amount * 100)) }));
      const choices = el('fieldset', { className: 'topups' }, el('legend', {}, t('page.topup')));
      for (const amount of TOPUPS) {
        const input = el('input', { type: 'radio', name: 'topup', value: String(amount), checked: amount === chosen.amount, testid: `topup-${amount}` });
        input.addEventListener('change', () => {
          chosen.amount = amount;
          showFee();
        });
        choices.append(el('label', {}, input, ` $${amount}`));
      }
      showFee();
      const topup = purchase('topup', t('page.topup'), t('page.balance', { balance: status.balance }), () => order({ kind: 'topup', amount: chosen.amount }));
      topup.insertBefore(choices, topup.querySelector('.paypal-buttons'));
      topup.insertBefore(fee, topup.querySelector('.paypal-buttons'));
      controls.append(topup);
      section.append(controls);
      // `:subscription buy <plan>` and `:subscription topup <n>` open the page at their controls.
      const target = focus?.startsWith('plan:') ? section.querySelector(`#buy-plan-${CSS.escape(focus.slice(5))}`) : focus?.startsWith('topup:') ? topup : null;
      if (target instanceof HTMLElement) {
        target.scrollIntoView({ block: 'center' });
        target.tabIndex = -1;
        target.focus();
      }
    }

    const signedIn = async () => !!ctx.settings.get<string>('user');
    const ctxMessage = (name: string, params: Record<string, string> = {}): MessageData => ({ code: `subscription.${name}`, params, text: '' });
    render().catch((err: unknown) => {
      if (!gone) section.append(el('p', { className: 'error', testid: 'page-error' }, String((err as Error)?.message ?? err)));
    });
    return () => {
      gone = true;
      root.replaceChildren();
    };
  };
}
