import { CommandRegistry, error, helpFor, helpOverview, type CommandHandler } from '../../../src/core/index.ts';

/** `:help` lists every command by group; `:help <command>` shows the matching commands. */
export const helpCommand: CommandHandler = async (ctx) => {
  await ctx.loadNamespaces(ctx.manifests.map((m) => m.id));
  const registry = new CommandRegistry(ctx.manifests, ctx.env);
  const query = ctx.args.command?.trim();
  if (!query) return helpOverview(registry, ctx.tFor);
  return helpFor(registry, ctx.tFor, query) ?? error(ctx.t('msg.commandNotFound'));
};
