// get_weather(location): geocoding, then the current weather and a 3-day forecast, from an
// Open-Meteo-compatible API (GEOCODING_BASE_URL, WEATHER_BASE_URL).
import { fetchJson, FunctionError, stringArg, type Builtin } from './shared.ts';
import { MESSAGES } from '../../common/messages.ts';

/** WMO weather interpretation codes, as Open-Meteo documents them. */
const WMO: Record<number, string> = {
  0: 'clear sky', 1: 'mainly clear', 2: 'partly cloudy', 3: 'overcast', 45: 'fog', 48: 'depositing rime fog',
  51: 'light drizzle', 53: 'moderate drizzle', 55: 'dense drizzle', 56: 'light freezing drizzle', 57: 'dense freezing drizzle',
  61: 'slight rain', 63: 'moderate rain', 65: 'heavy rain', 66: 'light freezing rain', 67: 'heavy freezing rain',
  71: 'slight snow fall', 73: 'moderate snow fall', 75: 'heavy snow fall', 77: 'snow grains',
  80: 'slight rain showers', 81: 'moderate rain showers', 82: 'violent rain showers', 85: 'slight snow showers', 86: 'heavy snow showers',
  95: 'thunderstorm', 96: 'thunderstorm with slight hail', 99: 'thunderstorm with heavy hail',
};
const describe = (code: unknown) => (typeof code === 'number' && WMO[code]) || 'unknown conditions';

interface Place { name: string; latitude: number; longitude: number; country?: string; admin1?: string }
interface Forecast {
  current?: { temperature_2m?: number; weather_code?: number; wind_speed_10m?: number };
  current_units?: { temperature_2m?: string; wind_speed_10m?: string };
  daily?: { time?: string[]; weather_code?: number[]; temperature_2m_max?: number[]; temperature_2m_min?: number[] };
}

export const getWeather: Builtin = async (args, { signal, config }) => {
  const location = stringArg(args, 'location');
  const geo = (await fetchJson(`${config.geocodingBaseUrl}/v1/search?${new URLSearchParams({ name: location, count: '1', language: 'en', format: 'json' })}`, signal, 'geocoding')) as { results?: Place[] };
  const place = geo.results?.[0];
  if (!place || typeof place.latitude !== 'number' || typeof place.longitude !== 'number') throw new FunctionError(MESSAGES.locationNotFound(location));
  const query = new URLSearchParams({
    latitude: String(place.latitude),
    longitude: String(place.longitude),
    current: 'temperature_2m,weather_code,wind_speed_10m',
    daily: 'weather_code,temperature_2m_max,temperature_2m_min',
    timezone: 'auto',
    forecast_days: '3',
  });
  const data = (await fetchJson(`${config.weatherBaseUrl}/v1/forecast?${query}`, signal, 'weather')) as Forecast;
  const where = [place.name, place.admin1, place.country].filter(Boolean).join(', ');
  const tUnit = data.current_units?.temperature_2m ?? '°C';
  const wUnit = data.current_units?.wind_speed_10m ?? 'km/h';
  const lines: string[] = [];
  if (data.current) {
    lines.push(`Current weather in ${where}: ${data.current.temperature_2m}${tUnit}, ${describe(data.current.weather_code)}, wind ${data.current.wind_speed_10m} ${wUnit}.`);
  } else {
    lines.push(`Weather in ${where}:`);
  }
  const days = data.daily?.time ?? [];
  if (days.length) {
    lines.push('Forecast:');
    days.forEach((day, i) => {
      lines.push(`${day}: ${describe(data.daily?.weather_code?.[i])}, ${data.daily?.temperature_2m_min?.[i]}${tUnit} to ${data.daily?.temperature_2m_max?.[i]}${tUnit}.`);
    });
  }
  return { result: lines.join('\n') };
};
