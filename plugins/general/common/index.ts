// Handlers of the general commands. They run in any environment; the browser entry adds the
// platform pieces (geolocation) that only a browser has.
import type { PluginContext } from '../../../src/core/index.ts';
import { helpCommand } from './help.ts';
import { langCommands } from './lang.ts';
import { locationCommand, type Geolocate } from './location.ts';
import { setCommands } from './set.ts';
import { sessionCommands } from './session.ts';
import { viewCommands } from './view.ts';

export interface GeneralPlatform {
  geolocate?: Geolocate;
}

export function activateGeneral(ctx: PluginContext, platform: GeneralPlatform = {}): void {
  ctx.handle('help', helpCommand);
  for (const [id, handler] of Object.entries({ ...viewCommands, ...langCommands, ...setCommands, ...sessionCommands })) {
    ctx.handle(id, handler);
  }
  ctx.handle('location', locationCommand(platform.geolocate));
}
