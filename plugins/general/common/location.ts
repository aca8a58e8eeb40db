import { error, text, type CommandHandler } from '../../../src/core/index.ts';

export type Geolocate = () => Promise<{ latitude: number; longitude: number }>;

/**
 * `:location on` asks the platform for a position and stores "(lat,lng)"; any failure says
 * 'Location service failed.' and turns location off (spec part 8).
 */
export function locationCommand(geolocate: Geolocate | undefined): CommandHandler {
  return async (ctx) => {
    if (ctx.args.state === 'off') {
      ctx.settings.set('useLocation', false);
      ctx.settings.set('location', '');
      return text(ctx.t('msg.locationOff'));
    }
    try {
      if (!geolocate) throw new Error('no geolocation');
      const { latitude, longitude } = await geolocate();
      const location = `(${latitude.toFixed(4)},${longitude.toFixed(4)})`;
      ctx.settings.set('location', location);
      ctx.settings.set('useLocation', true);
      return text(ctx.t('msg.locationOn', { location }));
    } catch {
      ctx.settings.set('useLocation', false);
      ctx.settings.set('location', '');
      return error(ctx.t('msg.locationFailed'));
    }
  };
}
