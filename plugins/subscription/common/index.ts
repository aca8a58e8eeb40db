// Handlers of the subscription commands: the standing (plan, expiry, balance, a plan bought for
// later), the plans, and buying or topping up, which opens the Subscriptions page at its
// purchase controls (paying happens in PayPal's buttons there).
import {
  send,
  withApiErrors,
  effect,
  error,
  PlatformRef,
  text,
  translateMessage,
  typedClient,
  type Output,
  type PluginContext,
} from '../../../src/core/index.ts';
import { formatRoleExpiry } from '../../../src/core/roles.ts';
import type { SubscriptionRoutes } from '../server/index.ts';
import { MESSAGES } from './messages.ts';
import { moneyMessage, priceText, TOPUPS } from './rules.ts';

export * from './messages.ts';
export * from './rules.ts';


export function activateSubscription(ctx: PluginContext): void {
  const api = typedClient<SubscriptionRoutes>(ctx.services.get(PlatformRef).api).api;

  ctx.handle('subscription', () =>
    withApiErrors(async () => {
      const status = (await send(api.subscription.status.$get())).result;
      if (status.role === 'root_user') return text(MESSAGES.root);
      const out: Output[] = [text(MESSAGES.status(status.role, status.expires))];
      if (status.scheduled) out.push(text(MESSAGES.statusScheduled(status.scheduled.role, formatRoleExpiry(status.scheduled.from))));
      // What is paid in, spent and left (or owed) side by side: the figures the balance check uses.
      out.push(text(moneyMessage(status)));
      for (const d of status.declined) out.push(text(MESSAGES.declinedEarlier(d.amount, d.date)));
      return out;
    }),
  );

  ctx.handle('subscription.ls', (c) =>
    withApiErrors(async () => {
      const { plans } = (await send(api.subscription.list.$get())).result;
      const limit = (n: number | null) => (n === null ? '-' : String(n));
      return {
        kind: 'table',
        columns: [c.t('table.plan'), c.t('table.price'), c.t('table.limits'), c.t('table.adds')],
        rows: plans.map((p) => [
          p.role,
          translateMessage(priceText(p), (ns) => c.tFor(ns)),
          p.limits ? `${limit(p.limits.daily)}/${limit(p.limits.weekly)}/${limit(p.limits.monthly)}` : '-',
          p.adds.map((f) => c.t(`feature.${f}`)).join(', '),
        ]),
      };
    }),
  );

  ctx.handle('subscription.buy', (c) =>
    withApiErrors(async () => {
      const { plans } = (await send(api.subscription.list.$get())).result;
      const plan = plans.find((p) => p.role === c.args.plan);
      if (!plan) return error(MESSAGES.planNotFound(c.args.plan ?? ''));
      // The free plan is not sold: say so here rather than open a page with nothing to buy.
      if (plan.price_cents === 0) return error(MESSAGES.freePlan);
      return [text(c.t('msg.payOnPage', { plan: plan.role })), effect({ type: 'view', view: 'back', page: 'subscriptions', focus: `plan:${plan.role}` })];
    }),
  );

  ctx.handle('subscription.topup', (c) => {
    const amount = Number(c.args.amount);
    if (!(TOPUPS as readonly number[]).includes(amount)) return error(MESSAGES.amountInvalid);
    return [text(c.t('msg.payOnPage', { plan: `$${amount}` })), effect({ type: 'view', view: 'back', page: 'subscriptions', focus: `topup:${amount}` })];
  });
}
