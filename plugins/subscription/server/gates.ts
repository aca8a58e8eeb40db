// What the plus plan adds (spec parts 2 and 6), gated while subscriptions are on: MCP functions,
// adding and changing roles, data stores, nodes and the CLI need plus_user or above. A visitor
// who is not logged in is left to the routes' own 'Please login.'. And a logged-in user whose
// fees are more than their balance is refused before anything is asked of a model.
import type { Context } from 'hono';
import type { AppEnv, Message, ServerPluginContext } from '../../../src/core/index.ts';
import { rankOf } from '../../../src/core/roles.ts';
import { dollars, MESSAGES, PLUS_RANK } from '../common/rules.ts';
import { moneyOf } from './money.ts';

/** Requests the CLI may make on any plan: signing in, its account, and buying a plan. */
const ANY_PLAN = /^\/api\/(ping|system\/info|user\/|subscription\/|payment\/)/;

function featureOf(c: Context<AppEnv>): Message | undefined {
  const path = c.req.path;
  if (c.req.method === 'POST' && (path === '/api/role/add' || path === '/api/role/update')) return MESSAGES.featureRoles;
  if (path.startsWith('/api/store/')) return MESSAGES.featureStores;
  if (path.startsWith('/api/node/')) return MESSAGES.featureNodes;
  if (c.req.header('x-shellchat-client') === 'cli' && !ANY_PLAN.test(path)) return MESSAGES.featureCli;
  return undefined;
}

export function addPlusGates(ctx: ServerPluginContext): void {
  ctx.addGate((c) => {
    const user = c.get('user');
    if (!user || rankOf(user.role) >= PLUS_RANK) return undefined;
    const feature = featureOf(c);
    return feature ? ctx.refuse(c, 403, MESSAGES.plusRequired(feature)) : undefined;
  });
}

/** Before a turn: MCP functions need the plus plan, and fees may not pass the balance. */
export function addPaymentGuard(ctx: ServerPluginContext): void {
  ctx.generation.addGuard(async ({ request, owner }) => {
    const user = owner.user;
    if (!user || user.role === 'root_user') return undefined;
    if (request.mcp_tools?.length && rankOf(user.role) < PLUS_RANK) return MESSAGES.plusRequired(MESSAGES.featureMcp);
    const { feeCents, balanceCents } = await moneyOf(ctx.db, user.id);
    return feeCents > balanceCents ? MESSAGES.balanceExceeded(dollars(feeCents), dollars(balanceCents)) : undefined;
  });
}
