// The authorization policy: one place decides who may read and change user, group and
// system objects, by rank and ownership. Routes ask it; tests/security/authz checks it.
import { rankOf, ROLE_RANKS, type Policy, type PolicyAction, type UserRow } from '../core/index.ts';

const isRoot = (user: UserRow | null | undefined) => !!user && rankOf(user.role) >= ROLE_RANKS.root_user;

export const policy: Policy = {
  can(actor: UserRow | null, action: PolicyAction, target?: UserRow | null): boolean {
    if (!actor) return false;
    const self = !!target && target.id === actor.id;
    switch (action) {
      case 'user.read':
      case 'user.update':
        return self || isRoot(actor);
      case 'user.delete':
        // Root may delete anyone but itself: the server always keeps one root.
        return (self && !isRoot(actor)) || (isRoot(actor) && !self);
      case 'user.role.update':
      case 'user.balance.update':
        // Until a payment plugin verifies purchases, only root changes roles and balances.
        return isRoot(actor);
      case 'group.join':
      case 'group.leave':
        return true;
      case 'system.read':
        return true;
      case 'session.list.all':
        return isRoot(actor);
    }
  },
};
