import { resetSession, text, type CommandHandler } from '../../../src/core/index.ts';

export const sessionCommands: Record<string, CommandHandler> = {
  reset: (ctx) => {
    resetSession(ctx.settings);
    return text(ctx.t('msg.reset'));
  },
};
