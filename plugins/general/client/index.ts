// Browser entry of the general plugin: the common handlers plus the browser's geolocation.
import { definePluginModule } from '../../../src/core/index.ts';
import { activateGeneral } from '../common/index.ts';

function geolocate(): Promise<{ latitude: number; longitude: number }> {
  return new Promise((resolve, reject) => {
    if (!('geolocation' in navigator)) return reject(new Error('unsupported'));
    navigator.geolocation.getCurrentPosition(
      (p) => resolve({ latitude: p.coords.latitude, longitude: p.coords.longitude }),
      reject,
      { timeout: 10_000, maximumAge: 60_000 },
    );
  });
}

export default definePluginModule({
  activate: (ctx) => activateGeneral(ctx, { geolocate }),
});
