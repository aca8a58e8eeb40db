// The Subscriptions page (spec part 2), in plain DOM: the plans with their price per month (0 is
// Free), the plus plan's note, the tokens note, the user's plan and its expiry, and the purchase
// controls (buy, extend, upgrade, a deferred downgrade; top-ups with the banking fee), each with
// PayPal's buttons. PayPal's script (@paypal/paypal-js) is loaded here only, from the address
// the server gives (PAYPAL_SDK_URL). After a payment, the server's words replace the controls,
// and the standing and the controls are drawn again from the server's answer.
import { loadScript } from '@paypal/paypal-js';
import { send, el, PlatformRef, translateMessage, typedClient, type MessageData, type PageMount, type PluginContext, type Translate } from '../../../src/core/index.ts';
import { formatRoleExpiry } from '../../../src/core/roles.ts';
import type { SubscriptionRoutes } from '../server/index.ts';
import { dollars, feeCents, moneyMessage, planChange, priceText, TOPUPS, type Plan, type SubscriptionStatus } from '../common/rules.ts';
import { MESSAGES } from '../common/messages.ts';

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
      const { plans } = (await send(api.subscription.list.$get())).result;
      const priceOf = (p: Plan) => say(priceText(p).toData());
      const table = el('table', { className: 'plans', testid: 'plans' }, el('thead', {}, el('tr', {}, el('th', {}, t('table.plan')), el('th', {}, t('table.price')), el('th', {}, t('table.adds')))));
      const body = el('tbody');
      for (const p of plans) body.append(el('tr', {}, el('td', {}, p.role), el('td', {}, priceOf(p)), el('td', {}, p.adds.map((f) => t(`feature.${f}`)).join(', '))));
      table.append(body);
      section.append(table, el('p', { className: 'note' }, t('page.plusNote')), el('p', { className: 'note' }, t('page.tokensNote')));

      if (!platform.online() || !(await signedIn())) {
        section.append(el('p', { testid: 'not-logged-in' }, t('page.notLoggedIn')));
        return;
      }
      const statusNow = async () => (await send(api.subscription.status.$get())).result as SubscriptionStatus;
      let status = await statusNow();
      // Where the user stands: redrawn from the server's answer after every payment.
      const standing = el('div', { className: 'standing' });
      const showStanding = () => {
        const lines = [el('p', { testid: 'standing' }, t('page.standing', { role: status.role, expires: status.expires }))];
        if (status.scheduled) lines.push(el('p', { testid: 'scheduled' }, t('page.scheduled', { role: status.scheduled.role, date: formatRoleExpiry(status.scheduled.from), until: formatRoleExpiry(status.scheduled.until) })));
        if (status.role === 'root_user') lines.push(el('p', { testid: 'root' }, say(MESSAGES.root.toData())));
        else lines.push(el('p', { testid: 'money', className: status.left_cents < 0 ? 'error' : '' }, say(moneyMessage(status).toData())));
        for (const d of status.declined) lines.push(el('p', { testid: 'declined' }, say(MESSAGES.declinedEarlier(d.amount, d.date).toData())));
        standing.replaceChildren(...lines);
      };
      showStanding();
      section.append(standing);
      if (status.role === 'root_user') return;
      const info = (await send(api.payment.info.$get())).result;
      if (!info.client_id) {
        section.append(el('p', { testid: 'payments-off' }, say(MESSAGES.paymentsOff.toData())));
        return;
      }
      const paypal = await loadScript({ clientId: info.client_id, currency: info.currency, intent: info.intent, sdkBaseUrl: info.sdk_url });
      if (gone || !paypal?.Buttons) return;

      // After a payment the server's words take the controls' place, and fresh controls for the
      // standing it left follow them, so another purchase (or another try) needs no reload.
      const result = el('p', { role: 'status', testid: 'purchase-result', hidden: true, tabIndex: -1 });
      const controls = el('div', { className: 'purchases' });
      const paid = async (text: string, ok: boolean, fresh?: SubscriptionStatus) => {
        if (gone) return;
        status = fresh ?? (await statusNow().catch(() => status));
        if (gone) return;
        result.textContent = text;
        result.className = ok ? 'ok' : 'error';
        result.hidden = false;
        showStanding();
        build();
        result.focus();
      };
      const errorText = (err: unknown) => {
        const e = err as { said?: MessageData; message?: string };
        return e.said ? say(e.said) : String(e.message ?? err);
      };

      /** A purchase box: what it does and PayPal's buttons. */
      const purchase = (id: string, heading: string, detail: string | null, order: () => Promise<string>) => {
        const buttons = el('div', { className: 'paypal-buttons' });
        const box = el('div', { className: 'purchase', id: `buy-${id}`, testid: `purchase-${id}` }, el('h2', {}, heading), ...(detail ? [el('p', {}, detail)] : []), buttons);
        void paypal.Buttons!({
          style: { layout: 'horizontal', label: 'pay' },
          createOrder: order,
          onApprove: async (data) => {
            try {
              const answer = await send(api.payment.capture.$post({ json: { orderId: data.orderID } }));
              await paid(saidOf(answer), true, answer.result as SubscriptionStatus);
            } catch (err) {
              await paid(errorText(err), false);
            }
          },
          onError: (err) => void paid(errorText(err), false),
        }).render(buttons);
        return box;
      };
      const order = async (json: { kind: 'plan'; role: string } | { kind: 'topup'; amount: number }) => (await send(api.payment.order.$post({ json }))).result.id;

      // Top-up: the choices, the fee shown, the payment its sum (the choice kept across redraws).
      const chosen = { amount: focus?.startsWith('topup:') ? Number(focus.slice(6)) || 5 : 5 };
      const topupBox = () => {
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
        // The balance is in the standing above, beside the fees and what is left.
        const box = purchase('topup', t('page.topup'), null, () => order({ kind: 'topup', amount: chosen.amount }));
        box.insertBefore(choices, box.querySelector('.paypal-buttons'));
        box.insertBefore(fee, box.querySelector('.paypal-buttons'));
        return box;
      };

      /** The purchase controls for the standing as it is now. */
      const build = () => {
        const boxes: HTMLElement[] = [];
        const now = { role: status.role, expiresAt: status.expires_at, scheduled: status.scheduled ? { role: status.scheduled.role, months: 1 } : null };
        for (const p of plans.filter((x) => x.price_cents > 0)) {
          const change = planChange(now, p, plans, Date.now());
          if (change.kind === 'refused') {
            boxes.push(el('p', { testid: `refused-${p.role}` }, say(change.said.toData())));
            continue;
          }
          const verb = t(`page.${change.kind}`, { role: p.role });
          const until = change.kind === 'downgrade' ? t('page.from', { date: formatRoleExpiry(change.from), until: formatRoleExpiry(change.until) }) : t('page.until', { date: formatRoleExpiry(change.until) });
          boxes.push(purchase(`plan-${p.role}`, verb, `${priceOf(p)} · ${until}`, () => order({ kind: 'plan', role: p.role })));
        }
        boxes.push(topupBox());
        controls.replaceChildren(...boxes);
      };
      build();
      section.append(result, controls);
      // `:subscription buy <plan>` and `:subscription topup <n>` open the page at their controls.
      const target = focus?.startsWith('plan:') ? section.querySelector(`#buy-plan-${CSS.escape(focus.slice(5))}`) : focus?.startsWith('topup:') ? section.querySelector('#buy-topup') : null;
      if (target instanceof HTMLElement) {
        target.scrollIntoView({ block: 'center' });
        target.tabIndex = -1;
        target.focus();
      }
    }

    const signedIn = async () => !!ctx.settings.get<string>('user');
    render().catch((err: unknown) => {
      if (!gone) section.append(el('p', { className: 'error', testid: 'page-error' }, String((err as Error)?.message ?? err)));
    });
    return () => {
      gone = true;
      root.replaceChildren();
    };
  };
}
