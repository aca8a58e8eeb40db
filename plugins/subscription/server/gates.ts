// What the plus plan adds (spec parts 2 and 6), gated while subscriptions are on: MCP functions,
// adding and changing roles, data stores, nodes and the CLI need plus_user or above. A visitor
// who is not logged in is left to the routes' own 'Please login.', except in the CLI, which is
// told to log in (a visitor's CLI would otherwise have what a free account's has not). And a
// logged-in user whose fees are more than their balance is refused before anything is asked of
// a model.
//
// The CLI is known by its `x-shellchat-client: cli` header only: a client that leaves it out is
// served as the browser is (a visitor chats, a free account has its plan). The gate keeps the
// plus plan's terminal client to the plan; it cannot keep a free plan's features from a hand-made
// client, and has nothing more to protect: those are the web page's features.
import type { Context } from 'hono';
import type { AppEnv, Message, ServerPluginContext } from '../../../src/core/index.ts';
import { rankOf } from '../../../src/core/roles.ts';
import { MESSAGES } from '../common/messages.ts';
import { dollars, PLUS_RANK } from '../common/rules.ts';
import { moneyOf } from './money.ts';

/** Requests the CLI may make on any plan: signing in, its account, and buying a plan. */
const ANY_PLAN = /^\/api\/(ping|system\/info|user\/|subscription\/|payment\/)/;

const fromCli = (c: Context<AppEnv>) => c.req.header('x-shellchat-client') === 'cli' && !ANY_PLAN.test(c.req.path);

function featureOf(c: Context<AppEnv>): Message | undefined {
  const path = c.req.path;
  if (c.req.method === 'POST' && (path === '/api/role/add' || path === '/api/role/update')) return MESSAGES.featureRoles;
  if (path.startsWith('/api/store/')) return MESSAGES.featureStores;
  if (path.startsWith('/api/node/')) return MESSAGES.featureNodes;
  if (fromCli(c)) return MESSAGES.featureCli;
  return undefined;
}

export function addPlusGates(ctx: ServerPluginContext): void {
  ctx.addGate((c) => {
    const user = c.get('user');
    if (!user) return fromCli(c) ? ctx.refuse(c, 403, MESSAGES.cliLogin) : undefined;
    if (rankOf(user.role) >= PLUS_RANK) return undefined;
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
